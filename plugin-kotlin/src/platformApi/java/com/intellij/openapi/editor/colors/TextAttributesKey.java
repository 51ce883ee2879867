// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/editor/colors/TextAttributesKey.java @ 02f95454805b98550a9a28bdaa677ad18d74f399
package com.intellij.openapi.editor.colors;

public final class TextAttributesKey { }
