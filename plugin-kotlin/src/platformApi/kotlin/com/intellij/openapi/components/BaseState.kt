// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/BaseState.kt @ not-in-index (searched: only an older version is stored, 04e57e4d from 2018, where these helpers are public; find_string copies of later versions make them protected)
package com.intellij.openapi.components

import kotlin.properties.ReadWriteProperty

abstract class StoredPropertyBase<T> : ReadWriteProperty<BaseState, T>

abstract class BaseState {
  protected fun string(defaultValue: String? = null): StoredPropertyBase<String?> = throw UnsupportedOperationException()
  protected fun property(defaultValue: Int = 0): StoredPropertyBase<Int> = throw UnsupportedOperationException()
  protected fun <T : Any> list(): StoredPropertyBase<MutableList<T>> = throw UnsupportedOperationException()
}
