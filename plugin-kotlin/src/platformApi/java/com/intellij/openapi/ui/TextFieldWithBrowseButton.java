// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/ui/TextFieldWithBrowseButton.java @ 41cee1421f771f743cfc8f21d0e1acb0eb945327
package com.intellij.openapi.ui;

import javax.swing.JPanel;
import javax.swing.JTextField;
import java.awt.event.ActionListener;

public class TextFieldWithBrowseButton extends JPanel {
  public TextFieldWithBrowseButton() { }
  public JTextField getTextField() { throw new UnsupportedOperationException(); }
  public String getText() { throw new UnsupportedOperationException(); }
  public void setText(String text) { throw new UnsupportedOperationException(); }
  public void addActionListener(ActionListener listener) { throw new UnsupportedOperationException(); }
}
