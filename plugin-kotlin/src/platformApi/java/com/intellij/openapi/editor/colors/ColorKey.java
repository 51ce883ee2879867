// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/editor/colors/ColorKey.java @ not-looked-up
package com.intellij.openapi.editor.colors;

public final class ColorKey { }
