// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/util/messages/SimpleMessageBusConnection.java @ 49db9518f97861f7761bb28ed773537ae41e5dae
package com.intellij.util.messages;

import org.jetbrains.annotations.NotNull;

public interface SimpleMessageBusConnection {
  <L> void subscribe(@NotNull Topic<L> topic, @NotNull L handler) throws IllegalStateException;
}
