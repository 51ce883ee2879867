// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/notification/NotificationType.java @ facd32ff42cf0c1252786b209e5afd419e22ee8b
package com.intellij.notification;

public enum NotificationType { IDE_UPDATE, INFORMATION, WARNING, ERROR }
