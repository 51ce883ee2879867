// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/openapi/options/ShowSettingsUtil.java @ 05fc59300692e9b84414edb53858ea3e5705fc7d
package com.intellij.openapi.options;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class ShowSettingsUtil {
  public static ShowSettingsUtil getInstance() { throw new UnsupportedOperationException(); }
  public abstract <T extends Configurable> void showSettingsDialog(@Nullable Project project, @NotNull Class<T> configurableClass);
}
