// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/openapi/wm/ToolWindow.java @ 00b6e3d02d78a2391a69989977bd55e09ef1082c
package com.intellij.openapi.wm;

import com.intellij.openapi.Disposable;
import com.intellij.openapi.actionSystem.AnAction;
import com.intellij.openapi.util.Key;
import com.intellij.ui.content.ContentManager;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import javax.swing.JComponent;
import java.util.List;

public interface ToolWindow {
  /** A content's icon shows on its tab only when the content carries this key set to true. */
  Key<Boolean> SHOW_CONTENT_ICON = new Key<>("ContentIcon");

  void show(@Nullable Runnable runnable);
  default void show() { show(null); }
  boolean isVisible();
  /** The tool window's whole content area (every content's component is inside it). */
  @NotNull JComponent getComponent();
  @NotNull ContentManager getContentManager();
  void setTitleActions(@NotNull List<? extends AnAction> actions);
  @NotNull Disposable getDisposable();
}
