// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ide/ui/LafManager.java @ not-looked-up
package com.intellij.ide.ui;

public abstract class LafManager { }
