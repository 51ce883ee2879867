// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/openapi/extensions/ExtensionPointName.kt @ not-looked-up
package com.intellij.openapi.extensions

class ExtensionPointName<T : Any>(name: String) {
  companion object {
    @JvmStatic
    fun <T : Any> create(name: String): ExtensionPointName<T> = ExtensionPointName(name)
  }

  val extensionList: List<T> get() = throw UnsupportedOperationException()
}
