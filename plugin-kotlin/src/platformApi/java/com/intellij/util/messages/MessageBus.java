// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/util/messages/MessageBus.java @ 59d111a02a2d88f65d8cce1e68a6960815543c6a
package com.intellij.util.messages;

import com.intellij.openapi.Disposable;
import org.jetbrains.annotations.NotNull;

public interface MessageBus extends Disposable {
  @NotNull MessageBusConnection connect(@NotNull Disposable parentDisposable);
  @NotNull <L> L syncPublisher(@NotNull Topic<L> topic);
}
