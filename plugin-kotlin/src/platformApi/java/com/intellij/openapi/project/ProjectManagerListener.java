// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/project/ProjectManagerListener.java @ not-looked-up
package com.intellij.openapi.project;

import org.jetbrains.annotations.NotNull;
import java.util.EventListener;

public interface ProjectManagerListener extends EventListener {
  default void projectClosing(@NotNull Project project) { }
}
