import { execFileSync } from "node:child_process";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { caller, cleanTempDirs, tempDir, text } from "../../test/support/fsTestkit.js";
import { GREP_MAX_OUTPUT_CHARS, grepTool, splitGlobs } from "./grep.js";

afterEach(cleanTempDirs);

function workspace(files: Record<string, string>, opts: { git?: boolean } = {}) {
  const root = tempDir();
  const base = Date.now() / 1000 - 1000;
  Object.entries(files).forEach(([name, content], i) => {
    const abs = path.join(root, name);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    utimesSync(abs, base + i, base + i);
  });
  if (opts.git) execFileSync("git", ["init", "-q", root]);
  return { root, ...caller(root) };
}

describe("Grep: modes", () => {
  const files = {
    "src/a.ts": "export const alpha = 1;\nconst beta = alpha + 1;\n",
    "src/b.ts": "import { alpha } from './a';\n",
    "docs/readme.md": "Alpha is documented here.\n",
    "src/c.ts": "nothing to see\n",
  };

  it("FS-SEARCH-1 files_with_matches (default) lists matching files newest first, with counts", async () => {
    const { root, call } = workspace(files);
    const r = await call("Grep", { pattern: "alpha" });
    expect(r.isError).toBe(false);
    expect(text(r)).toBe("Found 2 files (newest first):\nsrc/b.ts\nsrc/a.ts");
    expect(r.structuredContent).toMatchObject({
      mode: "files_with_matches",
      numFiles: 2,
      numMatches: 2,
      truncated: false,
      timedOut: false,
      filenames: [path.join(root, "src/b.ts"), path.join(root, "src/a.ts")],
    });
  });

  it("FS-SEARCH-1 content mode gives path:line:text, with context lines, case-insensitively", async () => {
    const { call } = workspace(files);
    const r = await call("Grep", { pattern: "alpha", output_mode: "content", "-i": true });
    expect(text(r).split("\n")).toEqual([
      "docs/readme.md:1:Alpha is documented here.",
      "src/a.ts:1:export const alpha = 1;",
      "src/a.ts:2:const beta = alpha + 1;",
      "src/b.ts:1:import { alpha } from './a';",
    ]);
    expect(r.structuredContent).toMatchObject({ mode: "content", numFiles: 3, numMatches: 4, numLines: 4 });
    const ctx = await call("Grep", { pattern: "beta", output_mode: "content", "-B": 1 });
    expect(text(ctx).split("\n")).toEqual(["src/a.ts-1-export const alpha = 1;", "src/a.ts:2:const beta = alpha + 1;"]);
    expect(ctx.structuredContent).toMatchObject({ numMatches: 1, numLines: 2 });
    const noNumbers = await call("Grep", { pattern: "beta", output_mode: "content", "-n": false });
    expect(text(noNumbers)).toBe("src/a.ts:const beta = alpha + 1;");
  });

  it("FS-SEARCH-1 count mode gives matches per file and the total", async () => {
    const { call } = workspace(files);
    const r = await call("Grep", { pattern: "alpha", output_mode: "count" });
    expect(text(r)).toBe("3 matching lines in 2 files:\nsrc/a.ts:2\nsrc/b.ts:1");
    expect(r.structuredContent).toMatchObject({ mode: "count", numFiles: 2, numMatches: 3 });
  });

  it("FS-SEARCH-1 filters by glob and type, supports multiline, and accepts patterns starting with '-'", async () => {
    const { call } = workspace({ ...files, "x.py": "def f():\n    return -1\n", "opts.txt": "--verbose flag\n" });
    expect(text(await call("Grep", { pattern: "alpha", glob: "*.md", "-i": true }))).toBe("Found 1 file:\ndocs/readme.md");
    expect(text(await call("Grep", { pattern: "return", type: "py" }))).toBe("Found 1 file:\nx.py");
    const ml = await call("Grep", { pattern: "def f\\(\\):\\n\\s+return", multiline: true, output_mode: "content" });
    expect(text(ml)).toContain("x.py:1:def f():");
    expect(text(ml)).toContain("x.py:2:    return -1");
    expect(text(await call("Grep", { pattern: "--verbose" }))).toBe("Found 1 file:\nopts.txt");
    expect(splitGlobs("*.ts *.{js,jsx},*.md")).toEqual(["*.ts", "*.{js,jsx}", "*.md"]);
  });

  it("FS-SEARCH-1 head_limit and offset page through results", async () => {
    const { call } = workspace({ "many.txt": Array.from({ length: 10 }, (_, i) => `hit ${i + 1}`).join("\n") + "\n" });
    const r = await call("Grep", { pattern: "hit", output_mode: "content", head_limit: 3, offset: 2 });
    expect(text(r)).toBe("many.txt:3:hit 3\nmany.txt:4:hit 4\nmany.txt:5:hit 5\n\n[Showing lines 3-5 of 10. Use offset=5 to see more, or narrow the search.]");
    expect(r.structuredContent).toMatchObject({ appliedLimit: 3, appliedOffset: 2, truncated: true, numMatches: 10 });
  });
});

