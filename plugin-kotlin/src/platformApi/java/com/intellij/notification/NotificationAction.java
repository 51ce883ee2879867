// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/notification/NotificationAction.java @ 451212a595f32fd3703e9eaa51b07f10924539fb
package com.intellij.notification;

import com.intellij.openapi.project.DumbAwareAction;
import org.jetbrains.annotations.NotNull;

public abstract class NotificationAction extends DumbAwareAction {
  protected NotificationAction(String text) { super(text, null, null); }
  public static @NotNull NotificationAction createSimple(@NotNull String text, @NotNull Runnable action) { throw new UnsupportedOperationException(); }
}
