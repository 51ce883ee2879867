// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/project/PossiblyDumbAware.java @ 662b7b97b9d509b83b864ae356aa848f7f2814e7
package com.intellij.openapi.project;

public interface PossiblyDumbAware { }
