// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/CustomShortcutSet.java @ 3db8bf6359d70c5ed8da67d18c992c45663a3639
package com.intellij.openapi.actionSystem;

import javax.swing.KeyStroke;

public final class CustomShortcutSet implements ShortcutSet {
  public CustomShortcutSet(KeyStroke... keyStrokes) { }
}
