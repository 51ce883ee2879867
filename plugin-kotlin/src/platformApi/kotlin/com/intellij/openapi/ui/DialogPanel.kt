// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/ui/DialogPanel.kt @ 01fb1072791c7f5d63ceaaadd5ddf59e26ee3e06
package com.intellij.openapi.ui

import javax.swing.JPanel

class DialogPanel : JPanel()
