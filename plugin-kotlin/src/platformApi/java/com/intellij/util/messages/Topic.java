// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/util/messages/Topic.java @ 2554c35876e36ba405969311242db2c4bc550efd
package com.intellij.util.messages;

import org.jetbrains.annotations.NotNull;

public class Topic<L> {
  public Topic(@NotNull Class<L> listenerClass) { }
}
