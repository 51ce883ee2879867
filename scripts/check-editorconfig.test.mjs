// Tests of scripts/check-editorconfig.mjs: the rules one by one, then the script on a real git
// repository of its own (made in a temp folder, removed at the end).
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { globMatcher, parseEditorConfig, problems, propertiesFor } from "./check-editorconfig.mjs";

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "check-editorconfig.mjs");
const ALL = { charset: "utf-8", end_of_line: "lf", insert_final_newline: "true", trim_trailing_whitespace: "true", indent_style: "space", indent_size: "2" };
const check = (text, props = ALL, rel = "a.json") => problems(Buffer.from(text, "utf8"), props, rel);

test("globs: a name without a slash matches in any folder; with one, from the root; braces and ** work", () => {
  assert.equal(globMatcher("*.{kt,kts}")("plugin/src/A.kt"), true);
  assert.equal(globMatcher("*.{kt,kts}")("build.gradle.kts"), true);
  assert.equal(globMatcher("*.{kt,kts}")("A.ktx"), false);
  assert.equal(globMatcher("plugin/api/**")("plugin/api/x/Y.java"), true);
  assert.equal(globMatcher("plugin/api/**")("other/plugin/api/Y.java"), false);
  assert.equal(globMatcher("*")("deep/down/file"), true);
  assert.equal(globMatcher("[!a]*.md")("docs/b.md"), true);
  assert.equal(globMatcher("[!a]*.md")("docs/a.md"), false);
});

test("sections: later ones override earlier ones; unset removes a property", () => {
  const sections = parseEditorConfig("root = true\n[*]\nindent_size = 2\nend_of_line = lf\n[*.kt]\nindent_size = 4\n[gen/**]\nindent_size = unset\n");
  assert.deepEqual(propertiesFor(sections, "src/A.kt"), { indent_size: "4", end_of_line: "lf" });
  assert.deepEqual(propertiesFor(sections, "gen/B.kt"), { end_of_line: "lf" });
  assert.deepEqual(propertiesFor(sections, "README.md"), { indent_size: "2", end_of_line: "lf" });
});

test("a file that follows every rule has no problems", () => {
  assert.deepEqual(check('{\n  "a": [\n    1\n  ]\n}\n'), []);
  assert.deepEqual(check(""), []);
});

test("each broken rule is named, at its first line", () => {
  assert.deepEqual(check("{}"), ["no newline at the end (insert_final_newline = true)"]);
  assert.deepEqual(check("{\r\n}\r\n"), ["line 1: a carriage return (end_of_line = lf)"]);
  assert.deepEqual(check("{\n}\n", { ...ALL, end_of_line: "crlf" }), ["line 1: a line feed without a carriage return (end_of_line = crlf)"]);
  assert.deepEqual(check("{\r\n}\r\n", { ...ALL, end_of_line: "crlf" }), []);
  assert.deepEqual(check("{\n  1, \n}\n"), ["line 2: trailing whitespace (trim_trailing_whitespace = true)"]);
  assert.deepEqual(check("{\n\t1\n}\n"), ["line 2: a tab in the indentation (indent_style = space)"]);
  assert.deepEqual(check("{\n   1\n}\n"), ["line 2: indented by 3 spaces, not a multiple of 2 (indent_size = 2)"]);
  assert.deepEqual(problems(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]), ALL, "a.json"), ["not valid UTF-8 (charset = utf-8)"]);
  assert.deepEqual(problems(Buffer.from("\ufeff{}\n", "utf8"), ALL, "a.json"), ["starts with a byte order mark (charset = utf-8)"]);
});

test("indent size: block comment continuations and Kotlin raw strings are allowed; Markdown is not size-checked", () => {
  const kt = { ...ALL, indent_size: "4" };
  assert.deepEqual(check('/**\n * doc\n */\nfun a() {\n    val s = """\n       {"x": 1}\n    """\n}\n', kt, "A.kt"), []);
  assert.deepEqual(check("fun a() {\n  b()\n}\n", kt, "A.kt"), ["line 2: indented by 2 spaces, not a multiple of 4 (indent_size = 4)"]);
  assert.deepEqual(check("1. item\n   continued\n", ALL, "README.md"), []);
  // The indent style still holds where the size is not checked.
  assert.deepEqual(check("list\n\tx\n", ALL, "README.md"), ["line 2: a tab in the indentation (indent_style = space)"]);
});

test("the script fails on a repository file that breaks .editorconfig, names it, and passes once it is fixed", () => {
  const repo = mkdtempSync(path.join(tmpdir(), "editorconfig-check-"));
  try {
    mkdirSync(path.join(repo, "scripts"));
    copyFileSync(SCRIPT, path.join(repo, "scripts", "check-editorconfig.mjs"));
    writeFileSync(path.join(repo, ".editorconfig"), "root = true\n[*]\ninsert_final_newline = true\ntrim_trailing_whitespace = true\nindent_style = space\n");
    writeFileSync(path.join(repo, "good.txt"), "fine\n");
    writeFileSync(path.join(repo, "bad.txt"), "trailing \n");
    // A binary file is skipped whatever it holds.
    writeFileSync(path.join(repo, "blob.bin"), Buffer.from([0, 1, 2, 32, 10, 9]));
    execFileSync("git", ["init", "-q"], { cwd: repo });
    const run = () => spawnSync(process.execPath, [path.join(repo, "scripts", "check-editorconfig.mjs")], { cwd: repo, encoding: "utf8" });
    const failed = run();
    assert.equal(failed.status, 1, failed.stderr);
    assert.match(failed.stderr, /^bad\.txt: line 1: trailing whitespace \(trim_trailing_whitespace = true\)$/m);
    assert.doesNotMatch(failed.stderr, /good\.txt|blob\.bin/);
    writeFileSync(path.join(repo, "bad.txt"), "trailing\n");
    const passed = run();
    assert.equal(passed.status, 0, passed.stderr);
    assert.match(passed.stdout, /\.editorconfig: 4 files follow it\./);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});
