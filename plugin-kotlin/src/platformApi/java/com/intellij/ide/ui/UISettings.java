// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ide/ui/UISettings.kt @ not-looked-up
package com.intellij.ide.ui;

public class UISettings { }
