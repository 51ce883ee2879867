// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/editor/colors/EditorColorsScheme.java @ 012689830bd1b4854913910b658d4eca2f5c582f
package com.intellij.openapi.editor.colors;

import com.intellij.openapi.editor.markup.TextAttributes;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import java.awt.Color;
import java.awt.Font;

public interface EditorColorsScheme {
  // Inherited from TextAttributesScheme in the source (not declared here: nothing else uses it).
  TextAttributes getAttributes(TextAttributesKey key);
  @Nullable Color getColor(ColorKey key);
  @NotNull Color getDefaultBackground();
  @NotNull Color getDefaultForeground();
  Font getFont(EditorFontType key);
}
