// Declares (compile-only, never shipped): JetBrains/intellij-community platform/execution/src/com/intellij/execution/process/ConsoleHighlighter.java @ not-in-index (searched: read_file platform/execution/src and platform/lang-api/src paths, find_string "public final class ConsoleHighlighter" and the CONSOLE_DARKGRAY_OUTPUT key)
package com.intellij.execution.process;

import com.intellij.openapi.editor.colors.TextAttributesKey;

public final class ConsoleHighlighter {
  public static final TextAttributesKey BLACK = null, RED = null, GREEN = null, YELLOW = null, BLUE = null, MAGENTA = null, CYAN = null, GRAY = null;
  public static final TextAttributesKey DARKGRAY = null, RED_BRIGHT = null, GREEN_BRIGHT = null, YELLOW_BRIGHT = null, BLUE_BRIGHT = null, MAGENTA_BRIGHT = null, CYAN_BRIGHT = null, WHITE = null;
}
