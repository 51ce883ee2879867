// Declares (compile-only, never shipped): closed-source NodeJS plugin (public API as used by JetBrains' Prisma plugin; plugin-review.md §2) com/intellij/javascript/nodejs/interpreter/wsl/WslNodeInterpreter @ not-looked-up
package com.intellij.javascript.nodejs.interpreter.wsl;

import com.intellij.javascript.nodejs.interpreter.NodeJsInterpreter;

public abstract class WslNodeInterpreter implements NodeJsInterpreter { }
