// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ui/content/Content.java @ 373858c641234a1af21413561995162b7195f8e1
package com.intellij.ui.content;

import com.intellij.openapi.Disposable;
import com.intellij.openapi.util.UserDataHolder;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;
import javax.swing.Icon;

// The platform's Content also extends ComponentContainer; ide/ uses none of its members.
public interface Content extends UserDataHolder {
  void setIcon(@Nullable Icon icon);
  void setDisplayName(@Nullable String displayName);
  void setDescription(@Nullable String description);
  void setDisposer(@NotNull Disposable disposer);
  void setCloseable(boolean closeable);
  void setAlertIcon(@Nullable AlertIcon icon);
  void fireAlert();
}
