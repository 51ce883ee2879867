// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/ActionGroup.java @ 06383ad60d6dd24ae655bb21c027223a37255df3
package com.intellij.openapi.actionSystem;

import org.jetbrains.annotations.NotNull;

public abstract class ActionGroup extends AnAction {
  @Override
  public void actionPerformed(@NotNull AnActionEvent e) { }
}
