// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/fileTypes/FileType.java @ 03073c10b6c4802e35d17a60bff33c59b5ad6c48
package com.intellij.openapi.fileTypes;

public interface FileType { }
