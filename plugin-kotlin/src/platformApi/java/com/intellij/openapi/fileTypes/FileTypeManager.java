// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/fileTypes/FileTypeManager.java @ not-looked-up
package com.intellij.openapi.fileTypes;

import org.jetbrains.annotations.NotNull;

public abstract class FileTypeManager {
  public static @NotNull FileTypeManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract @NotNull FileType getFileTypeByFileName(@NotNull String fileName);
}
