// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/StoragePathMacros.java @ 012689830bd1b4854913910b658d4eca2f5c582f
package com.intellij.openapi.components;

public class StoragePathMacros {
  private StoragePathMacros() { }
  public static final String WORKSPACE_FILE = "$WORKSPACE_FILE$";
}
