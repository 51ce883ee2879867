// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/ui/DialogPanel.kt @ not-looked-up
package com.intellij.openapi.ui

import javax.swing.JPanel

class DialogPanel : JPanel()
