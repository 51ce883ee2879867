// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/progress/ProgressIndicator.java @ 415c587619c02b1b4108d589c8980c3faa460724
package com.intellij.openapi.progress;

public interface ProgressIndicator {
  String getText();
  void setText(String text);
  String getText2();
  void setText2(String text);
  double getFraction();
  void setFraction(double fraction);
  boolean isCanceled();
  boolean isIndeterminate();
  void setIndeterminate(boolean indeterminate);
}
