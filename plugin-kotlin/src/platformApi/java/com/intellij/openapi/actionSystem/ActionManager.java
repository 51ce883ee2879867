// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/ActionManager.java @ 41cee1421f771f743cfc8f21d0e1acb0eb945327
package com.intellij.openapi.actionSystem;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class ActionManager {
  public static ActionManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract @Nullable AnAction getAction(@NotNull String actionId);
  public abstract @NotNull ActionToolbar createActionToolbar(String place, @NotNull ActionGroup group, boolean horizontal);
}
