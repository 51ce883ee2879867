// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/editor/colors/EditorColorsScheme.java @ not-looked-up
package com.intellij.openapi.editor.colors;

import com.intellij.openapi.editor.markup.TextAttributes;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import java.awt.Color;
import java.awt.Font;

public interface EditorColorsScheme {
  @Nullable TextAttributes getAttributes(TextAttributesKey key);
  @Nullable Color getColor(ColorKey key);
  @NotNull Color getDefaultBackground();
  @NotNull Color getDefaultForeground();
  @NotNull Font getFont(EditorFontType key);
}
