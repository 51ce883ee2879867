// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/ide/CopyPasteManager.java @ 280b77687d90bea9eca1bcd24f54f6e9c7bb8f6d
package com.intellij.openapi.ide;

import java.awt.datatransfer.Transferable;

public abstract class CopyPasteManager {
  public static CopyPasteManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract void setContents(Transferable content);
}
