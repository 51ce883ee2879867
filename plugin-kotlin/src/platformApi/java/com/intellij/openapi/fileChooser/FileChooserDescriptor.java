// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/fileChooser/FileChooserDescriptor.java @ not-looked-up
package com.intellij.openapi.fileChooser;

public class FileChooserDescriptor {
  public FileChooserDescriptor(boolean chooseFiles, boolean chooseFolders, boolean chooseJars, boolean chooseJarsAsFiles, boolean chooseJarContents, boolean chooseMultiple) { }
  public FileChooserDescriptor withTitle(String title) { throw new UnsupportedOperationException(); }
}
