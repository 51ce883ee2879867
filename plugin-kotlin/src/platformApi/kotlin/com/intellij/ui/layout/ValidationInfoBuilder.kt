// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-impl/src/com/intellij/ui/layout/ValidationInfoBuilder.kt @ not-looked-up
package com.intellij.ui.layout

import com.intellij.openapi.ui.ValidationInfo
import javax.swing.JComponent

class ValidationInfoBuilder(val component: JComponent) {
  fun error(message: String): ValidationInfo = throw UnsupportedOperationException()
}
