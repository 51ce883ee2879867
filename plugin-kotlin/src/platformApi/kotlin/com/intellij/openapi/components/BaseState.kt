// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/BaseState.kt @ 04e57e4d8b6e162d7d758a694edadfa11d9bd593
package com.intellij.openapi.components

import kotlin.properties.ReadWriteProperty

abstract class StoredPropertyBase<T> : ReadWriteProperty<BaseState, T>

abstract class BaseState {
  fun string(defaultValue: String? = null): StoredPropertyBase<String?> = throw UnsupportedOperationException()
  fun property(defaultValue: Int = 0): StoredPropertyBase<Int> = throw UnsupportedOperationException()
  fun <T : Any> list(): StoredPropertyBase<MutableList<T>> = throw UnsupportedOperationException()
}
