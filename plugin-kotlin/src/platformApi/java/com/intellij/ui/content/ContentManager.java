// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ui/content/ContentManager.java @ 06b6f557919e109c8e8682109fa7fe4a0221bdcf
package com.intellij.ui.content;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public interface ContentManager {
  void addContent(@NotNull Content content);
  boolean removeContent(@NotNull Content content, boolean dispose);
  void setSelectedContent(@NotNull Content content);
  @Nullable Content getSelectedContent();
  void addContentManagerListener(@NotNull ContentManagerListener listener);
  void removeContentManagerListener(@NotNull ContentManagerListener listener);
}
