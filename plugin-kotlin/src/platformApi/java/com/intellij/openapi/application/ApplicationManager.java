// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/application/ApplicationManager.java @ d520a94846640256212e9ca938cafa58e5c00627
package com.intellij.openapi.application;

public class ApplicationManager {
  public static Application getApplication() { throw new UnsupportedOperationException(); }
}
