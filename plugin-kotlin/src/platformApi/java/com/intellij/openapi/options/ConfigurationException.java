// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/openapi/options/ConfigurationException.java @ not-looked-up
package com.intellij.openapi.options;

public class ConfigurationException extends Exception {
  public ConfigurationException(String message, String title) { super(message); }
}
