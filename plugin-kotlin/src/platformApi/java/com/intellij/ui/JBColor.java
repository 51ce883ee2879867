// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/ui/JBColor.java @ 026915342927f0aa3ebcf478bd2760f82dd23246
package com.intellij.ui;

import org.jetbrains.annotations.NotNull;
import java.awt.Color;

public class JBColor extends Color {
  public JBColor(int rgb, int darkRGB) { super(rgb); }
  public static boolean isBright() { throw new UnsupportedOperationException(); }
  public static @NotNull JBColor namedColor(@NotNull String propertyName, @NotNull Color defaultColor) { throw new UnsupportedOperationException(); }
}
