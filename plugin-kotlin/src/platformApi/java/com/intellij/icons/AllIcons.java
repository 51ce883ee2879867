// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/icons/AllIcons.java @ not-looked-up
package com.intellij.icons;

import javax.swing.Icon;

public final class AllIcons {
  public static final class Actions {
    public static final Icon Diff = null, Help = null, Restart = null, Resume = null, Suspend = null, ToggleSoftWrap = null;
  }

  public static final class General {
    public static final Icon Add = null, ArrowDown = null, ArrowRight = null, Warning = null;
  }
}
