// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-impl/src/com/intellij/ide/ui/laf/darcula/ui/DarculaButtonUI.java @ not-in-index (searched: only an older version is stored, 0219be6a, without DEFAULT_STYLE_KEY; the field from a find_string copy of a later version)
package com.intellij.ide.ui.laf.darcula.ui;

import com.intellij.openapi.util.Key;
import javax.swing.plaf.basic.BasicButtonUI;

public class DarculaButtonUI extends BasicButtonUI {
  public static final Key<Boolean> DEFAULT_STYLE_KEY = null;
}
