// Which bundled search helpers a core reports (env/status `searchHelpers`, `wave-core env`): the
// real vendor folder, none at all, one too old to use, and Windows on ARM served by the x64 folder
// (by injection with recorded Windows probe outputs).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSearchHelpers, ShimInjector } from "./index.js";
import { GITIGNORE_PROBE, type ProbeRunner } from "./probe.js";
import { REAL_VENDOR_ROOT, requireRealVendor } from "../../../test/support/shims.js";

let tmp: string;

beforeAll(() => {
  requireRealVendor();
  tmp = mkdtempSync(path.join(os.tmpdir(), "wave-helpers-"));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function writeExecutable(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

describe("search helper status", () => {
  it("the real vendor folder: ugrep, bfs and rg active, with versions and paths", async () => {
    const status = await new ShimInjector({ vendorRoots: () => [REAL_VENDOR_ROOT], arch: "x64" }).helperStatus("linux");
    expect(status.platform).toBe("linux-x64");
    expect(status.tools.map((t) => [t.tool, t.state, t.path])).toEqual([
      ["ugrep", "active", path.join(REAL_VENDOR_ROOT, "linux-x64", "ugrep")],
      ["bfs", "active", path.join(REAL_VENDOR_ROOT, "linux-x64", "bfs")],
      ["rg", "active", path.join(REAL_VENDOR_ROOT, "linux-x64", "rg")],
    ]);
    for (const t of status.tools) expect(t.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(formatSearchHelpers(status)).toContain(`ugrep  active, ${status.tools[0]!.version} (`);
  });

  it("a platform without helpers says each system command runs", async () => {
    const status = await new ShimInjector({ vendorRoots: () => [path.join(tmp, "empty")], arch: "arm64" }).helperStatus("linux");
    expect(status).toEqual({
      platform: "linux-arm64",
      tools: ["ugrep", "bfs", "rg"].map((tool) => ({ tool, state: "missing", reason: `no bundled ${tool} for linux-arm64; the system command runs` })),
    });
    expect(formatSearchHelpers(status)).toContain("bfs    missing: no bundled bfs for linux-arm64; the system command runs");
  });

  it("a helper that fails its start-up check is unusable, with the probe's reason", async () => {
    const root = path.join(tmp, "old");
    writeExecutable(path.join(root, "linux-x64", "ugrep"), "#!/bin/sh\necho 'ugrep 7.4.2 x86_64-pc-linux-gnu'\n");
    const status = await new ShimInjector({ vendorRoots: () => [root], arch: "x64" }).helperStatus("linux");
    const ugrep = status.tools[0]!;
    expect(ugrep).toMatchObject({ tool: "ugrep", state: "unusable", path: path.join(root, "linux-x64", "ugrep") });
    expect(ugrep.reason).toContain("7.4.2 is older than 7.8.2");
  });

  it("Windows on ARM uses the win32-x64 folder when it has no own, and bfs is never used on Windows", async () => {
    const root = path.join(tmp, "win");
    const ugrep = writeExecutable(path.join(root, "win32-x64", "ugrep.exe"), "stand-in");
    const rg = writeExecutable(path.join(root, "win32-x64", "rg.exe"), "stand-in");
    // Recorded on Windows (see index.test.ts): the Genivia WIN64 ugrep and ripgrep 14.1.1.
    const recorded: ProbeRunner = async (command) => {
      const [exe, ...args] = command;
      if (args[0] === "--version") {
        return { code: 0, stdout: exe!.endsWith("ugrep.exe") ? "ugrep 7.8.2 WIN64 +avx2\r\n" : "ripgrep 14.1.1 (rev 4649aa9700)\r\n", stderr: "" };
      }
      if (args.includes(GITIGNORE_PROBE.needle)) return { code: 0, stdout: "keep.log\r\nkeep.txt\r\nanchored\\f.txt\r\nodd\\.gitignore\\g.txt\r\nsub\\build\\d.txt\r\n", stderr: "" };
      return { code: 2, stdout: "", stderr: "unexpected probe" };
    };
    const status = await new ShimInjector({ vendorRoots: () => [root], arch: "arm64", run: recorded }).helperStatus("win32");
    expect(status.platform).toBe("win32-arm64");
    expect(status.tools).toEqual([
      { tool: "ugrep", state: "active", path: ugrep, version: "7.8.2" },
      { tool: "bfs", state: "missing", reason: "bfs has no Windows build; find is Git Bash's GNU find" },
      { tool: "rg", state: "active", path: rg, version: "14.1.1" },
    ]);
  });
});
