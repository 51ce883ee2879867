// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ide/ui/UISettings.kt @ not-in-index (searched: read_file platform/ide-core/src and platform/platform-api/src UISettings.kt, find_files under platform/ide-core/src/com/intellij/ide/ui)
package com.intellij.ide.ui;

public class UISettings { }
