// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/Disposable.java @ 07e9a2c7aed4f7424b2933d9c33fd4d439ea4441
package com.intellij.openapi;

public interface Disposable {
  void dispose();
}
