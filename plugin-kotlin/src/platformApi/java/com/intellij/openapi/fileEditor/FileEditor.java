// Declares (compile-only, never shipped): JetBrains/intellij-community platform/analysis-api/src/com/intellij/openapi/fileEditor/FileEditor.java @ not-looked-up
package com.intellij.openapi.fileEditor;

public interface FileEditor { }
