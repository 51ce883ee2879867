// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/dsl/builder/Cell.kt @ 85fefb8e8a870a7484124ab226168ce62d29adc3
package com.intellij.ui.dsl.builder

import com.intellij.openapi.ui.ValidationInfo
import com.intellij.ui.layout.ValidationInfoBuilder
import javax.swing.JComponent

interface Cell<out T : JComponent> {
  val component: T
  fun comment(comment: String?, maxLineLength: Int = 70): Cell<T>
  fun applyToComponent(task: T.() -> Unit): Cell<T>
  fun onApply(callback: () -> Unit): Cell<T>
  fun onReset(callback: () -> Unit): Cell<T>
  fun onIsModified(callback: () -> Boolean): Cell<T>
  fun validationOnInput(callback: ValidationInfoBuilder.(T) -> ValidationInfo?): Cell<T>
  fun validationOnApply(callback: ValidationInfoBuilder.(T) -> ValidationInfo?): Cell<T>
}
