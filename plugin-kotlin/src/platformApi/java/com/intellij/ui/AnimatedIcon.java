// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/AnimatedIcon.java @ 083188688a7095f87f36d19f51231a192b3e2d57
package com.intellij.ui;

import javax.swing.Icon;
import java.awt.Component;
import java.awt.Graphics;

public class AnimatedIcon implements Icon {
  public static class Default extends AnimatedIcon {
    public static final AnimatedIcon INSTANCE = null;
  }

  @Override
  public final void paintIcon(Component c, Graphics g, int x, int y) { throw new UnsupportedOperationException(); }

  @Override
  public final int getIconWidth() { throw new UnsupportedOperationException(); }

  @Override
  public final int getIconHeight() { throw new UnsupportedOperationException(); }
}
