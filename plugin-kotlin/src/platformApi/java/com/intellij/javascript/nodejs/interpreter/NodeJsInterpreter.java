// Declares (compile-only, never shipped): closed-source NodeJS plugin (public API as used by JetBrains' Prisma plugin; plugin-review.md §2) com/intellij/javascript/nodejs/interpreter/NodeJsInterpreter @ not-looked-up
package com.intellij.javascript.nodejs.interpreter;

import org.jetbrains.annotations.NotNull;

public interface NodeJsInterpreter {
  @NotNull String getReferenceName();
}
