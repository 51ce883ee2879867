// Where command output files live: `<root>/<pid>-<token>/` per core process, with `<root>` =
// WAVE_OUTPUT_DIR or `<tmp>/wave-core-<user>`. Files are private to the user (0700/0600) because
// output can contain secrets. Directories of core processes that ended more than
// OUTPUT_RETENTION_MS ago are removed at start-up; a live core's files are never touched.
import { randomBytes } from "node:crypto";
import { mkdirSync, promises as fsp, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLogger } from "../util/log.js";
import { processExists } from "../util/processes.js";

const log = createLogger("output");

/**
 * Random per core process: run markers, output directory and watchdog all use it. Process-wide on
 * purpose: the watchdog sweeps by it when the process dies, and stale-directory clean-up tells a
 * live process's directory by its pid. Cores of one process keep apart by session tags and task
 * ids, which are unique in the process.
 */
export const PROCESS_TOKEN = randomBytes(4).toString("hex");

const OUTPUT_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;

function userTag(): string {
  try {
    return os.userInfo().username.replace(/[^A-Za-z0-9_.-]/g, "_") || String(process.getuid?.() ?? "user");
  } catch {
    return String(process.getuid?.() ?? "user");
  }
}

function outputRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.WAVE_OUTPUT_DIR ? path.resolve(env.WAVE_OUTPUT_DIR) : path.join(os.tmpdir(), `wave-core-${userTag()}`);
}

// The process's directory (see PROCESS_TOKEN), made once.
let processDir: string | undefined;

/** This core process's output directory (created on first use). */
export function processOutputDir(): string {
  if (!processDir) {
    const dir = path.join(outputRoot(), `${process.pid}-${PROCESS_TOKEN}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    processDir = dir;
  }
  return processDir;
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

/** Removes output directories of core processes that are gone and idle for the retention period. */
export async function removeStaleOutput(now = Date.now(), root = outputRoot()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fsp.readdir(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = /^(\d+)-[0-9a-f]{8}$/.exec(name);
    if (!m || name === `${process.pid}-${PROCESS_TOKEN}`) continue;
    const dir = path.join(root, name);
    try {
      const st = await fsp.stat(dir);
      if (now - st.mtimeMs < OUTPUT_RETENTION_MS) continue;
      if (processExists(Number(m[1]))) continue;
      await fsp.rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch (err) {
      log.debug("could not clean an old output directory", { dir, error: err });
    }
  }
  return removed;
}
