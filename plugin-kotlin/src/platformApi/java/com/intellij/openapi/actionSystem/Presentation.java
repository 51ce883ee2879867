// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/Presentation.java @ 48f2af9367ff48ffe77d2b3ff9d7ccdd80e732ab
package com.intellij.openapi.actionSystem;

public final class Presentation {
  public boolean isEnabled() { throw new UnsupportedOperationException(); }
  public void setEnabled(boolean enabled) { throw new UnsupportedOperationException(); }
}
