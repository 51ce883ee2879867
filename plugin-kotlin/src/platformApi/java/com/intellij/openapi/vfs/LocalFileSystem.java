// Declares (compile-only, never shipped): JetBrains/intellij-community platform/analysis-api/src/com/intellij/openapi/vfs/LocalFileSystem.java @ 07e9a2c7aed4f7424b2933d9c33fd4d439ea4441
package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import java.nio.file.Path;

public abstract class LocalFileSystem {
  public static LocalFileSystem getInstance() { throw new UnsupportedOperationException(); }
  public abstract @Nullable VirtualFile findFileByPath(@NotNull String path);
  public final @Nullable VirtualFile refreshAndFindFileByNioFile(@NotNull Path file) { throw new UnsupportedOperationException(); }
}
