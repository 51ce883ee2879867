// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/diagnostic/Logger.java @ not-looked-up
package com.intellij.openapi.diagnostic;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class Logger {
  public static @NotNull Logger getInstance(@NotNull Class<?> cl) { throw new UnsupportedOperationException(); }
  public abstract void debug(String message);
  public void info(String message) { throw new UnsupportedOperationException(); }
  public void warn(String message) { throw new UnsupportedOperationException(); }
  public abstract void warn(String message, @Nullable Throwable t);
  public void error(String message, @Nullable Throwable t) { throw new UnsupportedOperationException(); }
}
