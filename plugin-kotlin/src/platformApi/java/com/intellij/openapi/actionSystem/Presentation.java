// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/Presentation.java @ 48f2af9367ff48ffe77d2b3ff9d7ccdd80e732ab
package com.intellij.openapi.actionSystem;

// Holds its state as the platform's does (enabled until told otherwise), so the tests of ide/ can
// read what an action's update() decided.
public final class Presentation {
  private boolean enabled = true;

  public boolean isEnabled() { return enabled; }
  public void setEnabled(boolean enabled) { this.enabled = enabled; }
}
