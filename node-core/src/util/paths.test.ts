import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanTempDirs, tempDir } from "../../test/support/fsTestkit.js";
import { physicalPath } from "./paths.js";

afterEach(cleanTempDirs);

describe("physicalPath: where a write really lands", () => {
  it("is realpath for what exists, and keeps the missing tail's names under the real parent", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "f"), "");
    symlinkSync(dir, path.join(dir, "self"));
    expect(physicalPath(path.join(dir, "self", "f"))).toBe(realpathSync(path.join(dir, "f")));
    expect(physicalPath(path.join(dir, "self", "new", "deeper.txt"))).toBe(path.join(dir, "new", "deeper.txt"));
  });

  it("follows dangling links, relative and absolute, through chains", () => {
    const dir = tempDir();
    const other = tempDir("wave-other-");
    symlinkSync(path.join(other, "missing", "x.txt"), path.join(dir, "abs"));
    symlinkSync("abs", path.join(dir, "rel"));
    symlinkSync("rel", path.join(dir, "rel2"));
    expect(physicalPath(path.join(dir, "rel2"))).toBe(path.join(other, "missing", "x.txt"));
  });

  it("takes `..` in a link target after the links before it, as the kernel does", () => {
    const dir = tempDir();
    const other = tempDir("wave-other-");
    mkdirSync(path.join(other, "a", "b"), { recursive: true });
    symlinkSync(path.join(other, "a", "b"), path.join(dir, "deep"));
    symlinkSync("deep/../n.txt", path.join(dir, "up"));
    expect(physicalPath(path.join(dir, "up"))).toBe(path.join(other, "a", "n.txt"));
    // A missing name before `..`: nothing below it exists, so the rest folds as written.
    expect(physicalPath(path.join(dir, "nope", "..", "m.txt"))).toBe(path.join(dir, "m.txt"));
  });

  it("returns (does not hang) on a symlink loop; writing there then fails with ELOOP", () => {
    const dir = tempDir();
    symlinkSync("b", path.join(dir, "a"));
    symlinkSync("a", path.join(dir, "b"));
    expect([path.join(dir, "a", "x"), path.join(dir, "b", "x")]).toContain(physicalPath(path.join(dir, "a", "x")));
  });

  it.skipIf(process.platform === "win32")("treats a backslash as part of a name on POSIX", () => {
    const dir = tempDir();
    symlinkSync(path.join(dir, "real"), path.join(dir, "a\\b"));
    expect(physicalPath(path.join(dir, "a\\b"))).toBe(path.join(dir, "real"));
  });
});
