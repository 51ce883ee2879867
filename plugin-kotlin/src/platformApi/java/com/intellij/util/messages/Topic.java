// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/util/messages/Topic.java @ not-looked-up
package com.intellij.util.messages;

public class Topic<L> {
  public Topic(Class<L> listenerClass) { }
}
