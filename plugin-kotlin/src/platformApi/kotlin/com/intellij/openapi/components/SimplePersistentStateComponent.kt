// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/SimplePersistentStateComponent.kt @ not-looked-up
package com.intellij.openapi.components

abstract class SimplePersistentStateComponent<T : BaseState>(initialState: T) : PersistentStateComponent<T> {
  final override fun getState(): T = throw UnsupportedOperationException()
  override fun loadState(state: T): Unit = throw UnsupportedOperationException()
}
