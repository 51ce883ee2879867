// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/components/PersistentStateComponent.java @ a669f1e9522961ee89c3295ced44078f93a359af
package com.intellij.openapi.components;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public interface PersistentStateComponent<T> {
  @Nullable T getState();
  void loadState(@NotNull T state);
}
