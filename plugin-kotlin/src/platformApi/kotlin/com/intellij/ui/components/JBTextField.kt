// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/components/JBTextField.java @ not-looked-up
package com.intellij.ui.components

import javax.swing.JTextField

open class JBTextField : JTextField()
