// Declares (compile-only, never shipped): JetBrains/intellij-community platform/analysis-api/src/com/intellij/openapi/fileEditor/FileEditorManager.java @ not-looked-up
package com.intellij.openapi.fileEditor;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

public abstract class FileEditorManager {
  public static FileEditorManager getInstance(@NotNull Project project) { throw new UnsupportedOperationException(); }
  public FileEditor[] openFile(@NotNull VirtualFile file, boolean focusEditor) { throw new UnsupportedOperationException(); }
}
