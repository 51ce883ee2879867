// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/State.java @ 002c70f58050824e62e6e6b084b66701cd135935
package com.intellij.openapi.components;

import org.jetbrains.annotations.NotNull;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface State {
  @NotNull String name();
  @NotNull Storage[] storages() default {}; // Storage @NotNull [] in the source: the annotations here have no TYPE_USE target
}
