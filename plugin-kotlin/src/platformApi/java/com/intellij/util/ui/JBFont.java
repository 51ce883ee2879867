// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/util/ui/JBFont.java @ not-looked-up
package com.intellij.util.ui;

import java.awt.Font;

public class JBFont extends Font {
  private JBFont(Font font) { super(font); }
  public static JBFont label() { throw new UnsupportedOperationException(); }
  public static JBFont medium() { throw new UnsupportedOperationException(); }
}
