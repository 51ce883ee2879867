// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/project/DumbAwareToggleAction.java @ 22f9f488193a8e784e0dd7050f41d350668ab424
package com.intellij.openapi.project;

import com.intellij.openapi.actionSystem.ToggleAction;
import org.jetbrains.annotations.Nullable;
import javax.swing.Icon;

public abstract class DumbAwareToggleAction extends ToggleAction implements DumbAware {
  protected DumbAwareToggleAction(@Nullable String text, @Nullable String description, @Nullable Icon icon) { super(text, description, icon); }
}
