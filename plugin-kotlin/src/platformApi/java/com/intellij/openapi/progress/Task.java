// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/progress/Task.java @ a7c4cb6bd50eb84091683d59c91638b06c232f54
package com.intellij.openapi.progress;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class Task {
  public abstract void run(@NotNull ProgressIndicator indicator);
  public void onSuccess() { }
  public void onCancel() { }
  public void onThrowable(@NotNull Throwable error) { }
  public void onFinished() { }

  public abstract static class Backgroundable extends Task {
    public Backgroundable(@Nullable Project project, @NotNull String title, boolean canBeCancelled) { }
  }

  public abstract static class Modal extends Task {
    public Modal(@Nullable Project project, @NotNull String title, boolean canBeCancelled) { }
  }
}
