// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/editor/colors/EditorColorsListener.java @ not-looked-up
package com.intellij.openapi.editor.colors;

import org.jetbrains.annotations.Nullable;
import java.util.EventListener;

@FunctionalInterface
public interface EditorColorsListener extends EventListener {
  void globalSchemeChange(@Nullable EditorColorsScheme scheme);
}
