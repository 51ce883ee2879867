// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/content/ContentFactory.java @ not-looked-up
package com.intellij.ui.content;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import javax.swing.JComponent;

public interface ContentFactory {
  static @NotNull ContentFactory getInstance() { throw new UnsupportedOperationException(); }
  @NotNull Content createContent(@Nullable JComponent component, @Nullable String displayName, boolean isLockable);
}
