// Declares (compile-only, never shipped): JetBrains/intellij-community platform/platform-api/src/com/intellij/util/io/RequestBuilder.java @ 056d8334626684422fc2e9779df59374012d329e
package com.intellij.util.io;

import org.jetbrains.annotations.NotNull;
import java.io.IOException;

// A top-level class (not nested in HttpRequests): HttpRequests.request returns it.
public abstract class RequestBuilder {
  public abstract RequestBuilder gzip(boolean value);
  public abstract RequestBuilder productNameAsUserAgent();
  public abstract <T> T connect(@NotNull HttpRequests.RequestProcessor<T> processor) throws IOException;
}
