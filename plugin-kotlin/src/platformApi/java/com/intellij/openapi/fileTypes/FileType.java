// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/fileTypes/FileType.java @ not-looked-up
package com.intellij.openapi.fileTypes;

public interface FileType { }
