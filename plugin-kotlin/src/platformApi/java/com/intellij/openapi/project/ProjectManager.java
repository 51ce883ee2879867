// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/project/ProjectManager.java @ 03980ad0dccbd9a9140c4dc2415985c469f99ae7
package com.intellij.openapi.project;

import com.intellij.util.messages.Topic;
import org.jetbrains.annotations.NotNull;

public abstract class ProjectManager {
  public static final Topic<ProjectManagerListener> TOPIC = new Topic<>(ProjectManagerListener.class);
  public static ProjectManager getInstance() { throw new UnsupportedOperationException(); }
  @NotNull public abstract Project[] getOpenProjects();
}
