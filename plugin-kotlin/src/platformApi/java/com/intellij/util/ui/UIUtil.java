// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/util/ui/UIUtil.java @ 008c054f46c2f6f6447e08b2f2858d58fa60c514
package com.intellij.util.ui;

import org.jetbrains.annotations.NotNull;
import javax.swing.plaf.FontUIResource;
import java.awt.Font;

public final class UIUtil {
  public static @NotNull FontUIResource getFontWithFallback(@NotNull Font font) { throw new UnsupportedOperationException(); }
}
