// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/vfs/VirtualFile.java @ not-looked-up
package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

public abstract class VirtualFile {
  public abstract @NotNull String getPath();
  public abstract boolean isWritable();
}
