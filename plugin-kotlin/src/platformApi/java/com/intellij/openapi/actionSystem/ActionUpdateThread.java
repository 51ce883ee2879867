// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/ActionUpdateThread.java @ 2e7742737b5bb86d1c9520a1172321f23838ccc0
package com.intellij.openapi.actionSystem;

public enum ActionUpdateThread { BGT, EDT }
