// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/ActionGroup.java @ not-looked-up
package com.intellij.openapi.actionSystem;

import org.jetbrains.annotations.NotNull;

public abstract class ActionGroup extends AnAction {
  @Override
  public void actionPerformed(@NotNull AnActionEvent e) { }
}
