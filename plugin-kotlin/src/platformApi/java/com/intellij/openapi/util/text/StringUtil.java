// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/util/text/StringUtil.java @ 00284beefc24e71e61cd38f92be5e8ab4db546d5
package com.intellij.openapi.util.text;

import org.jetbrains.annotations.NotNull;

public class StringUtil {
  public static @NotNull String escapeXmlEntities(@NotNull String text) { throw new UnsupportedOperationException(); }
}
