// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/project/Project.java @ 6db69ba458f3cec4a276eeac88b81d90fc699c3a
package com.intellij.openapi.project;

import com.intellij.openapi.components.ComponentManager;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public interface Project extends ComponentManager {
  @NotNull String getName();
  @Nullable String getBasePath();
}
