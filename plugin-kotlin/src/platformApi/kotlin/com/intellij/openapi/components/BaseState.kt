// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/BaseState.kt @ not-looked-up
package com.intellij.openapi.components

import kotlin.properties.ReadWriteProperty

abstract class StoredPropertyBase<T> : ReadWriteProperty<BaseState, T>

abstract class BaseState {
  protected fun string(defaultValue: String? = null): StoredPropertyBase<String?> = throw UnsupportedOperationException()
  protected fun property(defaultValue: Int): StoredPropertyBase<Int> = throw UnsupportedOperationException()
  protected fun <E> list(): StoredPropertyBase<MutableList<E>> = throw UnsupportedOperationException()
}
