// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/AnActionEvent.java @ 41cee1421f771f743cfc8f21d0e1acb0eb945327
package com.intellij.openapi.actionSystem;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public class AnActionEvent {
  public @Nullable Project getProject() { throw new UnsupportedOperationException(); }
  public @NotNull Presentation getPresentation() { throw new UnsupportedOperationException(); }
}
