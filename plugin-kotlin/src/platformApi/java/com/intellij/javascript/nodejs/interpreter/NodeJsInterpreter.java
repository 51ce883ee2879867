// Declares (compile-only, never shipped): closed-source NodeJS plugin (public API as used by JetBrains' Prisma plugin; plugin-review.md §2) com/intellij/javascript/nodejs/interpreter/NodeJsInterpreter @ not-in-index (searched: closed source, the NodeJS plugin has no sources in the index; find_string found open plugins calling getInstance, getInterpreter with a null check, getReferenceName, getInterpreterSystemIndependentPath and instanceof NodeJsLocalInterpreter or WslNodeInterpreter)
package com.intellij.javascript.nodejs.interpreter;

import org.jetbrains.annotations.NotNull;

public interface NodeJsInterpreter {
  @NotNull String getReferenceName();
}
