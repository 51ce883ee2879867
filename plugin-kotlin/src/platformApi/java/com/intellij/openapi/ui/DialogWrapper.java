// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/ui/DialogWrapper.java @ 4ef30711a4caccb24bd950e357f76204eb7bd9f3
package com.intellij.openapi.ui;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import javax.swing.Action;
import javax.swing.JComponent;

public abstract class DialogWrapper {
  protected DialogWrapper(@Nullable Project project, boolean canBeParent) { }
  protected void init() { throw new UnsupportedOperationException(); }
  protected abstract @Nullable JComponent createCenterPanel();
  protected Action[] createActions() { throw new UnsupportedOperationException(); }
  protected @NotNull Action getOKAction() { throw new UnsupportedOperationException(); }
  protected final void setOKButtonText(String text) { throw new UnsupportedOperationException(); }
  public void setTitle(String title) { throw new UnsupportedOperationException(); }
  public String getTitle() { throw new UnsupportedOperationException(); }
  public void show() { throw new UnsupportedOperationException(); }
}
