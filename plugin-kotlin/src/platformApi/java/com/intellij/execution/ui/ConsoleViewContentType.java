// Declares (compile-only, never shipped): JetBrains/intellij-community platform/lang-api/src/com/intellij/execution/ui/ConsoleViewContentType.java @ 051f2edb2cce91e58392e3c279c5e48ae4806407
package com.intellij.execution.ui;

import com.intellij.openapi.editor.colors.ColorKey;
import com.intellij.openapi.editor.colors.TextAttributesKey;

public class ConsoleViewContentType {
  public static final ColorKey CONSOLE_BACKGROUND_KEY = null;
  public static final TextAttributesKey NORMAL_OUTPUT_KEY = null;
}
