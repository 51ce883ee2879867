// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/actionSystem/ShortcutSet.java @ 03980ad0dccbd9a9140c4dc2415985c469f99ae7
package com.intellij.openapi.actionSystem;

public interface ShortcutSet { }
