// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/fileTypes/FileTypeManager.java @ 72a7c46665c3c96bdf3e80c4b1a55b2017123ddb
package com.intellij.openapi.fileTypes;

import org.jetbrains.annotations.NotNull;

public abstract class FileTypeManager {
  public static FileTypeManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract @NotNull FileType getFileTypeByFileName(@NotNull String fileName);
}
