// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/util/UserDataHolder.java @ not-looked-up
package com.intellij.openapi.util;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public interface UserDataHolder {
  <T> void putUserData(@NotNull Key<T> key, @Nullable T value);
}
