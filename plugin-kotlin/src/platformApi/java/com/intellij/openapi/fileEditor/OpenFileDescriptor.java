// Declares (compile-only, never shipped): JetBrains/intellij-community platform/analysis-api/src/com/intellij/openapi/fileEditor/OpenFileDescriptor.java @ 011ee4e847c6e434128e37f9e00754234faa8cb3
package com.intellij.openapi.fileEditor;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

public class OpenFileDescriptor {
  public OpenFileDescriptor(@NotNull Project project, @NotNull VirtualFile file, int logicalLine, int logicalColumn) { }
  public void navigate(boolean requestFocus) { throw new UnsupportedOperationException(); }
}
