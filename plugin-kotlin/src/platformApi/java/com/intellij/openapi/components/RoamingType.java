// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/components/RoamingType.java @ e0b56105da494f1b127ffcf201b1165475aa698f
package com.intellij.openapi.components;

public enum RoamingType { DISABLED, LOCAL, DEFAULT }
