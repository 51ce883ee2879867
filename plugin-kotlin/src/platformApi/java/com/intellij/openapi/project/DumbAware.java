// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/project/DumbAware.java @ 0219be6ae4c5c050bef75ffa5566ac9c2a21e345
package com.intellij.openapi.project;

public interface DumbAware extends PossiblyDumbAware { }
