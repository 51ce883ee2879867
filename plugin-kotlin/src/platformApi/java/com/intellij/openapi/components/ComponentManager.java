// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/components/ComponentManager.java @ 6cb854a2c8ff8a5fb330c517fbbe45a25a8f9ccb
package com.intellij.openapi.components;

import com.intellij.openapi.Disposable;
import com.intellij.util.messages.MessageBus;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public interface ComponentManager extends Disposable {
  @NotNull MessageBus getMessageBus();
  boolean isDisposed();
  <T> T getService(@NotNull Class<T> serviceClass);
  @Nullable <T> T getServiceIfCreated(@NotNull Class<T> serviceClass);
}
