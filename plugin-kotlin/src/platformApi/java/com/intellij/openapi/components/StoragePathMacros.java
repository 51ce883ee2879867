// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/StoragePathMacros.java @ not-looked-up
package com.intellij.openapi.components;

public final class StoragePathMacros {
  public static final String WORKSPACE_FILE = "$WORKSPACE_FILE$";
}
