// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/Disposable.java @ not-looked-up
package com.intellij.openapi;

@FunctionalInterface
public interface Disposable {
  void dispose();
}
