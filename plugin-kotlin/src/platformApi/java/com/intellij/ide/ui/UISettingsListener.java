// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ide/ui/UISettingsListener.java @ not-looked-up
package com.intellij.ide.ui;

import com.intellij.util.messages.Topic;
import org.jetbrains.annotations.NotNull;
import java.util.EventListener;

@FunctionalInterface
public interface UISettingsListener extends EventListener {
  Topic<UISettingsListener> TOPIC = new Topic<>(UISettingsListener.class);
  void uiSettingsChanged(@NotNull UISettings uiSettings);
}
