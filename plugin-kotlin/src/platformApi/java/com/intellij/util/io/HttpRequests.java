// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/util/io/HttpRequests.java @ 008f9f5a81d015b60c56cd76dddb85ccc10a4249
package com.intellij.util.io;

import org.jetbrains.annotations.NotNull;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLConnection;

public final class HttpRequests {
  private HttpRequests() { }

  public static @NotNull RequestBuilder request(@NotNull String url) { throw new UnsupportedOperationException(); }

  public interface Request {
    @NotNull URLConnection getConnection() throws IOException;
    @NotNull InputStream getInputStream() throws IOException;
  }

  public interface RequestProcessor<T> {
    T process(@NotNull Request request) throws IOException;
  }
}
