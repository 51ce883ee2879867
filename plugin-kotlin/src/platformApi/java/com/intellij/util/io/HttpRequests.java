// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/util/io/HttpRequests.java @ not-looked-up
package com.intellij.util.io;

import org.jetbrains.annotations.NotNull;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLConnection;

public final class HttpRequests {
  public static @NotNull RequestBuilder request(@NotNull String url) { throw new UnsupportedOperationException(); }

  public interface Request {
    @NotNull InputStream getInputStream() throws IOException;
    @NotNull URLConnection getConnection() throws IOException;
  }

  @FunctionalInterface
  public interface RequestProcessor<T> {
    T process(@NotNull Request request) throws IOException;
  }

  public abstract static class RequestBuilder {
    public abstract @NotNull RequestBuilder productNameAsUserAgent();
    public abstract @NotNull RequestBuilder gzip(boolean value);
    public abstract <T> T connect(@NotNull RequestProcessor<T> processor) throws IOException;
  }
}
