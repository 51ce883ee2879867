// Discovery of listening cores: each `serve --listen` writes `${WAVE_STATE_DIR:-~/.wave}/ide/<pid>.json`
// with its endpoint, token and workspace folders, so `mcp --attach` can find the core that owns a
// directory without any port or token in the agent's configuration. The folder is 0700 and each
// file 0600 (the token is a credential); files are replaced atomically and removed on exit, and
// readers delete the files of processes that are gone. Readers trust nothing less private: a file
// another user could write would send the agent, and its token-bearing requests, elsewhere. The
// sandbox keeps the user's own shell commands out of the folder (base/stateDir.ts).
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, fsyncSync, lstatSync, mkdirSync, chmodSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync, constants } from "node:fs";
import path from "node:path";
import { LOCK_FOLDER, waveStateDir } from "../base/stateDir.js";
import { isWithin } from "../util/paths.js";
import { processExists } from "../util/processes.js";
import { isLoopbackAddress } from "./mcpHttpGuards.js";

export const LOCK_FORMAT_VERSION = 1;

export interface IdeLock {
  pid: number;
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:53124/mcp. */
  url: string;
  /** The bearer token for `Authorization: Bearer …`. */
  token: string;
  /** Canonical directories this core serves: the workspace root first, then the additional ones. */
  workspaceFolders: string[];
  ideName?: string;
  ideVersion?: string;
  /** The host protocol version of the core. */
  protocolVersion: string;
  startedAt: string;
  lockVersion: number;
}

export function lockDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(waveStateDir(env), LOCK_FOLDER);
}

export class UnsafeLockDir extends Error {
  constructor(
    readonly dir: string,
    reason: string,
  ) {
    super(`${dir} ${reason}; lock files there are not trusted. Remove the folder (or fix its owner and mode to 0700) and restart the IDE's core.`);
    this.name = "UnsafeLockDir";
  }
}

const currentUid = (): number | undefined => (typeof process.getuid === "function" ? process.getuid() : undefined);

/**
 * Throws UnsafeLockDir unless `dir` is a real directory owned by us that nobody else may enter
 * (0700). The writer (`fix`) tightens a folder of ours that is too open; a reader does not trust it.
 */
function checkPrivateDir(dir: string, { fix }: { fix: boolean }): void {
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) throw new UnsafeLockDir(dir, "is a symbolic link");
  if (!st.isDirectory()) throw new UnsafeLockDir(dir, "is not a directory");
  const uid = currentUid();
  if (uid === undefined) return; // Windows: the profile directory's ACL protects it
  if (st.uid !== uid) throw new UnsafeLockDir(dir, `belongs to user ${st.uid}, not to you (${uid})`);
  if ((st.mode & 0o077) !== 0) {
    const mode = (st.mode & 0o777).toString(8);
    if (fix) return void chmodSync(dir, 0o700);
    if ((st.mode & 0o022) !== 0) throw new UnsafeLockDir(dir, `can be written by other users (mode ${mode})`);
    throw new UnsafeLockDir(dir, `is open to other users (mode ${mode}, not 700)`);
  }
}

/** Creates the lock folder (0700) if needed and checks it is ours alone. */
export function ensureLockDir(dir: string): void {
  mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  checkPrivateDir(dir, { fix: true });
}

export function lockPath(dir: string, pid: number): string {
  return path.join(dir, `${pid}.json`);
}

