// Declares (compile-only, never shipped): JetBrains/intellij-community platform/diff-api/src/com/intellij/openapi/diff/DiffColors.java @ 932df7afcc221985feca1b3e2b0e9fd361fcb055
package com.intellij.openapi.diff;

import com.intellij.openapi.editor.colors.TextAttributesKey;

public interface DiffColors {
  TextAttributesKey DIFF_INSERTED = null;
  TextAttributesKey DIFF_DELETED = null;
}
