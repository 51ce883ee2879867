// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/content/ContentManager.java @ not-looked-up
package com.intellij.ui.content;

import org.jetbrains.annotations.NotNull;

public interface ContentManager {
  void addContent(@NotNull Content content);
}
