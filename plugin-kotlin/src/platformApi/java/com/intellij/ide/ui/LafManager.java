// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ide/ui/LafManager.java @ 044aac10808b529210e6773ddf42395553972fea
package com.intellij.ide.ui;

public abstract class LafManager { }
