// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ide/ui/LafManagerListener.java @ not-looked-up
package com.intellij.ide.ui;

import com.intellij.util.messages.Topic;
import org.jetbrains.annotations.NotNull;
import java.util.EventListener;

@FunctionalInterface
public interface LafManagerListener extends EventListener {
  Topic<LafManagerListener> TOPIC = new Topic<>(LafManagerListener.class);
  void lookAndFeelChanged(@NotNull LafManager source);
}
