// Declares (compile-only, never shipped): closed-source NodeJS plugin (public API as used by JetBrains' Prisma plugin; plugin-review.md §2) com/intellij/javascript/nodejs/interpreter/local/NodeJsLocalInterpreter @ not-looked-up
package com.intellij.javascript.nodejs.interpreter.local;

import com.intellij.javascript.nodejs.interpreter.NodeJsInterpreter;
import org.jetbrains.annotations.NotNull;

public abstract class NodeJsLocalInterpreter implements NodeJsInterpreter {
  public abstract @NotNull String getInterpreterSystemIndependentPath();
}
