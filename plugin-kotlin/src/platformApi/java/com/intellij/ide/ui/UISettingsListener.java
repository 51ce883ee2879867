// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ide/ui/UISettingsListener.java @ not-in-index (searched: ide-core path absent; platform-api version 83b1bb32 is from 2009, without TOPIC; the declared form matches find_string copies of later versions)
package com.intellij.ide.ui;

import com.intellij.util.messages.Topic;
import org.jetbrains.annotations.NotNull;
import java.util.EventListener;

@FunctionalInterface
public interface UISettingsListener extends EventListener {
  Topic<UISettingsListener> TOPIC = new Topic<>(UISettingsListener.class);
  void uiSettingsChanged(@NotNull UISettings uiSettings);
}
