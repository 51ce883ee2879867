// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/application/Application.java @ 3759705cc157db3602a8b33aab0117a8bbe747c2
package com.intellij.openapi.application;

import com.intellij.openapi.components.ComponentManager;
import org.jetbrains.annotations.NotNull;
import java.util.concurrent.Future;

public interface Application extends ComponentManager {
  void invokeLater(@NotNull Runnable runnable);
  void invokeLater(@NotNull Runnable runnable, @NotNull ModalityState state);
  boolean isDispatchThread();
  boolean isActive();
  @NotNull Future<?> executeOnPooledThread(@NotNull Runnable action);
}
