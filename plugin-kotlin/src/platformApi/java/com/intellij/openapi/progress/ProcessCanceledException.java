// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/base/src/com/intellij/openapi/progress/ProcessCanceledException.java @ 6aa203814a20cc497f6ac20c5643691e4457cf1c
package com.intellij.openapi.progress;

import org.jetbrains.annotations.Nullable;

public class ProcessCanceledException extends RuntimeException {
  public ProcessCanceledException() { }
  public ProcessCanceledException(@Nullable Throwable cause) { super(cause); }
}
