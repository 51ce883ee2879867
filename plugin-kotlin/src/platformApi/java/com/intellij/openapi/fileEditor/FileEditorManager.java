// Declares (compile-only, never shipped): JetBrains/intellij-community platform/analysis-api/src/com/intellij/openapi/fileEditor/FileEditorManager.java @ 07e122abc4ce261214e92b734767ca5ae330523a
package com.intellij.openapi.fileEditor;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

public abstract class FileEditorManager {
  public static FileEditorManager getInstance(@NotNull Project project) { throw new UnsupportedOperationException(); }
  @NotNull public abstract FileEditor[] openFile(@NotNull VirtualFile file, boolean focusEditor);
}
