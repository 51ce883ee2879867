// Declares (compile-only, never shipped): JetBrains/intellij-community platform/ide-core/src/com/intellij/ui/content/ContentManagerEvent.java @ 06e5dcf7dbac92a023b66ef00a6ab6129a77aec7
package com.intellij.ui.content;

import org.jetbrains.annotations.NotNull;
import java.util.EventObject;

// A plain event object in the platform too: the fakes of src/platformTest send real ones.
public class ContentManagerEvent extends EventObject {
  public enum ContentOperation { add, remove, undefined }

  private final Content content;
  private final ContentOperation operation;
  private boolean consumed;

  public ContentManagerEvent(Object source, @NotNull Content content, int index, ContentOperation operation) {
    super(source);
    this.content = content;
    this.operation = operation;
  }

  public @NotNull Content getContent() { return content; }
  public ContentOperation getOperation() { return operation; }
  public boolean isConsumed() { return consumed; }
  public void consume() { consumed = true; }
}
