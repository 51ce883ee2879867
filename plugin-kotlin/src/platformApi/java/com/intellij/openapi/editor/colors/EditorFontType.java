// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/editor/colors/EditorFontType.java @ 026915342927f0aa3ebcf478bd2760f82dd23246
package com.intellij.openapi.editor.colors;

public enum EditorFontType { PLAIN, BOLD, ITALIC, BOLD_ITALIC, CONSOLE_PLAIN, CONSOLE_BOLD, CONSOLE_ITALIC, CONSOLE_BOLD_ITALIC }
