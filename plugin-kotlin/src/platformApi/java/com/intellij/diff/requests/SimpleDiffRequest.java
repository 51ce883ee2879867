// Declares (compile-only, never shipped): JetBrains/intellij-community platform/diff-api/src/com/intellij/diff/requests/SimpleDiffRequest.java @ 03980ad0dccbd9a9140c4dc2415985c469f99ae7
package com.intellij.diff.requests;

import com.intellij.diff.contents.DiffContent;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

public class SimpleDiffRequest extends DiffRequest {
  public SimpleDiffRequest(@Nullable String title, @NotNull DiffContent content1, @NotNull DiffContent content2, @Nullable String title1, @Nullable String title2) { }
}
