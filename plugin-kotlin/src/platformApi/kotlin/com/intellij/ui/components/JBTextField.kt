// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/components/JBTextField.java @ 0089a16aa8c4234dbfcad5297679d9576e4acf67
package com.intellij.ui.components

import javax.swing.JTextField

open class JBTextField : JTextField()
