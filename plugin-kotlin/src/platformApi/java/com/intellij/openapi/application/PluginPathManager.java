// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/application/PluginPathManager.java @ not-looked-up
package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import java.io.File;

public final class PluginPathManager {
  public static @Nullable File getPluginResource(@NotNull Class<?> pluginClass, @NotNull String resourceName) { throw new UnsupportedOperationException(); }
}
