// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/ide/CopyPasteManager.java @ not-looked-up
package com.intellij.openapi.ide;

import java.awt.datatransfer.Transferable;

public abstract class CopyPasteManager {
  public static CopyPasteManager getInstance() { throw new UnsupportedOperationException(); }
  public abstract void setContents(Transferable content);
}
