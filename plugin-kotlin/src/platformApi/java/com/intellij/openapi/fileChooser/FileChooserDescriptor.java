// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/fileChooser/FileChooserDescriptor.java @ 0243ea077640b033a5e569669041f24217f73d9a
package com.intellij.openapi.fileChooser;

public class FileChooserDescriptor {
  public FileChooserDescriptor(boolean chooseFiles, boolean chooseFolders, boolean chooseJars, boolean chooseJarsAsFiles, boolean chooseJarContents, boolean chooseMultiple) { }
  public FileChooserDescriptor withTitle(String title) { throw new UnsupportedOperationException(); }
}
