// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/diagnostic/Logger.java @ 020aed2188e7fda8c0475c38344bbdf2cbd9b68f
package com.intellij.openapi.diagnostic;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class Logger {
  public static @NotNull Logger getInstance(@NotNull Class<?> cl) { throw new UnsupportedOperationException(); }
  public abstract void debug(String message);
  public abstract void info(String message);
  public void warn(String message) { throw new UnsupportedOperationException(); }
  public abstract void warn(String message, @Nullable Throwable t);
  public void error(String message, @Nullable Throwable t) { throw new UnsupportedOperationException(); }
}
