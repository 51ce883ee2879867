// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/actionSystem/ToggleAction.java @ 0219be6ae4c5c050bef75ffa5566ac9c2a21e345
package com.intellij.openapi.actionSystem;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import javax.swing.Icon;

// The platform's actionPerformed (final) calls setSelected(e, !isSelected(e)); update() shows isSelected.
public abstract class ToggleAction extends AnAction {
  public ToggleAction(@Nullable String text, @Nullable String description, @Nullable Icon icon) { }
  @Override
  public final void actionPerformed(@NotNull AnActionEvent e) { throw new UnsupportedOperationException(); }
  public abstract boolean isSelected(@NotNull AnActionEvent e);
  public abstract void setSelected(@NotNull AnActionEvent e, boolean state);
}
