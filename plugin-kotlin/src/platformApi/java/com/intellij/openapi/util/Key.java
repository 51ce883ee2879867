// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/util/Key.java @ not-looked-up
package com.intellij.openapi.util;

public class Key<T> {
  public Key(String name) { }
  public static <T> Key<T> create(String name) { throw new UnsupportedOperationException(); }
}
