// Declares (compile-only, never shipped): JetBrains/intellij-community platform/editor-ui-api/src/com/intellij/openapi/diff/DiffColors.java @ not-looked-up
package com.intellij.openapi.diff;

import com.intellij.openapi.editor.colors.TextAttributesKey;

public interface DiffColors {
  TextAttributesKey DIFF_INSERTED = null;
  TextAttributesKey DIFF_DELETED = null;
}
