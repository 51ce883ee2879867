// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/util/messages/MessageBusConnection.java @ 0babb0aea041ac3b9fe9df5419f1618ed7c91ee5
package com.intellij.util.messages;

import com.intellij.openapi.Disposable;

public interface MessageBusConnection extends SimpleMessageBusConnection, Disposable {
}
