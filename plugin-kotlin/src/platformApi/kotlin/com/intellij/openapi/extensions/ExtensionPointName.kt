// Declares (compile-only, never shipped): JetBrains/intellij-community platform/extensions/src/com/intellij/openapi/extensions/ExtensionPointName.kt @ 13f75cbe3e169e944c9f460d69712f3c25ea13e5
package com.intellij.openapi.extensions

class ExtensionPointName<T : Any>(name: String) {
  companion object {
    @JvmStatic
    fun <T : Any> create(name: String): ExtensionPointName<T> = ExtensionPointName(name)
  }

  val extensionList: List<T> get() = throw UnsupportedOperationException()
}
