// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/progress/ProgressManager.java @ 3759705cc157db3602a8b33aab0117a8bbe747c2
package com.intellij.openapi.progress;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class ProgressManager {
  public static ProgressManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract void run(@NotNull Task task);
  public abstract boolean runProcessWithProgressSynchronously(@NotNull Runnable process, @NotNull String progressTitle, boolean canBeCanceled, @Nullable Project project);
}
