// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/wm/ToolWindow.java @ 28fd4c402475889b52a6ec9972dd0e8850cce5e9
package com.intellij.openapi.wm;

import com.intellij.openapi.Disposable;
import com.intellij.openapi.actionSystem.AnAction;
import com.intellij.ui.content.ContentManager;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import java.util.List;

public interface ToolWindow {
  void show(@Nullable Runnable runnable);
  default void show() { show(null); }
  boolean isVisible();
  @NotNull ContentManager getContentManager();
  void setTitleActions(@NotNull List<? extends AnAction> actions);
  @NotNull Disposable getDisposable();
}
