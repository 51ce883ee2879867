// Declares (compile-only, never shipped): JetBrains/intellij-community platform/diff-api/src/com/intellij/diff/requests/DiffRequest.java @ 96023982ac58fcf33f951a63f2e7a2e7b0a891e1
package com.intellij.diff.requests;

public abstract class DiffRequest { }
