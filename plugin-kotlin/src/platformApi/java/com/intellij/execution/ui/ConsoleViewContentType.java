// Declares (compile-only, never shipped): JetBrains/intellij-community platform/execution/src/com/intellij/execution/ui/ConsoleViewContentType.java @ not-looked-up
package com.intellij.execution.ui;

import com.intellij.openapi.editor.colors.ColorKey;
import com.intellij.openapi.editor.colors.TextAttributesKey;

public class ConsoleViewContentType {
  public static final ColorKey CONSOLE_BACKGROUND_KEY = null;
  public static final TextAttributesKey NORMAL_OUTPUT_KEY = null;
}
