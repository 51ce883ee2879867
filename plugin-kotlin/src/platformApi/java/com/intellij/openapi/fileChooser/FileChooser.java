// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/fileChooser/FileChooser.java @ 03980ad0dccbd9a9140c4dc2415985c469f99ae7
package com.intellij.openapi.fileChooser;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public class FileChooser {
  private FileChooser() { }
  public static @Nullable VirtualFile chooseFile(@NotNull FileChooserDescriptor descriptor, @Nullable Project project, @Nullable VirtualFile toSelect) { throw new UnsupportedOperationException(); }
}