/** Replaces `<pid>.json` atomically: a reader sees the old file or the new one, never a part. */
export function writeLock(dir: string, lock: IdeLock): string {
  ensureLockDir(dir);
  const target = lockPath(dir, lock.pid);
  const tmp = path.join(dir, `.${lock.pid}.json.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeSync(fd, JSON.stringify(lock, null, 2) + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
  return target;
}

export function removeLock(dir: string, pid: number): void {
  try {
    unlinkSync(lockPath(dir, pid));
  } catch {
    // already removed (or never written)
  }
}

function parseLock(text: string): IdeLock | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as Partial<IdeLock> | null;
  if (
    !v ||
    typeof v !== "object" ||
    !Number.isInteger(v.pid) ||
    typeof v.url !== "string" ||
    typeof v.token !== "string" ||
    !Array.isArray(v.workspaceFolders) ||
    !v.workspaceFolders.every((f) => typeof f === "string")
  ) {
    return undefined;
  }
  // A core only ever listens on loopback: a lock naming any other host is not one of ours, and
  // following it would hand the token and the agent's calls to that host.
  if (!isLoopbackUrl(v.url)) return undefined;
  return v as IdeLock;
}

function isLoopbackUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" && isLoopbackAddress(url.hostname) && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

export interface LockScan {
  locks: IdeLock[];
  /** Lock files of processes that are gone, removed during the scan. */
  removed: string[];
  /** Why some files (or the whole folder) were not trusted. */
  problems: string[];
}

/**
 * The lock files of live cores. Files of dead processes are removed; files that are not ours,
 * not regular, or not readable are skipped and named in `problems`.
 */
export function readLiveLocks(dir: string, isAlive: (pid: number) => boolean = processExists): LockScan {
  const scan: LockScan = { locks: [], removed: [], problems: [] };
  let names: string[];
  try {
    checkPrivateDir(dir, { fix: false });
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") scan.problems.push((err as Error).message);
    return scan;
  }
  const uid = currentUid();
  for (const name of names) {
    const file = path.join(dir, name);
    const pidFromName = /^(\d+)\.json$/.exec(name)?.[1];
    if (pidFromName === undefined) {
      // A temp file a writer died before renaming: harmless, but tidy it once it is old.
      if (/^\.\d+\.json\.[0-9a-f]+\.tmp$/.test(name)) removeIfOld(file);
      continue;
    }
    const pid = Number(pidFromName);
    if (!isAlive(pid)) {
      try {
        unlinkSync(file);
        scan.removed.push(file);
      } catch {
        // another reader removed it first
      }
      continue;
    }
    try {
      const lock = readOwnLock(file, pid, uid);
      if (typeof lock === "string") scan.problems.push(lock);
      else scan.locks.push(lock);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") scan.problems.push(`${file}: ${(err as Error).message}`);
    }
  }
  return scan;
}

/**
 * A lock file that only we could have written: a regular file (not followed through a link),
 * ours, 0600 as every writer leaves it, naming its own pid and a loopback endpoint. Checked on the
 * open descriptor, so the file read is the file checked. Otherwise why it is ignored.
 */
function readOwnLock(file: string, pid: number, uid: number | undefined): IdeLock | string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOOP") return `${file} is not a regular file; ignored.`;
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return `${file} is not a regular file; ignored.`;
    if (uid !== undefined) {
      if (st.uid !== uid) return `${file} belongs to user ${st.uid}, not to you; ignored.`;
      if ((st.mode & 0o077) !== 0) return `${file} is open to other users (mode ${(st.mode & 0o777).toString(8)}, not 600); ignored.`;
    }
    const lock = parseLock(readFileSync(fd, "utf8"));
    if (!lock || lock.pid !== pid) return `${file} is not a Wave lock file; ignored.`;
    return lock;
  } finally {
    closeSync(fd);
  }
}

function removeIfOld(file: string): void {
  try {
    if (Date.now() - lstatSync(file).mtimeMs > 60_000) unlinkSync(file);
  } catch {
    // gone already
  }
}

export interface LockChoice {
  lock: IdeLock;
  /** The workspace folder of the lock that contains the directory. */
  folder: string;
}

/**
 * The cores whose workspace folders contain `dir`, best first: the most specific folder wins
 * (a core opened on `repo/service` beats one opened on `repo`), then the most recently started.
 */
export function rankLocks(locks: readonly IdeLock[], dir: string): LockChoice[] {
  const choices: LockChoice[] = [];
  for (const lock of locks) {
    let best: string | undefined;
    for (const folder of lock.workspaceFolders) {
      if (isWithin(dir, folder) && (best === undefined || folder.length > best.length)) best = folder;
    }
    if (best !== undefined) choices.push({ lock, folder: best });
  }
  return choices.sort((a, b) => b.folder.length - a.folder.length || Date.parse(b.lock.startedAt) - Date.parse(a.lock.startedAt));
}
