// scripts/vendor-linux-x64.sh without the network: system tools that are new enough are taken as
// they are (what happens on Debian 13 for bfs and rg), and a tool that must come from Debian when
// the mirror fails says so clearly and leaves nothing half-built. (Fetching from Debian
// itself runs in ./scripts/setup on every CI machine, where the shim tests then use the result.)
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NODE_CORE_DIR, REAL_VENDOR_ROOT, requireRealVendor } from "./support/shims.js";
import { tempDir } from "./support/processes.js";

const SCRIPT = path.join(NODE_CORE_DIR, "scripts", "vendor-linux-x64.sh");
const UNREACHABLE_MIRROR = "file:///nonexistent/wave-test-mirror";

beforeAll(() => {
  requireRealVendor();
});

/** A PATH directory whose `tool` reports `version` and otherwise runs `real`. */
function fakeTool(dir: string, tool: string, version: string, real: string): void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, tool);
  writeFileSync(file, `#!/bin/sh\nif [ "$1" = --version ]; then echo '${version}'; exit 0; fi\nexec '${real}' "$@"\n`);
  chmodSync(file, 0o755);
}

function runScript(args: string[], bin: string, mirror = UNREACHABLE_MIRROR) {
  return spawnSync(SCRIPT, args, {
    encoding: "utf8",
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, WAVE_VENDOR_MIRROR: mirror, WAVE_VENDOR_SECURITY_MIRROR: mirror },
    timeout: 60_000,
  });
}

const vendorTool = (tool: string) => path.join(REAL_VENDOR_ROOT, "linux-x64", tool);

describe("scripts/vendor-linux-x64.sh", () => {
  it("takes the system's tools when they are new enough, without the network; a second run is a no-op", () => {
    const dir = tempDir("wave-vendor-script-");
    const bin = path.join(dir, "bin");
    // Debian 13 ships bfs 4.0.6 and ripgrep 14.1.1; this machine's stand-ins report those versions.
    fakeTool(bin, "bfs", "bfs 4.0.6", vendorTool("bfs"));
    fakeTool(bin, "rg", "ripgrep 14.1.1", vendorTool("rg"));
    fakeTool(bin, "ugrep", "ugrep 7.8.4 x86_64-pc-linux-gnu", vendorTool("ugrep"));
    const dest = path.join(dir, "vendor", "linux-x64");

    const first = runScript(["--dest", dest], bin);
    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(path.join(dest, "VERSIONS"), "utf8")).toBe(
      ["recipe 2 mode default", `ugrep 7.8.4 system ${path.join(bin, "ugrep")}`, `bfs 4.0.6 system ${path.join(bin, "bfs")}`, `rg 14.1.1 system ${path.join(bin, "rg")}`, ""].join("\n"),
    );
    // The copies work on their own (the stand-ins run the real tools).
    const listed = spawnSync(path.join(dest, "bfs"), [path.dirname(dest), "-name", "VERSIONS"], { encoding: "utf8" });
    expect(listed.stdout).toBe(`${path.join(dest, "VERSIONS")}\n`);

    const second = runScript(["--dest", dest], bin);
    expect(second.status).toBe(0);
    expect(second.stderr).toBe("vendor: up to date: ugrep 7.8.4, bfs 4.0.6, rg 14.1.1\n");
  });

  // An http mirror that refuses connections: apt-get update itself "succeeds" (after its retries)
  // with warnings, and the script must say that the lists were not read rather than "no packages".
  it.each([
    ["file:///nonexistent/wave-test-mirror", (m: string) => `vendor: apt-get update failed (mirror ${m})`],
    ["http://127.0.0.1:9/debian", (m: string) => `the package lists could not all be read from ${m} (set WAVE_VENDOR_MIRROR to a reachable Debian mirror)`],
  ])("a tool that must come from Debian when the mirror %s fails: a clear error, nothing installed", (mirror, message) => {
    const dir = tempDir("wave-vendor-script-");
    const bin = path.join(dir, "bin");
    // Debian 12's ugrep is too old for the shims; bfs and rg are fine.
    fakeTool(bin, "ugrep", "ugrep 3.11.2 x86_64-pc-linux-gnu", vendorTool("ugrep"));
    fakeTool(bin, "bfs", "bfs 4.1.4", vendorTool("bfs"));
    fakeTool(bin, "rg", "ripgrep 13.0.0", vendorTool("rg"));
    const dest = path.join(dir, "vendor", "linux-x64");

    const r = runScript(["--dest", dest], bin, mirror);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(message(mirror));
    expect(existsSync(dest)).toBe(false);
    expect(readdirSync(path.dirname(dest))).toEqual([]);
  });
});
