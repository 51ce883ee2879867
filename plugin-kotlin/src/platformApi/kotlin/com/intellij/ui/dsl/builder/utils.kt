// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/dsl/builder/utils.kt @ 69adc6318a3a9c103ca93c74eda4d24b76d117f8
package com.intellij.ui.dsl.builder

const val COLUMNS_LARGE: Int = 36
