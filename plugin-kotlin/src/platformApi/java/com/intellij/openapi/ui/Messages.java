// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/ui/Messages.java @ 610ad8c1a4355aad5d0e80d21c8274cbdcade12a
package com.intellij.openapi.ui;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.Nullable;
import javax.swing.Icon;

public class Messages {
  public static final int OK = 0;
  public static Icon getQuestionIcon() { throw new UnsupportedOperationException(); }
  public static void showErrorDialog(@Nullable Project project, String message, String title) { throw new UnsupportedOperationException(); }
  public static int showOkCancelDialog(@Nullable Project project, String message, String title, String okText, String cancelText, @Nullable Icon icon) { throw new UnsupportedOperationException(); }
}
