// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/dsl/builder/textArea.kt @ c85169a3c13098ab72c468cac5aafca33b7bd011
package com.intellij.ui.dsl.builder

import javax.swing.JTextArea

fun <T : JTextArea> Cell<T>.columns(columns: Int): Cell<T> = throw UnsupportedOperationException()
