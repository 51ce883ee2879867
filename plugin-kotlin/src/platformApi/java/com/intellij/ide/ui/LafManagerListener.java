// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ide/ui/LafManagerListener.java @ not-in-index (searched: only an older version is stored, 03980ad0, without TOPIC; TOPIC and the method from find_string copies of later versions)
package com.intellij.ide.ui;

import com.intellij.util.messages.Topic;
import org.jetbrains.annotations.NotNull;
import java.util.EventListener;

public interface LafManagerListener extends EventListener {
  Topic<LafManagerListener> TOPIC = new Topic<>(LafManagerListener.class);
  void lookAndFeelChanged(@NotNull LafManager source);
}
