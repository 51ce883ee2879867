// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/editor/colors/EditorColorsListener.java @ 755c27be4ed789574cfabea8718778197f07bd1b
package com.intellij.openapi.editor.colors;

import org.jetbrains.annotations.Nullable;
import java.util.EventListener;

public interface EditorColorsListener extends EventListener {
  void globalSchemeChange(@Nullable EditorColorsScheme scheme);
}
