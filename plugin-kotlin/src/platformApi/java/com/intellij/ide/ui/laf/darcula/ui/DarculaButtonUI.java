// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-impl/src/com/intellij/ide/ui/laf/darcula/ui/DarculaButtonUI.java @ not-looked-up
package com.intellij.ide.ui.laf.darcula.ui;

import com.intellij.openapi.util.Key;
import javax.swing.plaf.basic.BasicButtonUI;

public class DarculaButtonUI extends BasicButtonUI {
  public static final Key<Boolean> DEFAULT_STYLE_KEY = null;
}
