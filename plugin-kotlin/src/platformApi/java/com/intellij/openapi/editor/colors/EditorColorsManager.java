// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/editor/colors/EditorColorsManager.java @ 0babb0aea041ac3b9fe9df5419f1618ed7c91ee5
package com.intellij.openapi.editor.colors;

import com.intellij.util.messages.Topic;
import org.jetbrains.annotations.NotNull;

public abstract class EditorColorsManager {
  public static final Topic<EditorColorsListener> TOPIC = new Topic<>(EditorColorsListener.class);
  public static EditorColorsManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract @NotNull EditorColorsScheme getGlobalScheme();
}
