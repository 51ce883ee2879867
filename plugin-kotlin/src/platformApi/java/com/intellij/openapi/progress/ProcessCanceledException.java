// Declares (compile-only, never shipped): JetBrains/intellij-community platform/util/base/src/com/intellij/openapi/progress/ProcessCanceledException.java @ not-looked-up
package com.intellij.openapi.progress;

public class ProcessCanceledException extends RuntimeException {
  public ProcessCanceledException() { }
  public ProcessCanceledException(Throwable cause) { super(cause); }
}
