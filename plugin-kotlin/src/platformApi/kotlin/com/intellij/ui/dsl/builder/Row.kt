// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/dsl/builder/Row.kt @ 85fefb8e8a870a7484124ab226168ce62d29adc3
package com.intellij.ui.dsl.builder

import com.intellij.ui.components.JBTextField
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JTextArea
import javax.swing.JComboBox

interface Row {
  fun <T : JComponent> cell(component: T): Cell<T>
  fun label(text: String): Cell<JLabel>
  fun button(text: String, actionListener: (event: java.awt.event.ActionEvent) -> Unit): Cell<JButton>
  fun textField(): Cell<JBTextField>
  fun intTextField(range: IntRange? = null, keyboardStep: Int? = null): Cell<JBTextField>
  fun textArea(): Cell<JTextArea>
  fun <T> comboBox(items: Collection<T>, renderer: javax.swing.ListCellRenderer<in T?>? = null): Cell<JComboBox<T>>
}
