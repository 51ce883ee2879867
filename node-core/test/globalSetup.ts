// Once per test run: as root, an ordinary account for the tests that must hold as an unprivileged
// user too (test/support/testUser.ts), removed again when the run ends. Accounts of earlier runs
// that ended without their teardown (a killed run) go first: the run that made one names its pid
// in the account's home, and an account whose run is gone is removed. Runs side by side on one
// machine each keep their own.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import type { TestUser } from "./support/testUser.js";

const PREFIX = "wavet-";

function accounts(): Array<{ name: string; uid: number; home: string }> {
  return readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .filter((f) => f[0]?.startsWith(PREFIX) && f.length >= 7)
    .map((f) => ({ name: f[0]!, uid: Number(f[2]), home: f[5]! }));
}

const OWNER_FILE = ".wave-test-run";

/** Whether the test run that created the account (its pid, in the home directory) still runs. */
function ownerAlive(home: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(home, OWNER_FILE), "utf8"));
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeAccount(name: string, home: string): void {
  spawnSync("userdel", [name], { stdio: "ignore" });
  rmSync(home, { recursive: true, force: true });
}

export default function setup(project: TestProject): (() => void) | undefined {
  if (process.getuid?.() !== 0) {
    project.provide("testUser", null);
    return undefined;
  }
  for (const a of accounts()) if (!existsSync(a.home) || !ownerAlive(a.home)) removeAccount(a.name, a.home);
  const name = PREFIX + Math.random().toString(16).slice(2, 10);
  const home = mkdtempSync(path.join(os.tmpdir(), "wave-user-home-"));
  execFileSync("useradd", ["--no-create-home", "--home-dir", home, "--shell", "/bin/bash", "--user-group", name], { stdio: "pipe" });
  const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
  writeFileSync(path.join(home, OWNER_FILE), String(process.pid));
  chownSync(home, uid, gid);
  const user: TestUser = { name, uid, gid, home };
  project.provide("testUser", user);
  return () => removeAccount(name, home);
}
