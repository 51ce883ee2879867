// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/util/Key.java @ 04dd803275b3fc326e9218e3426dd2a75d2af7ee
package com.intellij.openapi.util;

import org.jetbrains.annotations.NotNull;

public class Key<T> {
  public Key(@NotNull String name) { }
  public static @NotNull <T> Key<T> create(@NotNull String name) { throw new UnsupportedOperationException(); }
}
