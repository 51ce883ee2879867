// scripts/build-helpers.sh (the release workflow's helper build) without the network: every archive
// it downloads is checked against the SHA-256 pinned in the script before anything is unpacked, and a
// mismatch stops it with nothing left at the destination. (Real builds run only on the release
// runners, which can reach the upstream servers.)
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_CORE_DIR } from "./support/shims.js";
import { tempDir } from "./support/processes.js";

const SCRIPT = path.join(NODE_CORE_DIR, "scripts", "build-helpers.sh");

describe("scripts/build-helpers.sh", () => {
  it("refuses a download whose SHA-256 differs from the pinned one and builds nothing", () => {
    const dir = tempDir("wave-build-helpers-");
    const bin = path.join(dir, "bin");
    mkdirSync(bin);
    // A curl that "downloads" a substitute: what a compromised mirror or proxy would hand over.
    const curl = path.join(bin, "curl");
    writeFileSync(curl, '#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in -o) out=$2; shift ;; esac; shift; done\necho substitute > "$out"\n');
    chmodSync(curl, 0o755);
    const dest = path.join(dir, "vendor");
    const r = spawnSync("bash", [SCRIPT, "win32-arm64", dest], { encoding: "utf8", env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /ripgrep-15\.1\.0-aarch64-pc-windows-msvc\.zip from https:\/\/github\.com\/BurntSushi\/ripgrep\/releases\/download\/15\.1\.0\/\S+ has SHA-256 [0-9a-f]{64}, not the pinned 00d931fb5237c9696ca49308818edb76d8eb6fc132761cb2a1bd616b2df02f8e; nothing was built/,
    );
    expect(existsSync(dest)).toBe(false);
  });

  it("names the platforms it builds", () => {
    const r = spawnSync("bash", [SCRIPT, "freebsd-x64", tempDir("wave-build-helpers-")], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("unknown platform 'freebsd-x64'");
  });
});
