// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/util/ui/JBFont.java @ not-in-index (searched: only an older version is stored, 21f5964a, without medium; medium and label from a find_string copy of a later version)
package com.intellij.util.ui;

import org.jetbrains.annotations.NotNull;
import java.awt.Font;

public class JBFont extends Font {
  JBFont(@NotNull Font font) { super(font); }
  public static @NotNull JBFont label() { throw new UnsupportedOperationException(); }
  public static @NotNull JBFont medium() { throw new UnsupportedOperationException(); }
}
