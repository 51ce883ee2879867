// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/project/ProjectManagerListener.java @ 15343567cf7809eb623839598d6437db1454e59b
package com.intellij.openapi.project;

import org.jetbrains.annotations.NotNull;
import java.util.EventListener;

public interface ProjectManagerListener extends EventListener {
  default void projectClosing(@NotNull Project project) { }
}
