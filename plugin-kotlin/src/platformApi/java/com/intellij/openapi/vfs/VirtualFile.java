// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/vfs/VirtualFile.java @ 02c71004fcfd95ea1b686d9f9c502166ba67cd6a
package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

public abstract class VirtualFile {
  public abstract @NotNull String getPath();
  public abstract boolean isWritable();
}
