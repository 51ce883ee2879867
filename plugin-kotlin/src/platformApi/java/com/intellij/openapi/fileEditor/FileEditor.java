// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/fileEditor/FileEditor.java @ 00d2b4e814bddf6f151af05c934de35ecbed0bf1
package com.intellij.openapi.fileEditor;

import com.intellij.openapi.Disposable;
import com.intellij.openapi.util.UserDataHolder;

public interface FileEditor extends UserDataHolder, Disposable { }
