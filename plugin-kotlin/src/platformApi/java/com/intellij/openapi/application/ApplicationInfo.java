// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/application/ApplicationInfo.java @ 1b60492d9aaafd2fd96b139eebd27aa370ad66b3
package com.intellij.openapi.application;

public abstract class ApplicationInfo {
  public static ApplicationInfo getInstance() { throw new UnsupportedOperationException(); }
  public abstract String getFullApplicationName();
  public abstract String getFullVersion();
}