describe("Grep: what is searched", () => {
  it("FS-SEARCH-1 honours .gitignore inside a git repository and skips .git", async () => {
    const { call } = workspace({ ".gitignore": "build/\n", "build/out.js": "token\n", "src/in.js": "token\n", ".github/ci.yml": "token\n" }, { git: true });
    writeFileSync(path.join(tempDir(), "unused"), "");
    const r = await call("Grep", { pattern: "token" });
    expect(text(r)).toMatch(/src\/in\.js/);
    expect(text(r)).toMatch(/\.github\/ci\.yml/); // hidden files are searched
    expect(text(r)).not.toMatch(/build\/out\.js/);
    expect(text(await call("Grep", { pattern: "repositoryformatversion" }))).toMatch(/^No matches found/);
  });

  it("FS-SEARCH-1 honours .gitignore outside a git repository too", async () => {
    const { call } = workspace({ ".gitignore": "node_modules\n", "node_modules/lib/x.js": "token\n", "app.js": "token\n" });
    expect(text(await call("Grep", { pattern: "token" }))).toBe("Found 1 file:\napp.js");
  });

  it("FS-SEARCH-3 no match: explains ignored files were not searched and suggests path; path then finds them", async () => {
    const { call } = workspace({ ".gitignore": "node_modules\n", "node_modules/lib/x.js": "secret_token\n", "app.js": "nothing\n" });
    const r = await call("Grep", { pattern: "secret_token" });
    expect(r.isError).toBe(false);
    expect(text(r)).toMatch(/^No matches found for "secret_token" in the working directory \(.+\)\. Files ignored by \.gitignore.*not searched.*set path to that directory/);
    expect(text(r)).not.toContain(" in ..");
    expect(r.structuredContent).toMatchObject({ numFiles: 0, numMatches: 0 });
    const inIgnored = await call("Grep", { pattern: "secret_token", path: "node_modules/lib" });
    expect(text(inIgnored)).toBe("Found 1 file:\nnode_modules/lib/x.js");
  });

  it("FS-SEARCH-1 searches a single file given as path, and reports a missing path clearly", async () => {
    const { call } = workspace({ "one.txt": "a needle\n" });
    expect(text(await call("Grep", { pattern: "needle", path: "one.txt", output_mode: "content" }))).toBe("one.txt:1:a needle");
    const missing = await call("Grep", { pattern: "x", path: "nope" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/Path does not exist/);
  });
});

describe("Grep: bounded output and failures", () => {
  it("FS-SEARCH-1 cuts long matched lines and bounds output however many lines match", async () => {
    const long = "start " + "x".repeat(5000) + " needle end";
    const { call } = workspace({ "long.txt": `${long}\n`, "many.txt": Array.from({ length: 20000 }, (_, i) => `needle number ${i}`).join("\n") });
    const l = await call("Grep", { pattern: "start", output_mode: "content", path: "long.txt" });
    expect(text(l).length).toBeLessThan(700);
    expect(text(l)).toMatch(/omitted/);
    const m = await call("Grep", { pattern: "needle", output_mode: "content", path: "many.txt" });
    expect(text(m).length).toBeLessThan(GREP_MAX_OUTPUT_CHARS + 500);
    expect(text(m)).toMatch(/\[Showing lines 1-\d+ of 20000 \(output capped at 30,000 characters\)/);
    expect(m.structuredContent).toMatchObject({ numMatches: 20000, truncated: true });
  });

  it("FS-SEARCH-1 an invalid regular expression is a clear error about the pattern given, never ripgrep's (?:…) wrapper", async () => {
    const { call } = workspace({ "a.txt": "x\n" });
    const r = await call("Grep", { pattern: "foo(" });
    expect(r.isError).toBe(true);
    expect(r.structuredContent.errorKind).toBe("invalid_argument");
    expect(text(r)).toBe(
      'The pattern "foo(" is not a valid regular expression: unclosed group.\nFix the regular expression (Rust syntax: escape a literal ( ) [ ] { } . * + ? | or \\ with a backslash, e.g. "interface\\{\\}").',
    );
    // Where ripgrep points into the pattern, the caret stays, under the pattern as given.
    expect(text(await call("Grep", { pattern: "a{2,1}" }))).toBe(
      'The pattern "a{2,1}" is not a valid regular expression: invalid repetition count range, the start must be <= the end.\n    a{2,1}\n     ^^^^^\nFix the regular expression (Rust syntax: escape a literal ( ) [ ] { } . * + ? | or \\ with a backslash, e.g. "interface\\{\\}").',
    );
    expect(text(await call("Grep", { pattern: "tail\\" }))).toMatch(/^The pattern "tail\\\\" is not a valid regular expression: it ends with a lone backslash/);
    for (const pattern of ["foo(", "a{2,1}", "[z-a]", "*x"]) expect(text(await call("Grep", { pattern }))).not.toContain("(?:");
  });

  it("FS-SEARCH-1 version-control directories are never searched, whatever the glob, at any depth; path inside one searches it", async () => {
    const { call } = workspace({ "src/a.ts": "needle\n", ".git/config": "needle\n", "vendor/ky/.git/HEAD": "needle\n", "vendor/ky/.hg/x": "needle\n", "wt/.git": "gitdir: needle\n" });
    for (const glob of [undefined, "*", "**", "**/*", "*.ts"]) {
      const found = text(await call("Grep", { pattern: "needle", ...(glob ? { glob } : {}) }));
      expect({ glob, found }).toEqual({ glob, found: expect.not.stringMatching(/\.git\/|\.hg\//) });
    }
    // A worktree's .git *file* is an ordinary file.
    expect(text(await call("Grep", { pattern: "needle", glob: "*" }))).toContain("wt/.git");
    expect(text(await call("Grep", { pattern: "needle", path: "vendor/ky/.git" }))).toBe("Found 1 file:\nvendor/ky/.git/HEAD");
  });

  it("FS-SEARCH-1 says 'timed out, partial results' rather than 'no matches' when the time limit hits", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 30}/f${i}.txt`] = "needle\n";
    const { core, call } = workspace(files);
    core.workspace.updateSettings({ "fs.searchTimeoutMs": 0 });
    const r = await call("Grep", { pattern: "needle" });
    expect(r.structuredContent.timedOut).toBe(true);
    expect(text(r)).toMatch(/timed out/);
    expect(text(r)).not.toMatch(/No matches found/);
  });

  it("FS-SEARCH-1 files_with_matches: the 30,000-character cap counts the text the model reads, not the absolute paths beside it", async () => {
    // Names of about 40 characters: the text fits about 700 of them; counting each absolute path as well stopped far earlier.
    const names = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`packages/module-${String(i).padStart(4, "0")}/src/index-file.ts`, "needle\n"]));
    const { call } = workspace(names);
    const r = await call("Grep", { pattern: "needle", head_limit: 10_000 });
    const [list, note] = text(r).split("\n\n");
    const shown = list!.split("\n").slice(1);
    expect(list!.length).toBeLessThanOrEqual(30_000 + "Found 1500 files (newest first):\n".length);
    // Full: one more name would not have fitted.
    expect(shown.join("\n").length + 1 + shown[0]!.length).toBeGreaterThan(30_000 - 40);
    expect((r.structuredContent.filenames as string[]).length).toBe(shown.length);
    expect(note).toBe(`[Showing files 1-${shown.length} of 1500 (output capped at 30,000 characters). Use offset=${shown.length} to see more, or narrow the search.]`);
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(100 * 1024);
  });

  it("FS-SEARCH-1 files_with_matches: short names under a long working directory are cut by the reply's bound, and the note says that one", async () => {
    const deep = Array.from({ length: 8 }, (_, i) => `a-rather-long-folder-name-number-${i}`).join("/");
    const names = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`${deep}/f${String(i).padStart(4, "0")}`, "needle\n"]));
    const { root } = workspace(names);
    const { call } = caller(path.join(root, deep));
    const r = await call("Grep", { pattern: "needle", head_limit: 10_000 });
    const [list, note] = text(r).split("\n\n");
    const shown = list!.split("\n").slice(1);
    expect(list!.length).toBeLessThan(30_000);
    expect(shown.length).toBeLessThan(2000);
    expect(note).toBe(`[Showing files 1-${shown.length} of 2000 (the result, which also gives each path in full, is capped at 96 KB). Use offset=${shown.length} to see more, or narrow the search.]`);
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(100 * 1024);
  });

  it("FS-SEARCH-1 the description says Grep honours .gitignore and how to search ignored files", () => {
    expect(grepTool.description).toMatch(/honours \.gitignore/);
    expect(grepTool.description).toMatch(/To search ignored files, set path to the ignored directory/);
  });
});
