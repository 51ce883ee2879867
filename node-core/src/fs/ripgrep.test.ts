import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { platformTag } from "../util/vendor.js";
import { RecordSplitter, resolveRipgrep, runRipgrep } from "./ripgrep.js";
import { cleanTempDirs, tempDir } from "../../test/support/fsTestkit.js";

afterEach(cleanTempDirs);

const realRg = resolveRipgrep();

function fakeExecutable(dir: string, name = "rg"): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, "#!/bin/sh\necho fake\n");
  chmodSync(file, 0o755);
  return file;
}

describe("ripgrep resolution", () => {
  it("FS-SEARCH-4 prefers the @vscode/ripgrep platform package, but only if its binary really exists", () => {
    const dir = tempDir();
    const pkgBin = fakeExecutable(path.join(dir, "pkg", "bin"));
    const env = { PATH: "", WAVE_VENDOR_DIR: path.join(dir, "no-vendor") };
    const asked: string[] = [];
    const found = resolveRipgrep({
      env,
      platform: "linux",
      arch: "x64",
      resolveModuleFile: (req) => (asked.push(req), req === "@vscode/ripgrep-linux-x64/bin/rg" ? pkgBin : undefined),
    });
    expect(found).toEqual({ path: pkgBin, source: "@vscode/ripgrep" });
    // A package whose download never happened (resolves to a missing file) is skipped.
    const missing = resolveRipgrep({ env, platform: "linux", arch: "x64", resolveModuleFile: () => path.join(dir, "nowhere", "rg") });
    expect(missing).toBeUndefined();
    expect(asked).toContain("@vscode/ripgrep-linux-x64/bin/rg");
  });

  it("FS-SEARCH-4 falls back to the vendor directory, then to rg on PATH, then reports none", () => {
    const dir = tempDir();
    const vendorRoot = path.join(dir, "vendor");
    const vendored = fakeExecutable(path.join(vendorRoot, platformTag()));
    const pathDir = path.join(dir, "bin");
    const onPath = fakeExecutable(pathDir);
    const none = () => undefined;
    expect(resolveRipgrep({ env: { PATH: pathDir, WAVE_VENDOR_DIR: vendorRoot }, resolveModuleFile: none })).toEqual({ path: vendored, source: "vendor" });
    expect(resolveRipgrep({ env: { PATH: `/nonexistent:${pathDir}`, WAVE_VENDOR_DIR: path.join(dir, "empty") }, resolveModuleFile: none })).toEqual({
      path: onPath,
      source: "PATH",
    });
    expect(resolveRipgrep({ env: { PATH: path.join(dir, "empty"), WAVE_VENDOR_DIR: path.join(dir, "empty") }, resolveModuleFile: none })).toBeUndefined();
  });

  it("FS-SEARCH-4 resolves at each use: a binary that appears later is found without a restart", () => {
    const dir = tempDir();
    const env = { PATH: path.join(dir, "bin"), WAVE_VENDOR_DIR: path.join(dir, "empty") };
    const none = () => undefined;
    expect(resolveRipgrep({ env, resolveModuleFile: none })).toBeUndefined();
    const later = fakeExecutable(path.join(dir, "bin"));
    expect(resolveRipgrep({ env, resolveModuleFile: none })?.path).toBe(later);
  });

  it("FS-SEARCH-4 finds Windows rg.exe through PATHEXT (injected platform)", () => {
    const dir = tempDir();
    const exe = fakeExecutable(path.join(dir, "bin"), "rg.exe");
    const found = resolveRipgrep({ env: { Path: path.join(dir, "bin"), PATHEXT: ".COM;.EXE", WAVE_VENDOR_DIR: path.join(dir, "x") }, platform: "win32", resolveModuleFile: () => undefined });
    expect(found).toEqual({ path: exe, source: "PATH" });
  });

  it("FS-SEARCH-4 this checkout resolves a real rg (the npm package, the vendor dir or Debian's)", () => {
    expect(realRg).toBeDefined();
  });
});

describe("running ripgrep", () => {
  it("FS-SEARCH-1 streams output, and stops rg when the consumer has enough", async () => {
    const dir = tempDir();
    for (let i = 0; i < 50; i++) writeFileSync(path.join(dir, `f${i}.txt`), "needle\n".repeat(100));
    let chunks = 0;
    const run = await runRipgrep(realRg!.path, ["--no-config", "needle", dir], { cwd: dir, env: process.env, timeoutMs: 10_000, onStdout: () => (++chunks < 1 ? undefined : false) });
    expect(run.stopped).toBe(true);
    expect(chunks).toBe(1);
  });

  it("FS-SEARCH-1/2 uses no output that arrives after the time limit, however late the limit's timer fires", async () => {
    const dir = tempDir();
    for (let i = 0; i < 50; i++) writeFileSync(path.join(dir, `f${i}.txt`), "needle\n");
    // A busy event loop runs timers late; here the timer never runs at all, and the run must
    // still end at its deadline instead of delivering everything rg printed.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let chunks = 0;
      const run = await runRipgrep(realRg!.path, ["--no-config", "--files", dir], { cwd: dir, env: process.env, timeoutMs: 0, onStdout: () => void chunks++ });
      expect(run.timedOut).toBe(true);
      expect(chunks).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("FS-SEARCH-1 reports a spawn failure instead of throwing", async () => {
    const dir = tempDir();
    const run = await runRipgrep(path.join(dir, "no-such-rg"), [], { cwd: dir, env: process.env, timeoutMs: 1000, onStdout: () => undefined });
    expect(run.spawnError).toMatch(/ENOENT/);
  });

  it("FS-SEARCH-1 splits NUL-terminated records across chunk boundaries", () => {
    const s = new RecordSplitter(0);
    const got: string[] = [];
    s.push(Buffer.from("ab\0c"), (r) => void got.push(r.toString()));
    s.push(Buffer.from("d\0e"), (r) => void got.push(r.toString()));
    s.flush((r) => void got.push(r.toString()));
    expect(got).toEqual(["ab", "cd", "e"]);
  });
});
