// Declares (compile-only, never shipped): JetBrains/intellij-community platform/diff-api/src/com/intellij/diff/DiffManager.java @ 03980ad0dccbd9a9140c4dc2415985c469f99ae7
package com.intellij.diff;

import com.intellij.diff.requests.DiffRequest;
import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class DiffManager {
  public static @NotNull DiffManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract void showDiff(@Nullable Project project, @NotNull DiffRequest request);
}
