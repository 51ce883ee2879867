// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-impl/src/com/intellij/ui/layout/ValidationInfoBuilder.kt @ not-in-index (searched: read_file platform-impl and platform-api ValidationInfoBuilder.kt, find_files under platform-impl ui/layout; stored Cell.kt 0033b572 predates the class; find_string copies of later versions declare class ValidationInfoBuilder with val component: JComponent and fun error of String returning ValidationInfo)
package com.intellij.ui.layout

import com.intellij.openapi.ui.ValidationInfo
import javax.swing.JComponent

class ValidationInfoBuilder(val component: JComponent) {
  fun error(message: String): ValidationInfo = throw UnsupportedOperationException()
}
