// Declares (compile-only, never shipped): JetBrains/intellij-community platform/analysis-api/src/com/intellij/openapi/vfs/LocalFileSystem.java @ not-looked-up
package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import java.nio.file.Path;

public abstract class LocalFileSystem {
  public static LocalFileSystem getInstance() { throw new UnsupportedOperationException(); }
  public abstract @Nullable VirtualFile findFileByPath(@NotNull String path);
  public @Nullable VirtualFile refreshAndFindFileByNioFile(@NotNull Path file) { throw new UnsupportedOperationException(); }
}
