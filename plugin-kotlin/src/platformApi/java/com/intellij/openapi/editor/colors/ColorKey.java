// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/editor/colors/ColorKey.java @ 2554c35876e36ba405969311242db2c4bc550efd
package com.intellij.openapi.editor.colors;

public final class ColorKey { }
