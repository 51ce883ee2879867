// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/openapi/project/DumbAwareAction.java @ not-looked-up
package com.intellij.openapi.project;

import com.intellij.openapi.actionSystem.AnAction;
import org.jetbrains.annotations.Nullable;
import javax.swing.Icon;

public abstract class DumbAwareAction extends AnAction implements DumbAware {
  protected DumbAwareAction(@Nullable String text, @Nullable String description, @Nullable Icon icon) { }
}
