// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/icons/AllIcons.java @ not-looked-up
package com.intellij.icons;

import javax.swing.Icon;

public final class AllIcons {
  public static final class Actions {
    public static final Icon Close = null, Diff = null, GC = null, Help = null, Restart = null, Resume = null, Suspend = null, ToggleSoftWrap = null;
  }

  public static final class General {
    public static final Icon Add = null, ArrowDown = null, ArrowRight = null, Settings = null, Warning = null;
  }

  public static final class RunConfigurations {
    public static final Icon Scroll_down = null, TestFailed = null, TestPassed = null, TestPaused = null, TestTerminated = null;
  }
}
