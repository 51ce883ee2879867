// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/dsl/builder/Panel.kt @ 85fefb8e8a870a7484124ab226168ce62d29adc3
package com.intellij.ui.dsl.builder

interface Panel {
  fun row(label: String, init: Row.() -> Unit): Row
  fun group(title: String, indent: Boolean = true, init: Panel.() -> Unit): Row
}
