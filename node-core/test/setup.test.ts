// The README's first command on a machine that cannot build the bundled search helpers: the real
// ./scripts/setup, run in a copy of the repository's set-up files whose helpers are not assembled
// yet, with the Debian mirror unreachable (a real failed fetch: nothing listens on the port), and
// then the core the first command runs, without helpers.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, statSync, symlinkSync, utimesSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLE, bundleExists } from "./support/coreProcess.js";
import { tempDir } from "./support/processes.js";

const REPO = path.join(__dirname, "..", "..");

/** scripts/setup, the vendor script and package-lock.json (its time kept: npm ci stays skipped), node_modules linked. */
function setupCopy(): string {
  const copy = tempDir("wave-setup-");
  for (const file of ["scripts/setup", "node-core/scripts/vendor-linux-x64.sh", "package-lock.json"]) {
    const from = path.join(REPO, file);
    const to = path.join(copy, file);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
    chmodSync(to, statSync(from).mode);
    utimesSync(to, statSync(from).atime, statSync(from).mtime);
  }
  symlinkSync(path.join(REPO, "node_modules"), path.join(copy, "node_modules"));
  return copy;
}

// A fetch that really fails: connection refused on a port nothing listens on.
const NO_MIRROR = { WAVE_VENDOR_MIRROR: "http://127.0.0.1:9/debian", WAVE_VENDOR_SECURITY_MIRROR: "http://127.0.0.1:9/debian-security" };

describe("./scripts/setup without a reachable Debian mirror", () => {
  it("warns that the bundled helpers could not be assembled, says how to build them later, and succeeds", () => {
    const copy = setupCopy();
    const run = spawnSync("bash", [path.join(copy, "scripts", "setup")], { encoding: "utf8", env: { ...process.env, ...NO_MIRROR }, timeout: 240_000 });
    // The vendor script's own reason comes first, then the warning.
    expect(run.stderr).toContain("the package lists could not all be read from http://127.0.0.1:9/debian");
    expect(run.stderr).toContain(
      "setup: warning: the bundled search helpers (node-core/vendor/linux-x64) could not be assembled (the reason is above); the core runs the system's grep, find and rg instead. The tests that need the helpers fail until you assemble them: node-core/scripts/vendor-linux-x64.sh --portable (WAVE_VENDOR_MIRROR picks another Debian mirror).",
    );
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(path.join(copy, "node-core", "vendor", "linux-x64"))).toBe(false);
  });

  it("the README's first command then runs: the core answers a Bash call on the system's tools", () => {
    if (!bundleExists()) throw new Error(`Build the bundle first (npm run build): ${BUNDLE} is missing.`);
    const repo = tempDir("wave-setup-repo-");
    spawnSync("git", ["init", "-q", repo]);
    const run = spawnSync(process.execPath, [BUNDLE, "call", "Bash", '{"command":"git status && grep -r --version | head -1"}', "--root", repo], {
      encoding: "utf8",
      // No helpers anywhere: the vendor folder a fresh clone lacks, and no other.
      env: { ...process.env, WAVE_VENDOR_DIR: path.join(repo, "no-vendor"), WAVE_LOGIN_ENV: "0" },
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("No commits yet");
    // The system's GNU grep, since no bundled ugrep exists.
    expect(run.stdout).toMatch(/grep \(GNU grep\)/);
  });
});
