// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/project/ProjectManager.java @ not-looked-up
package com.intellij.openapi.project;

import com.intellij.util.messages.Topic;
import org.jetbrains.annotations.NotNull;

public abstract class ProjectManager {
  public static final Topic<ProjectManagerListener> TOPIC = new Topic<>(ProjectManagerListener.class);
  public static ProjectManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract Project[] getOpenProjects();
}
