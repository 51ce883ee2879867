// Declares (compile-only, never shipped): JetBrains/intellij-community platform/diff-api/src/com/intellij/diff/contents/DiffContent.java @ c73f94e1cc4a04bfe2b139f5f74a4dbabd713373
package com.intellij.diff.contents;

public interface DiffContent { }
