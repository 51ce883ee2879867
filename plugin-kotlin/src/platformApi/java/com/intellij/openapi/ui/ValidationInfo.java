// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/ui/ValidationInfo.java @ ae03770724431e98eb0459b69efd1da795558842
package com.intellij.openapi.ui;

public final class ValidationInfo {
  public ValidationInfo(String message) { }
}
