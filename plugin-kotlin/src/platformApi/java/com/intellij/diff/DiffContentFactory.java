// Declares (compile-only, never shipped): JetBrains/intellij-community platform/diff-api/src/com/intellij/diff/DiffContentFactory.java @ 2a971b44db08f72ca96cf68f3235f597d8f42bd7
package com.intellij.diff;

import com.intellij.diff.contents.DocumentContent;
import com.intellij.openapi.fileTypes.FileType;
import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class DiffContentFactory {
  public static @NotNull DiffContentFactory getInstance() { throw new UnsupportedOperationException(); }
  public abstract @NotNull DocumentContent create(@Nullable Project project, @NotNull String text, @Nullable FileType type);
}
