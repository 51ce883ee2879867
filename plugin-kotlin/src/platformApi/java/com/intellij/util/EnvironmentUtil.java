// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/util/EnvironmentUtil.java @ 017e7512f060ea5a18d4fa005a6fac5193cae567
package com.intellij.util;

import org.jetbrains.annotations.NotNull;
import java.util.Map;

public final class EnvironmentUtil {
  public static @NotNull Map<String, String> getEnvironmentMap() { throw new UnsupportedOperationException(); }
}
