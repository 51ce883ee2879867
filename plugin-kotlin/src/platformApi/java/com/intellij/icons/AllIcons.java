// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/icons/AllIcons.java @ 01f143804cdda03fc5b825d7dcfa3d4b6bd9ae1e
package com.intellij.icons;

import org.jetbrains.annotations.NotNull;
import javax.swing.Icon;

public class AllIcons {
  public static final class Actions {
    public static final @NotNull Icon Close = null, Diff = null, GC = null, Help = null, Restart = null, Resume = null, Suspend = null, ToggleSoftWrap = null;
  }

  public static final class General {
    public static final @NotNull Icon Add = null, ArrowDown = null, ArrowRight = null, Settings = null, Warning = null;
  }

  public static final class RunConfigurations {
    public static final @NotNull Icon Scroll_down = null, TestFailed = null, TestPassed = null, TestPaused = null, TestTerminated = null;
  }
}
