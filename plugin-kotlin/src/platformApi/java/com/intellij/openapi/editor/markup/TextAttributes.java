// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/editor/markup/TextAttributes.java @ not-looked-up
package com.intellij.openapi.editor.markup;

import java.awt.Color;

public class TextAttributes {
  public Color getForegroundColor() { throw new UnsupportedOperationException(); }
  public Color getBackgroundColor() { throw new UnsupportedOperationException(); }
}
