import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { caller, cleanTempDirs, tempDir, text } from "../../test/support/fsTestkit.js";
import { globTool } from "./glob.js";

afterEach(cleanTempDirs);

function workspace(files: string[]) {
  const root = tempDir();
  const base = Date.now() / 1000 - 10_000;
  files.forEach((name, i) => {
    const abs = path.join(root, name);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, name);
    utimesSync(abs, base + i, base + i);
  });
  return { root, ...caller(root) };
}

describe("Glob tool", () => {
  it("FS-SEARCH-2 lists matches relative to the cwd, newest first, with metadata; gitignored files included", async () => {
    const { root, call } = workspace([".gitignore", "src/a.ts", "dist/a.js", "src/b.ts", ".git/config.ts"]);
    writeFileSync(path.join(root, ".gitignore"), "dist\nsrc\n");
    const r = await call("Glob", { pattern: "**/*.ts" });
    expect(r.isError).toBe(false);
    expect(text(r)).toBe("src/b.ts\nsrc/a.ts");
    expect(r.structuredContent).toMatchObject({
      filenames: [path.join(root, "src/b.ts"), path.join(root, "src/a.ts")],
      numFiles: 2,
      totalMatches: 2,
      truncated: false,
      timedOut: false,
    });
    expect(typeof r.structuredContent.durationMs).toBe("number");
  });

  it("FS-SEARCH-2 returns at most 100 paths by default and says the result was truncated", async () => {
    const { call } = workspace(Array.from({ length: 130 }, (_, i) => `f/${i}.js`));
    const r = await call("Glob", { pattern: "**/*.js" });
    expect(r.structuredContent).toMatchObject({ numFiles: 100, totalMatches: 130, truncated: true });
    expect(text(r).split("\n")[0]).toBe("f/129.js");
    expect(text(r)).toMatch(/Showing the 100 most recently modified of 130 matching files; 30 more are not listed \(limit 100\)\. Narrow the pattern or path, or raise limit\.\]$/);
    expect((await call("Glob", { pattern: "**/*.js", limit: 5 })).structuredContent).toMatchObject({ numFiles: 5 });
  });

  it("FS-SEARCH-2 searches from path, and explains a missing or non-directory path", async () => {
    const { call } = workspace(["pkg/x.md", "y.md"]);
    expect(text(await call("Glob", { pattern: "*.md", path: "pkg" }))).toBe("pkg/x.md");
    expect(text(await call("Glob", { pattern: "*.md", path: "pgk" }))).toMatch(/Directory does not exist: .*pgk\. Did you mean pkg/);
    expect(text(await call("Glob", { pattern: "*", path: "y.md" }))).toMatch(/is a file, not a directory/);
    expect(text(await call("Glob", { pattern: "*.rs" }))).toMatch(/^No files match \*\.rs/);
  });

  it("FS-SEARCH-2 says 'timed out, partial results' instead of 'no files found' at the time limit", async () => {
    const { core, call } = workspace(Array.from({ length: 200 }, (_, i) => `d${i % 20}/f${i}.js`));
    core.workspace.updateSettings({ "fs.searchTimeoutMs": 0 });
    const r = await call("Glob", { pattern: "**/*.js" });
    expect(r.structuredContent.timedOut).toBe(true);
    expect(text(r)).toMatch(/timed out/);
    expect(text(r)).not.toMatch(/^No files match/);
  });

  it("FS-SEARCH-2 the description says gitignored files are included, VCS directories never are, and how path reaches one", () => {
    expect(globTool.description).toMatch(/ignored by \.gitignore .* are included/);
    expect(globTool.description).toContain("Files inside version-control directories (.git, .svn, .hg, .bzr, .jj, .sl, _darcs and CVS) never are, at any depth");
    expect(globTool.description).toContain("unless path itself is such a directory or inside one");
  });

  it("FS-SEARCH-2 a cloned repository's .git is never listed, whatever the pattern; path inside it lists it, and a pattern into it says how", async () => {
    const { root, call } = workspace(["src/a.ts", "vendor/ky/index.ts", "vendor/ky/.git/HEAD", "vendor/ky/.git/objects/ab/cd", ".svn/entries", "vendor/ky/.hg/store/x"]);
    for (const pattern of ["**/*", "vendor/**", "**/HEAD", "*/*/*/*"]) {
      const listed = text(await call("Glob", { pattern }));
      expect({ pattern, listed }).toEqual({ pattern, listed: expect.not.stringMatching(/\.git\/|\.svn\/|\.hg\//) });
    }
    expect(text(await call("Glob", { pattern: "**/*" }))).toBe(["vendor/ky/index.ts", "src/a.ts"].join("\n"));
    expect(text(await call("Glob", { pattern: "*", path: "vendor/ky/.git" }))).toBe("vendor/ky/.git/HEAD");
    const into = await call("Glob", { pattern: "vendor/ky/.git/**" });
    expect(into.isError).toBe(false);
    expect(text(into)).toBe(
      `No files listed for vendor/ky/.git/**: it leads into ${path.join(root, "vendor/ky/.git")}, and Glob never lists files inside version-control directories (.git, .svn, .hg, .bzr, .jj, .sl, _darcs and CVS) below path. To list one, give that directory as path (path: "vendor/ky/.git").`,
    );
    expect(text(await call("Glob", { pattern: "**/.git/*" }))).toMatch(
      /^No files match \*\*\/\.git\/\* in .*\. Files inside version-control directories \(\.git, .*\) are never listed below path; to list one, give it as path\.$/,
    );
  });

  it("FS-SEARCH-2 the 30,000-character cap counts the text the model reads, and the result says how many files were left out", async () => {
    // Names of about 40 characters: the text fits about 730 of them; counting the absolute paths as well stopped at about a third of that.
    const names = Array.from({ length: 1500 }, (_, i) => `packages/module-${String(i).padStart(4, "0")}/src/index-file.ts`);
    const { call } = workspace(names);
    const r = await call("Glob", { pattern: "**/*.ts", limit: 10_000 });
    const [list, note] = text(r).split("\n\n");
    const shown = list!.split("\n");
    expect(list!.length).toBeLessThanOrEqual(30_000);
    // Full: one more name would not have fitted.
    expect(list!.length + 1 + names[0]!.length).toBeGreaterThan(30_000);
    expect(r.structuredContent).toMatchObject({ numFiles: shown.length, totalMatches: 1500, truncated: true });
    expect((r.structuredContent.filenames as string[]).length).toBe(shown.length);
    expect(note).toBe(
      `[Showing the ${shown.length} most recently modified of 1,500 matching files; ${(1500 - shown.length).toLocaleString("en-US")} more are not listed (the list is capped at 30,000 characters). Narrow the pattern or path.]`,
    );
  });
});
