// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/actionSystem/DefaultActionGroup.java @ 41cee1421f771f743cfc8f21d0e1acb0eb945327
package com.intellij.openapi.actionSystem;

import org.jetbrains.annotations.NotNull;
import java.util.List;

public class DefaultActionGroup extends ActionGroup {
  public DefaultActionGroup(@NotNull List<? extends AnAction> actions) { throw new UnsupportedOperationException(); }
}
