// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ui/content/AlertIcon.java @ 25b980d39c43f6f6062a44dabc6db6a88a930ced
package com.intellij.ui.content;

import javax.swing.Icon;

// The platform's AlertIcon is also an Icon that paints the one it wraps; ide/ only makes one.
public class AlertIcon {
  private final Icon icon;

  public AlertIcon(Icon icon) { this.icon = icon; }

  public Icon getIcon() { return icon; }
}
