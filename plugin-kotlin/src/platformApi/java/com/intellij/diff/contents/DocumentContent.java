// Declares (compile-only, never shipped): JetBrains/intellij-community platform/diff-api/src/com/intellij/diff/contents/DocumentContent.java @ ed9177c799a7c8d5485ea1e2735b42cadfa4c5a6
package com.intellij.diff.contents;

public interface DocumentContent extends DiffContent { }
