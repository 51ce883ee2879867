// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/content/ContentFactory.java @ not-in-index (searched: only an older version is stored, 11bd5d64, with SERVICE.getInstance and no static getInstance; find_string for the static method found no copy)
package com.intellij.ui.content;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import javax.swing.JComponent;

public interface ContentFactory {
  static @NotNull ContentFactory getInstance() { throw new UnsupportedOperationException(); }
  @NotNull Content createContent(@Nullable JComponent component, @Nullable String displayName, boolean isLockable);
}
