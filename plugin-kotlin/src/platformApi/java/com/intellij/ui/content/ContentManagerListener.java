// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ui/content/ContentManagerListener.java @ 9b9ff165706956ffc3ed1f123b47b2ad43adc22b
package com.intellij.ui.content;

import org.jetbrains.annotations.NotNull;
import java.util.EventListener;

public interface ContentManagerListener extends EventListener {
  default void contentAdded(@NotNull ContentManagerEvent event) { }
  default void contentRemoved(@NotNull ContentManagerEvent event) { }
  /** Before a content is removed (its close button, Close Tab): consume() keeps it. */
  default void contentRemoveQuery(@NotNull ContentManagerEvent event) { }
  default void selectionChanged(@NotNull ContentManagerEvent event) { }
}
