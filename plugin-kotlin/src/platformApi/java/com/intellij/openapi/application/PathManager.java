// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/application/PathManager.java @ not-looked-up
package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;

public final class PathManager {
  public static @NotNull String getSystemPath() { throw new UnsupportedOperationException(); }
}
