// Declares (compile-only, never shipped): JetBrains/intellij-community platform/core-api/src/com/intellij/openapi/application/ModalityState.java @ 02f95454805b98550a9a28bdaa677ad18d74f399
package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;
import java.awt.Component;

public abstract class ModalityState {
  public static @NotNull ModalityState nonModal() { throw new UnsupportedOperationException(); }
  public static @NotNull ModalityState any() { throw new UnsupportedOperationException(); }
  public static @NotNull ModalityState current() { throw new UnsupportedOperationException(); }
  public static @NotNull ModalityState defaultModalityState() { throw new UnsupportedOperationException(); }
  public static @NotNull ModalityState stateForComponent(@NotNull Component component) { throw new UnsupportedOperationException(); }
}
