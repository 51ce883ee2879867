// Declares (compile-only, never shipped): closed-source NodeJS plugin (public API as used by JetBrains' Prisma plugin; plugin-review.md §2) com/intellij/javascript/nodejs/interpreter/NodeJsInterpreterManager @ not-looked-up
package com.intellij.javascript.nodejs.interpreter;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public abstract class NodeJsInterpreterManager {
  public static @NotNull NodeJsInterpreterManager getInstance(@NotNull Project project) { throw new UnsupportedOperationException(); }
  public abstract @Nullable NodeJsInterpreter getInterpreter();
}
