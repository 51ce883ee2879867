// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/dsl/builder/comboBox.kt @ 0d756ce25492936f431ce64650c9fff6046a34f0
package com.intellij.ui.dsl.builder

import javax.swing.JComboBox

fun <T, C : JComboBox<T>> Cell<C>.bindItem(getter: () -> T?, setter: (T?) -> Unit): Cell<C> = throw UnsupportedOperationException()
