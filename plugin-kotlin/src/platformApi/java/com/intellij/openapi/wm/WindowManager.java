// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/wm/WindowManager.java @ 48f2af9367ff48ffe77d2b3ff9d7ccdd80e732ab
package com.intellij.openapi.wm;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.Nullable;
import javax.swing.JFrame;

public abstract class WindowManager {
  public static WindowManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract @Nullable JFrame getFrame(@Nullable Project project);
}
