import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeMissing, displayPath, fileKey, nearNames, resolveToolPath } from "./paths.js";
import { cleanTempDirs, tempDir } from "../../test/support/fsTestkit.js";

afterEach(cleanTempDirs);

describe("tool paths", () => {
  it("FS-READ-1 resolves relative paths against the cwd and expands ~", () => {
    expect(resolveToolPath("a/b.txt", "/work/proj")).toBe(path.resolve("/work/proj/a/b.txt"));
    expect(resolveToolPath("/abs/x", "/work/proj")).toBe(path.resolve("/abs/x"));
    expect(resolveToolPath("~/notes.md", "/work", "/home/me")).toBe(path.resolve("/home/me/notes.md"));
    expect(resolveToolPath("~", "/work", "/home/me")).toBe(path.resolve("/home/me"));
    expect(displayPath("/work/proj/src/a.ts", "/work/proj")).toBe("src/a.ts");
    expect(displayPath("/elsewhere/a.ts", "/work/proj")).toBe("/elsewhere/a.ts");
  });

  it("FS-EDIT-5 keys read state by the real path (symlinks and .. agree) and folds case on Windows", () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "sub"));
    writeFileSync(path.join(dir, "sub", "f.txt"), "");
    expect(fileKey(path.join(dir, "sub", "..", "sub", "f.txt"))).toBe(path.join(dir, "sub", "f.txt"));
    expect(fileKey("C:\\Users\\Me\\File.TXT", "win32")).toBe("c:\\users\\me\\file.txt");
  });

  it("FS-READ-6 suggests near names: other case, other extension, a typo or a swap", () => {
    const dir = tempDir();
    for (const f of ["README.md", "index.ts", "index.test.ts", "package.json", "utils.js"]) writeFileSync(path.join(dir, f), "");
    expect(nearNames(dir, "readme.md")).toEqual([path.join(dir, "README.md")]);
    expect(nearNames(dir, "index.js")[0]).toBe(path.join(dir, "index.ts"));
    expect(nearNames(dir, "pakcage.json")).toEqual([path.join(dir, "package.json")]);
    expect(nearNames(dir, "zzzzzz.q")).toEqual([]);
    expect(describeMissing(path.join(dir, "utils.ts"), dir)).toMatch(/Did you mean utils\.js\?/);
  });
});
