// Starting vendor binaries without their sh launch script.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLaunchMarker, resolveLaunch } from "./launch.js";
import { requireRealVendor, TOOLS } from "../../../test/support/shims.js";

let tmp: string;
let vendor: string;

beforeAll(() => {
  vendor = path.join(requireRealVendor(), "linux-x64");
  tmp = mkdtempSync(path.join(os.tmpdir(), "wave-shims-launch-"));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("resolveLaunch", () => {
  it("starts each bundled tool the way its launch script would, or directly when it is a plain binary", () => {
    for (const tool of TOOLS) {
      const file = path.join(vendor, tool);
      const launch = resolveLaunch(file);
      const viaScript = spawnSync(file, ["--version"], { encoding: "utf8" });
      const direct = spawnSync(launch.command[0]!, [...launch.command.slice(1), "--version"], { encoding: "utf8" });
      expect(direct.status, tool).toBe(0);
      expect(direct.stdout, tool).toBe(viaScript.stdout);
      expect(launch.requires[0]).toBe(file);
      if (launch.command.length > 1) {
        expect(launch.command).toEqual([path.join(vendor, "lib", "ld-linux-x86-64.so.2"), "--library-path", path.join(vendor, "lib"), "--argv0", tool, path.join(vendor, "libexec", tool)]);
      }
    }
  });

  it("falls back to the script itself when a part the marker names is missing", () => {
    const dir = path.join(tmp, "partial");
    mkdirSync(dir);
    const file = path.join(dir, "ugrep");
    writeFileSync(file, "#!/bin/sh\n# wave-vendor-launch: loader=lib/ld-linux-x86-64.so.2 libs=lib argv0=ugrep binary=libexec/ugrep\nexit 0\n");
    chmodSync(file, 0o755);
    expect(resolveLaunch(file)).toEqual({ command: [file], requires: [file] });
    const binary = path.join(dir, "plain");
    copyFileSync("/bin/true", binary);
    expect(resolveLaunch(binary)).toEqual({ command: [binary], requires: [binary] });
    expect(resolveLaunch(path.join(dir, "missing"))).toEqual({ command: [path.join(dir, "missing")], requires: [path.join(dir, "missing")] });
  });

  it("reads only complete markers", () => {
    expect(parseLaunchMarker("# wave-vendor-launch: loader=l libs=x argv0=a binary=b\n")).toEqual({ loader: "l", libs: "x", argv0: "a", binary: "b" });
    expect(parseLaunchMarker("# wave-vendor-launch: loader=l libs=x\n")).toBeUndefined();
    expect(parseLaunchMarker("#!/bin/sh\nexec true\n")).toBeUndefined();
  });
});
