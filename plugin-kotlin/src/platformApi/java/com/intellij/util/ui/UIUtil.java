// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/util/ui/UIUtil.java @ not-looked-up
package com.intellij.util.ui;

import org.jetbrains.annotations.NotNull;
import javax.swing.plaf.FontUIResource;
import java.awt.Font;

public final class UIUtil {
  public static @NotNull FontUIResource getFontWithFallback(@NotNull Font font) { throw new UnsupportedOperationException(); }
}
