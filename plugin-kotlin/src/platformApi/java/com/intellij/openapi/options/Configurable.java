// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/openapi/options/Configurable.java @ not-looked-up
package com.intellij.openapi.options;

public interface Configurable { }
