// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/notification/Notification.java @ af39b0f56f5867b2f20c160fadf1f9515eac2041
package com.intellij.notification;

import com.intellij.openapi.actionSystem.AnAction;
import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public class Notification {
  public @NotNull Notification addAction(@NotNull AnAction action) { throw new UnsupportedOperationException(); }
  public void expire() { throw new UnsupportedOperationException(); }
  public void notify(@Nullable Project project) { throw new UnsupportedOperationException(); }
}
