// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/ui/content/Content.java @ not-looked-up
package com.intellij.ui.content;

import com.intellij.openapi.Disposable;
import org.jetbrains.annotations.Nullable;

public interface Content {
  void setDisposer(@Nullable Disposable disposer);
}
