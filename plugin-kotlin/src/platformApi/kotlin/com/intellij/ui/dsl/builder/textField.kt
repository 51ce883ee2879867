// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/dsl/builder/textField.kt @ 0d756ce25492936f431ce64650c9fff6046a34f0
package com.intellij.ui.dsl.builder

import javax.swing.JTextField
import javax.swing.text.JTextComponent

fun <T : JTextComponent> Cell<T>.bindText(getter: () -> String, setter: (String) -> Unit): Cell<T> = throw UnsupportedOperationException()

fun <T : JTextField> Cell<T>.bindIntText(getter: () -> Int, setter: (Int) -> Unit): Cell<T> = throw UnsupportedOperationException()

fun <T : JTextField> Cell<T>.columns(columns: Int): Cell<T> = throw UnsupportedOperationException()
