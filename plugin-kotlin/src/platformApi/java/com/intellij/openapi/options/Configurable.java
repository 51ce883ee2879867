// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/openapi/options/Configurable.java @ 2a215a8c941fa96601407560d420270baaf28a61
package com.intellij.openapi.options;

public interface Configurable { }
