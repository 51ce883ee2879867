// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/openapi/options/ConfigurationException.java @ 15343567cf7809eb623839598d6437db1454e59b
package com.intellij.openapi.options;

public class ConfigurationException extends Exception {
  public ConfigurationException(String message, String title) { super(message); }
}
