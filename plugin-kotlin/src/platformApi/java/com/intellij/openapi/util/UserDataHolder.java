// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/util/UserDataHolder.java @ 0219be6ae4c5c050bef75ffa5566ac9c2a21e345
package com.intellij.openapi.util;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public interface UserDataHolder {
  <T> void putUserData(@NotNull Key<T> key, @Nullable T value);
}
