// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/components/services.kt @ f5aa61932162287b5dc92f85c52352f36ca149bf
package com.intellij.openapi.components

import com.intellij.openapi.application.ApplicationManager

inline fun <reified T : Any> ComponentManager.service(): T = getService(T::class.java)

inline fun <reified T : Any> ComponentManager.serviceIfCreated(): T? = getServiceIfCreated(T::class.java)

inline fun <reified T : Any> service(): T = ApplicationManager.getApplication().getService(T::class.java)
