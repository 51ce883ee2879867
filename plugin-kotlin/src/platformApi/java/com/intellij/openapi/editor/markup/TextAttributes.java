// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/editor/markup/TextAttributes.java @ 0329548cdca63e1759f2207b9c5e22a7c371929c
package com.intellij.openapi.editor.markup;

import java.awt.Color;

public class TextAttributes {
  public Color getForegroundColor() { throw new UnsupportedOperationException(); }
  public Color getBackgroundColor() { throw new UnsupportedOperationException(); }
}
