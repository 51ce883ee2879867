// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/notification/NotificationGroup.kt @ 432c504825e78982da5891ba6dd002d695c117b2
package com.intellij.notification

class NotificationGroup private constructor() {
  fun createNotification(title: String, content: String, type: NotificationType): Notification = throw UnsupportedOperationException()
}
