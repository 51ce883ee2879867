// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/ui/scale/JBUIScale.kt @ not-looked-up
package com.intellij.ui.scale;

public final class JBUIScale {
  public static float scale(float f) { throw new UnsupportedOperationException(); }
}
