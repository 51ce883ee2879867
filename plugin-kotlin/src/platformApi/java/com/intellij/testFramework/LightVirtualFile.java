// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/testFramework/LightVirtualFile.java @ 07e9a2c7aed4f7424b2933d9c33fd4d439ea4441
package com.intellij.testFramework;

import com.intellij.openapi.fileTypes.FileType;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

public class LightVirtualFile extends VirtualFile {
  public LightVirtualFile(@NotNull String name, FileType fileType, @NotNull CharSequence text) { }
  @Override public @NotNull String getPath() { throw new UnsupportedOperationException(); }
  @Override public boolean isWritable() { throw new UnsupportedOperationException(); }
  public void setWritable(boolean writable) { throw new UnsupportedOperationException(); }
}
