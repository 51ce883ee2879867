// The platform-declaration checks of kotlin.mjs, on small source trees made here: an undeclared
// platform use must be reported, and so must a declaration nothing uses (node --test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkDeclarationHeaders, checkPlatformUse, declaredNames, uncompiledSources } from "./kotlin.mjs";

function tree(files) {
  const root = mkdtempSync(path.join(tmpdir(), "wave-kotlin-check-"));
  const out = {};
  for (const [rel, text] of Object.entries(files)) {
    const f = path.join(root, rel);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, text);
    out[rel] = f;
  }
  return { root, out };
}

const HEADER = "// Declares (compile-only, never shipped): JetBrains/intellij-community platform/x/Y.java @ 0123456789abcdef0123456789abcdef01234567\n";

test("an import of an undeclared platform class in ide/ is reported; a declared one is not", () => {
  const { root, out } = tree({
    "api/com/intellij/openapi/wm/ToolWindow.java": HEADER + "package com.intellij.openapi.wm;\npublic interface ToolWindow {}\n",
    "main/ide/A.kt": "package a\nimport com.intellij.openapi.wm.ToolWindow\nimport com.intellij.openapi.wm.StatusBar\nfun f(t: ToolWindow) = com.intellij.openapi.wm.WindowManager.getInstance()\n",
  });
  try {
    const problems = checkPlatformUse({ mainFiles: [out["main/ide/A.kt"]], apiFiles: [out["api/com/intellij/openapi/wm/ToolWindow.java"]], ideDir: path.join(root, "main", "ide") });
    assert.equal(problems.length, 2, problems.join("\n"));
    assert.match(problems[0], /uses com\.intellij\.openapi\.wm\.StatusBar, which src\/platformApi does not declare/);
    assert.match(problems[1], /uses com\.intellij\.openapi\.wm\.WindowManager, which src\/platformApi does not declare/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("bridge/ and ui/ may not use the platform at all, and an unused declaration is reported", () => {
  const { root, out } = tree({
    "api/com/intellij/openapi/wm/ToolWindow.java": HEADER + "package com.intellij.openapi.wm;\npublic interface ToolWindow {}\n",
    "api/com/intellij/openapi/wm/Unused.kt": HEADER + "package com.intellij.openapi.wm\nfun <T : Any> Cell<T>.unusedHelper(): Int = 1\n",
    "main/ui/B.kt": "package b\nimport com.intellij.openapi.wm.ToolWindow\n",
  });
  try {
    const apiFiles = [out["api/com/intellij/openapi/wm/ToolWindow.java"], out["api/com/intellij/openapi/wm/Unused.kt"]];
    assert.deepEqual([...declaredNames(apiFiles)].sort(), ["com.intellij.openapi.wm.ToolWindow", "com.intellij.openapi.wm.unusedHelper"]);
    const problems = checkPlatformUse({ mainFiles: [out["main/ui/B.kt"]], apiFiles, ideDir: path.join(root, "main", "ide") });
    assert.ok(
      problems.some((p) => /B\.kt uses com\.intellij\.openapi\.wm\.ToolWindow: only ide\//.test(p)),
      problems.join("\n"),
    );
    assert.ok(
      problems.some((p) => /declares com\.intellij\.openapi\.wm\.unusedHelper, which nothing uses/.test(p)),
      problems.join("\n"),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a declaration must name its source path and commit", () => {
  const { root, out } = tree({
    "api/X.java": "package x;\npublic class X {}\n",
    "api/Y.java": HEADER.replace(/@ [0-9a-f]+/, "@ not-looked-up") + "package y;\n",
    "api/Z.java": HEADER.replace(/@ [0-9a-f]+/, "@ not-in-index (searched: find_files platform/x, find_string Z)") + "package z;\n",
    "api/W.java": HEADER.replace(/@ [0-9a-f]+/, "@ not-in-index") + "package w;\n",
  });
  try {
    const r = checkDeclarationHeaders(["X", "Y", "Z", "W"].map((n) => out[`api/${n}.java`]));
    assert.equal(r.problems.length, 2, r.problems.join("\n"));
    assert.match(r.problems[0], /X\.java: the first line must be/);
    assert.match(r.problems[1], /W\.java: the first line must be/);
    assert.equal(r.unverified, 1);
    assert.equal(r.notInIndex, 1);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a star import of a platform package, and an import of ide/, are reported from bridge/ and ui/", () => {
  const { root, out } = tree({
    "api/com/intellij/openapi/wm/ToolWindow.java": HEADER + "package com.intellij.openapi.wm;\npublic interface ToolWindow {}\n",
    "main/bridge/A.kt": "package a\nimport com.intellij.openapi.wm.*\n",
    "main/ui/B.kt": "package b\nimport dev.wavetools.wave.ide.WaveToolWindowFactory\n",
    "main/ide/C.kt": "package c\nimport com.intellij.openapi.wm.*\nfun f(t: ToolWindow) = t\n",
  });
  try {
    const problems = checkPlatformUse({
      mainFiles: [out["main/bridge/A.kt"], out["main/ui/B.kt"], out["main/ide/C.kt"]],
      apiFiles: [out["api/com/intellij/openapi/wm/ToolWindow.java"]],
      ideDir: path.join(root, "main", "ide"),
    });
    assert.ok(
      problems.some((p) => /A\.kt uses com\.intellij\.openapi\.wm\.\*: only ide\//.test(p)),
      problems.join("\n"),
    );
    assert.ok(
      problems.some((p) => /B\.kt imports dev\.wavetools\.wave\.ide\.WaveToolWindowFactory: bridge\/ and ui\/ may not depend on ide\//.test(p)),
      problems.join("\n"),
    );
    assert.ok(
      problems.some((p) => /C\.kt imports com\.intellij\.openapi\.wm\.\*: import each platform class by name/.test(p)),
      problems.join("\n"),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a source outside the compiled sets is reported", () => {
  const { root, out } = tree({ "main/kotlin/a/A.kt": "package a\n", "other/kotlin/b/B.kt": "package b\n", "other/java/C.java": "class C {}\n" });
  try {
    assert.deepEqual(uncompiledSources(root, [out["main/kotlin/a/A.kt"]]).sort(), [out["other/java/C.java"], out["other/kotlin/b/B.kt"]].sort());
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
