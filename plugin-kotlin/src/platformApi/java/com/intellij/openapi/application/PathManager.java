// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/application/PathManager.java @ 02c6cb2724d301ce0082420c25adab9690f70c64
package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;

public class PathManager {
  public static @NotNull String getSystemPath() { throw new UnsupportedOperationException(); }
}
