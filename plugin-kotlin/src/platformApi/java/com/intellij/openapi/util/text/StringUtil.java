// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/util/text/StringUtil.java @ not-looked-up
package com.intellij.openapi.util.text;

import org.jetbrains.annotations.NotNull;

public class StringUtil {
  public static @NotNull String escapeXmlEntities(@NotNull String text) { throw new UnsupportedOperationException(); }
}
