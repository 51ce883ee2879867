// Once per test run: as root, an ordinary account for the tests that must hold as an unprivileged
// user too (test/support/testUser.ts), removed again when the run ends. Accounts of earlier runs
// that ended without their teardown (a killed run) go first: the run that made one names its pid
// in the account's home, and an account whose run is gone is removed. Runs side by side on one
// machine each keep their own.
//
// And a temporary directory of the run's own (TMPDIR for every test and every core they start),
// so that what the run leaves behind can be counted without looking at anyone else's files: at
// the end, after the sweep a next core would do for the cores tests killed with SIGKILL, anything
// still in it fails the run.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import type { TestUser } from "./support/testUser.js";
import { removeStaleOutput } from "../src/base/processDir.js";
import { removeAbandonedShimDirs } from "../src/shell/shims/injectionFiles.js";
import { identityAlive, processStartTime } from "../src/util/processIdentity.js";

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

/** In the run's temporary directory: which run (pid and start time) made it. */
const RUN_OWNER_FILE = ".wave-run-owner";

/** Whose is a directory of the temp directory: the identity of the run that made it, if one did. */
function runOwner(dir: string): string | undefined {
  try {
    return /^(\d+-\d+)$/.exec(readFileSync(path.join(dir, RUN_OWNER_FILE), "utf8").trim())?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Makes the run's temporary directory TMPDIR (the workers and what they start inherit it) and
 * returns the check for the end of the run. Directories of earlier runs that were killed go first.
 * The name is short on purpose: tests bound results that carry absolute paths.
 */
function useRunTempDir(): () => Promise<void> {
  const parent = os.tmpdir();
  for (const name of readdirSync(parent)) {
    const owner = name.startsWith("wr-") ? runOwner(path.join(parent, name)) : undefined;
    const [pid, start] = owner?.split("-") ?? [];
    if (owner && !identityAlive(Number(pid), start!)) rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(path.join(parent, "wr-"));
  writeFileSync(path.join(dir, RUN_OWNER_FILE), `${process.pid}-${processStartTime(process.pid) ?? "0"}`);
  // Like /tmp: the unprivileged test account writes its temporary files here too.
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  return async () => {
    let left: string[] = [];
    // Cores on their way out (their exit removes their folders) get a few seconds.
    for (let i = 0; i < 50; i++) {
      // Every account's output root: the unprivileged test account's cores keep theirs apart.
      for (const name of readdirSync(dir)) if (name.startsWith("wave-core-")) await removeStaleOutput(path.join(dir, name));
      removeAbandonedShimDirs(dir);
      left = leftovers(dir);
      if (left.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    process.env.TMPDIR = parent;
    rmSync(dir, { recursive: true, force: true });
    if (left.length > 0) {
      process.stderr.write(
        `\nThe test run left ${left.length} ${left.length === 1 ? "entry" : "entries"} in its temporary directory (tests must remove what they make: test/support/scratch.ts; the core must remove what it makes):\n  ${left.slice(0, 40).join("\n  ")}${left.length > 40 ? `\n  ... and ${left.length - 40} more` : ""}\n`,
      );
      process.exitCode = 1;
    }
  };
}

/** What is in the run's temporary directory; the (shared) output root counts only for what it holds. */
function leftovers(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === RUN_OWNER_FILE) continue;
    if (name.startsWith("wave-core-")) {
      for (const inner of readdirSync(path.join(dir, name))) out.push(`${name}/${inner}`);
    } else out.push(name);
  }
  return out.sort();
}

export default function setup(project: TestProject): () => Promise<void> {
  const checkRunTempDir = useRunTempDir();
  if (process.getuid?.() !== 0) {
    project.provide("testUser", null);
    return checkRunTempDir;
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
  return async () => {
    removeAccount(name, home);
    await checkRunTempDir();
  };
}
