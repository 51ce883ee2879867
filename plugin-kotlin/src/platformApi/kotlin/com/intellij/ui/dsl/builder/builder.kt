// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/dsl/builder/builder.kt @ 2a215a8c941fa96601407560d420270baaf28a61
package com.intellij.ui.dsl.builder

import com.intellij.openapi.ui.DialogPanel

fun panel(init: Panel.() -> Unit): DialogPanel = throw UnsupportedOperationException()
