// Where a core process keeps its files: `<root>/<pid>-<start time>-<token>/` per process, with
// `<root>` = WAVE_OUTPUT_DIR or `<tmp>/wave-core-<user>`: command output, cwd files, rc files, the
// sandbox's scratch space, and a note of every temporary file it has in flight elsewhere (beside a
// file it writes). Private to the user (0700/0600): output can contain secrets.
//
// Nothing stays behind. The process removes its folder, and the temporary files noted in it, when
// it exits; a process that could not (killed with SIGKILL, a crash of the machine) leaves them to
// the next core's sweep, which removes the folders (and noted files) of every process that is gone.
// A folder's name says which process made it, pid and start time, so a new process that got the
// same pid keeps its own.
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, promises as fsp, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLogger } from "../util/log.js";
import { identityAlive, ownIdentity } from "../util/processIdentity.js";

const log = createLogger("output");

/**
 * Random per core process: run markers, output directory and watchdog all use it. Process-wide on
 * purpose: the watchdog sweeps by it when the process dies. Cores of one process keep apart by
 * session tags and task ids, which are unique in the process.
 */
export const PROCESS_TOKEN = randomBytes(4).toString("hex");

/** The folder of noted temporary files, inside a process folder. */
const PENDING = "pending";

function userTag(): string {
  try {
    return os.userInfo().username.replace(/[^A-Za-z0-9_.-]/g, "_") || String(process.getuid?.() ?? "user");
  } catch {
    return String(process.getuid?.() ?? "user");
  }
}

export function outputRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.WAVE_OUTPUT_DIR ? path.resolve(env.WAVE_OUTPUT_DIR) : path.join(os.tmpdir(), `wave-core-${userTag()}`);
}

// The process's directory (see PROCESS_TOKEN), made once.
let processDir: string | undefined;

/** This core process's output directory (created on first use; removed when the process exits). */
export function processOutputDir(): string {
  if (!processDir) {
    const dir = path.join(outputRoot(), `${ownIdentity()}-${PROCESS_TOKEN}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    processDir = dir;
    process.once("exit", removeProcessOutputDir);
  }
  return processDir;
}

/**
 * Removes this process's folder and the temporary files noted in it (at exit: every core of the
 * process has stopped its process trees by then), and the root when nothing else is left in it.
 */
export function removeProcessOutputDir(): void {
  const dir = processDir;
  if (!dir) return;
  processDir = undefined;
  pendingReady = undefined;
  process.off("exit", removeProcessOutputDir);
  removeNotedFiles(dir, path.basename(dir));
  try {
    rmSync(dir, { recursive: true, force: true });
    rmdirSync(path.dirname(dir));
  } catch {
    // The root holds other processes' folders (ENOTEMPTY), or is gone.
  }
}

/**
 * Writes a small support file (rc files for cwd tracking). Each core writes its own copy of the
 * same content: through a temporary file and a rename, so a shell starting meanwhile reads the
 * old file or the new one, never a half-written one.
 */
export function ensureSupportFile(relative: string, content: string): string {
  const file = path.join(processOutputDir(), relative);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, file);
  return file;
}

/**
 * What this process writes into names of its temporary files elsewhere (`<pid>-<start time>`), so
 * that a sweep can tell them from another process's.
 */
export function temporaryFileTag(): string {
  return ownIdentity();
}

let pendingReady: Promise<string> | undefined;

/**
 * Notes a temporary file this process is about to create outside its folder (beside a file it
 * writes), before it creates it: if the process dies before it removes or renames the file, the
 * next core's sweep does. The file's name must carry temporaryFileTag(). Resolves with the
 * function that forgets the note once the file is gone (renamed or removed).
 */
export async function notePendingFile(file: string): Promise<() => Promise<void>> {
  pendingReady ??= (async () => {
    const dir = path.join(processOutputDir(), PENDING);
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  })();
  const note = path.join(await pendingReady, randomBytes(8).toString("hex"));
  await fsp.writeFile(note, file, { mode: 0o600 });
  return () => fsp.rm(note, { force: true });
}

/** Removes the temporary files a process folder notes, those whose name says that process made them. */
function removeNotedFiles(dir: string, owner: string): void {
  const identity = /^(\d+-\d+)-[0-9a-f]{8}$/.exec(owner)?.[1];
  if (!identity) return;
  let notes: string[];
  try {
    notes = readdirSync(path.join(dir, PENDING));
  } catch {
    return;
  }
  for (const note of notes) {
    try {
      const file = readFileSync(path.join(dir, PENDING, note), "utf8");
      const name = path.basename(file);
      // Only a temporary file of that process's own naming, and only the file itself (never
      // what a symlink there points to): a note is not trusted beyond that.
      if (!path.isAbsolute(file) || !name.includes(`.wave-${identity}-`) || !name.endsWith(".tmp")) continue;
      if (!lstatSync(file).isFile()) continue;
      rmSync(file, { force: true });
      log.debug("removed a temporary file a gone core left", { file });
    } catch {
      // Renamed or removed meanwhile.
    }
  }
}

/** A process folder's name: `<pid>-<start time>-<token>`, or `<pid>-<token>` from before start times. */
function ownerOf(name: string): { pid: number; start: string } | undefined {
  const m = /^(\d+)-(?:(\d+)-)?[0-9a-f]{8}$/.exec(name);
  return m ? { pid: Number(m[1]), start: m[2] ?? "0" } : undefined;
}

/**
 * Removes the output folders of core processes that are gone, and the temporary files they noted.
 * A live process's folder is never touched, nor one made by another process with the same pid.
 */
export async function removeStaleOutput(root = outputRoot()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fsp.readdir(root);
  } catch {
    return removed;
  }
  const own = processDir ? path.basename(processDir) : `${ownIdentity()}-${PROCESS_TOKEN}`;
  for (const name of names) {
    const owner = ownerOf(name);
    if (!owner || name === own || identityAlive(owner.pid, owner.start)) continue;
    const dir = path.join(root, name);
    try {
      removeNotedFiles(dir, name);
      await fsp.rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch (err) {
      log.debug("could not remove a gone core's output directory", { dir, error: err });
    }
  }
  return removed;
}
