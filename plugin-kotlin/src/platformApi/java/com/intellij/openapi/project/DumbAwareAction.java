// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/openapi/project/DumbAwareAction.java @ 26d0a5715427544a10ba7777465e6b0800bb4089
package com.intellij.openapi.project;

import com.intellij.openapi.actionSystem.AnAction;
import org.jetbrains.annotations.Nullable;
import javax.swing.Icon;

public abstract class DumbAwareAction extends AnAction implements DumbAware {
  protected DumbAwareAction(@Nullable String text, @Nullable String description, @Nullable Icon icon) { }
}
