// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/ActionToolbar.java @ 054bb2ae01cafd44cd70e109db18a1c95732e568
package com.intellij.openapi.actionSystem;

import javax.swing.JComponent;

public interface ActionToolbar {
  JComponent getComponent();
  /** The component the toolbar's actions get their data context from. */
  void setTargetComponent(JComponent component);
}
