// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/src/com/intellij/openapi/application/PluginPathManager.java @ not-in-index (searched: find_files under platform/util/src/com/intellij/openapi/application and platform/util-ex/src, read_file platform/util/src path; signature from find_string copies)
package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import java.io.File;

// Signature as in copies of the source the index holds without naming their path (find_string
// "File getPluginResource(@NotNull Class"): `public static @Nullable File getPluginResource(@NotNull Class<?>, @NotNull String)`.
public final class PluginPathManager {
  public static @Nullable File getPluginResource(@NotNull Class<?> pluginClass, @NotNull String resourceName) { throw new UnsupportedOperationException(); }
}
