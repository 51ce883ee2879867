import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureLockDir, lockDir, rankLocks, readLiveLocks, removeLock, writeLock, type IdeLock } from "./ideLock.js";
import { scratchDir } from "../../test/support/scratch.js";
import { NO_SUCH_PID } from "../../test/support/processes.js";

const tmp = () => scratchDir("wave-lock-");

function lock(over: Partial<IdeLock> = {}): IdeLock {
  return {
    pid: process.pid,
    url: "http://127.0.0.1:1/mcp",
    token: "t".repeat(64),
    workspaceFolders: ["/work/repo"],
    protocolVersion: "2.0",
    startedAt: "2026-01-01T00:00:00.000Z",
    lockVersion: 1,
    ...over,
  };
}

/** A pid that certainly belongs to no process (see NO_SUCH_PID). */
function deadPid(): number {
  return NO_SUCH_PID;
}

describe("discovery lock files", () => {
  it("lives under WAVE_STATE_DIR (or ~/.wave)/ide", () => {
    expect(lockDir({ WAVE_STATE_DIR: "/x/state" })).toBe("/x/state/ide");
    expect(lockDir({})).toBe(path.join(os.homedir(), ".wave", "ide"));
  });

  it("writes <pid>.json with mode 0600 in a 0700 folder, atomically, with the whole record", () => {
    const dir = path.join(tmp(), "state", "ide");
    const file = writeLock(dir, lock());
    expect(file).toBe(path.join(dir, `${process.pid}.json`));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(lock());
    // Rewriting replaces the file; no temporary file stays behind.
    writeLock(dir, lock({ workspaceFolders: ["/work/repo", "/work/lib"] }));
    expect(readdirSync(dir)).toEqual([`${process.pid}.json`]);
    expect(JSON.parse(readFileSync(file, "utf8")).workspaceFolders).toEqual(["/work/repo", "/work/lib"]);
    removeLock(dir, process.pid);
    expect(existsSync(file)).toBe(false);
  });

  it("tightens an existing folder of ours to 0700", () => {
    const dir = path.join(tmp(), "ide");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    ensureLockDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("readers skip and remove the files of dead processes", () => {
    const dir = path.join(tmp(), "ide");
    const gone = deadPid();
    writeLock(dir, lock());
    writeLock(dir, lock({ pid: gone, url: "http://127.0.0.1:2/mcp" }));
    const scan = readLiveLocks(dir);
    expect(scan.locks.map((l) => l.pid)).toEqual([process.pid]);
    expect(scan.removed).toEqual([path.join(dir, `${gone}.json`)]);
    expect(existsSync(path.join(dir, `${gone}.json`))).toBe(false);
  });

  it("readers ignore junk, and files whose pid does not match their name", () => {
    const dir = path.join(tmp(), "ide");
    ensureLockDir(dir);
    writeFileSync(path.join(dir, `${process.pid}.json`), "{not json", { mode: 0o600 });
    writeFileSync(path.join(dir, "notes.txt"), "hello");
    const scan = readLiveLocks(dir);
    expect(scan.locks).toEqual([]);
    expect(scan.problems.join("\n")).toMatch(/is not a Wave lock file; ignored/);
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(lock({ pid: 1 })), { mode: 0o600 });
    expect(readLiveLocks(dir).locks).toEqual([]);
  });

  it("ignores a lock whose endpoint is not a loopback http URL (it would get the token and the agent's calls)", () => {
    const dir = path.join(tmp(), "ide");
    for (const url of ["http://evil.example:80/mcp", "https://127.0.0.1:1/mcp", "http://10.0.0.2:4000/mcp", "http://user:pw@127.0.0.1:1/mcp", "not a url"]) {
      writeLock(dir, lock({ url }));
      const scan = readLiveLocks(dir);
      expect(scan.locks, url).toEqual([]);
      expect(scan.problems.join("\n"), url).toMatch(/is not a Wave lock file; ignored/);
    }
    writeLock(dir, lock({ url: "http://[::1]:4000/mcp" }));
    expect(readLiveLocks(dir).locks).toHaveLength(1);
  });

  it("does not trust a folder other users can write (an attacker could plant a core there)", () => {
    const dir = path.join(tmp(), "ide");
    writeLock(dir, lock());
    chmodSync(dir, 0o777);
    const scan = readLiveLocks(dir);
    expect(scan.locks).toEqual([]);
    expect(scan.problems[0]).toMatch(/can be written by other users \(mode 777\); lock files there are not trusted/);
  });

  it("does not trust a folder other users can enter or list: it must be 0700", () => {
    const dir = path.join(tmp(), "ide");
    writeLock(dir, lock());
    for (const mode of [0o750, 0o705, 0o711]) {
      chmodSync(dir, mode);
      const scan = readLiveLocks(dir);
      expect(scan.locks, mode.toString(8)).toEqual([]);
      expect(scan.problems[0], mode.toString(8)).toContain(`is open to other users (mode ${mode.toString(8)}, not 700); lock files there are not trusted`);
    }
    chmodSync(dir, 0o700);
    expect(readLiveLocks(dir).locks).toHaveLength(1);
  });

  it("does not trust a lock file other users could have written or can read (ours are always 0600)", () => {
    const dir = path.join(tmp(), "ide");
    const file = writeLock(dir, lock());
    for (const mode of [0o620, 0o602, 0o660, 0o644, 0o640]) {
      chmodSync(file, mode);
      const scan = readLiveLocks(dir);
      expect(scan.locks, mode.toString(8)).toEqual([]);
      expect(scan.problems, mode.toString(8)).toEqual([`${file} is open to other users (mode ${mode.toString(8)}, not 600); ignored.`]);
    }
    chmodSync(file, 0o600);
    expect(readLiveLocks(dir).locks).toHaveLength(1);
  });

  it("does not follow a lock file that is a symbolic link, even to a genuine lock of ours", () => {
    const dir = path.join(tmp(), "ide");
    const elsewhere = writeLock(path.join(tmp(), "ide"), lock());
    ensureLockDir(dir);
    symlinkSync(elsewhere, path.join(dir, `${process.pid}.json`));
    const scan = readLiveLocks(dir);
    expect(scan.locks).toEqual([]);
    expect(scan.problems.join("\n")).toMatch(/is not a regular file; ignored/);
  });

  it.runIf(process.getuid?.() === 0)("does not trust a lock file that belongs to another user", () => {
    const dir = path.join(tmp(), "ide");
    const file = writeLock(dir, lock());
    chownSync(file, 65534, 65534);
    const scan = readLiveLocks(dir);
    expect(scan.locks).toEqual([]);
    expect(scan.problems[0]).toMatch(/belongs to user 65534, not to you; ignored/);
  });

  it("ranks the cores that contain a directory: most specific folder first, then the newest", () => {
    const repo = lock({ pid: 1, workspaceFolders: ["/w/repo"], startedAt: "2026-01-02T00:00:00Z" });
    const service = lock({ pid: 2, workspaceFolders: ["/w/other", "/w/repo/service"], startedAt: "2026-01-01T00:00:00Z" });
    const newerRepo = lock({ pid: 3, workspaceFolders: ["/w/repo"], startedAt: "2026-01-03T00:00:00Z" });
    const elsewhere = lock({ pid: 4, workspaceFolders: ["/w/repo-2"] });
    const ranked = rankLocks([repo, service, newerRepo, elsewhere], "/w/repo/service/src");
    expect(ranked.map((c) => [c.lock.pid, c.folder])).toEqual([
      [2, "/w/repo/service"],
      [3, "/w/repo"],
      [1, "/w/repo"],
    ]);
    expect(rankLocks([repo, elsewhere], "/w/repo-2/x").map((c) => c.lock.pid)).toEqual([4]);
    expect(rankLocks([repo], "/w")).toEqual([]);
  });
});
