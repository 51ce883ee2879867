// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/SimplePersistentStateComponent.kt @ 04373d0eb0942bf77ec28e1128f4da0bec3aed4c
package com.intellij.openapi.components

abstract class SimplePersistentStateComponent<T : BaseState>(initialState: T) : PersistentStateComponent<T> {
  final override fun getState(): T = throw UnsupportedOperationException()
  override fun loadState(state: T): Unit = throw UnsupportedOperationException()
}
