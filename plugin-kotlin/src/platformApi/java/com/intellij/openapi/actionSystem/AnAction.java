// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/AnAction.java @ 5eda561006e5f6c696214569bd78a6b095fc674a
package com.intellij.openapi.actionSystem;

import com.intellij.openapi.Disposable;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import javax.swing.JComponent;

public abstract class AnAction {
  public @NotNull ActionUpdateThread getActionUpdateThread() { throw new UnsupportedOperationException(); }
  public void update(@NotNull AnActionEvent e) { }
  public abstract void actionPerformed(@NotNull AnActionEvent e);
  public final void registerCustomShortcutSet(@NotNull ShortcutSet shortcutSet, @Nullable JComponent component, @Nullable Disposable parentDisposable) { throw new UnsupportedOperationException(); }
}
