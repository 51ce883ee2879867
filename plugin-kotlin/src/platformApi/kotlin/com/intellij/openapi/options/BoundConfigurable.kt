// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/options/BoundConfigurable.kt @ 083188688a7095f87f36d19f51231a192b3e2d57
package com.intellij.openapi.options

import com.intellij.openapi.ui.DialogPanel

abstract class BoundConfigurable(displayName: String, helpTopic: String? = null) : Configurable {
  abstract fun createPanel(): DialogPanel
  open fun isModified(): Boolean = throw UnsupportedOperationException()
  open fun reset(): Unit = throw UnsupportedOperationException()
  open fun apply(): Unit = throw UnsupportedOperationException()
}
