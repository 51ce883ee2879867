// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/util/EnvironmentUtil.java @ not-looked-up
package com.intellij.util;

import org.jetbrains.annotations.NotNull;
import java.util.Map;

public final class EnvironmentUtil {
  public static @NotNull Map<String, String> getEnvironmentMap() { throw new UnsupportedOperationException(); }
}
