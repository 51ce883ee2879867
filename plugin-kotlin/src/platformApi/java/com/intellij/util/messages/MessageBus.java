// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/util/messages/MessageBus.java @ not-looked-up
package com.intellij.util.messages;

import com.intellij.openapi.Disposable;
import org.jetbrains.annotations.NotNull;

public interface MessageBus {
  @NotNull MessageBusConnection connect(@NotNull Disposable parentDisposable);
  @NotNull <L> L syncPublisher(@NotNull Topic<L> topic);
}
