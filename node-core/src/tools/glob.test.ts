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
    expect(text(r)).toMatch(/Showing the 100 most recently modified of 130 matches/);
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

  it("FS-SEARCH-2 the description says gitignored files are included and .git never is", () => {
    expect(globTool.description).toMatch(/ignored by \.gitignore .* are included; \.git .* never are/);
  });
});
