// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/util/messages/MessageBusConnection.java @ not-looked-up
package com.intellij.util.messages;

import com.intellij.openapi.Disposable;
import org.jetbrains.annotations.NotNull;

public interface MessageBusConnection extends Disposable {
  <L> void subscribe(@NotNull Topic<L> topic, @NotNull L handler);
}
