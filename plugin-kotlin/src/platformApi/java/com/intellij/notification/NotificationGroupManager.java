// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/notification/NotificationGroupManager.java @ ba1f4c7355098f5b222df8b1c1eb25452d2e8eaa
package com.intellij.notification;

import org.jetbrains.annotations.NotNull;

public interface NotificationGroupManager {
  static NotificationGroupManager getInstance() { throw new UnsupportedOperationException(); }
  NotificationGroup getNotificationGroup(@NotNull String groupId);
}
