// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/ui/src/com/intellij/ui/scale/JBUIScale.kt @ 0ac1b42be82f7b16a51163d6bf461ef50ffa8d61
package com.intellij.ui.scale

// A Kotlin object in the source; scale is @JvmStatic there, so the call compiles to the same static method.
object JBUIScale {
  @JvmStatic
  fun scale(value: Float): Float = throw UnsupportedOperationException()
}
