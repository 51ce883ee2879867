// Stops a command's whole process tree (BASH-KILL). POSIX: SIGTERM to the process group and to
// every descendant that left it, SIGKILL one second later to whatever is left. Windows:
// `taskkill /PID <pid> /T /F`, once. A target that is already gone is not an error; a failure is
// logged at error level and falls back to killing the direct child. Never throws.
import { createLogger, type Logger } from "../util/log.js";
import { decodeConsoleOutput, parseChcp } from "./consoleText.js";
import { hostPlatform, type Platform } from "../util/platform.js";
import { isNamespaceInit, processTableFor, type MarkerQuery, type ProcInfo, type ProcessTable } from "./processTable.js";

const KILL_GRACE_MS = 1000;
const POLL_MS = 40;
/** SIGKILL cannot be ignored: the tree is gone within milliseconds. */
const KILL_POLL_MS = 10;
/** After SIGKILL, how long to keep re-killing newly found members before giving up (and logging). */
const KILL_PHASE_MS = 2000;

export interface TreeRoot {
  /** The shell's pid: the leader of its own process group on POSIX. Undefined if it never started. */
  pid: number | undefined;
  /** Processes whose environment carries this marker belong to the tree too (Linux). */
  marker?: MarkerQuery;
  /** Who this is, for logs: the command and its run id. */
  label: string;
  /** Last resort when signalling the tree fails: kill the direct child through its handle. */
  killDirectChild?: (signal: NodeJS.Signals) => void;
  /**
   * The root is a sandbox (bwrap) around the shell: SIGTERM goes to the command's processes only,
   * so the wrapper exits when the shell does and reports how it ended; SIGKILL takes the wrapper
   * and the namespace's first process too, which ends every process in the namespace at once.
   */
  sandboxed?: boolean;
}

export interface KillDeps {
  platform: Platform;
  table: ProcessTable | undefined;
  /** process.kill; a negative target addresses a process group. */
  sendSignal: (target: number, signal: NodeJS.Signals) => void;
  graceMs: number;
  log: Logger;
  /** The console code page on Windows (for taskkill's messages); looked up with chcp when absent. */
  codePage?: number;
}

export interface KillReport {
  /** Processes that received a signal (POSIX) or were handed to taskkill (Windows). */
  signalled: number;
  /** True when SIGKILL was needed. */
  forced: boolean;
  /** Still alive after everything (only after an error). */
  remaining: number[];
}

const defaultLog = createLogger("kill");

function defaults(overrides: Partial<KillDeps>): KillDeps {
  const platform = overrides.platform ?? hostPlatform();
  return {
    platform,
    table: "table" in overrides ? overrides.table : processTableFor(platform),
    sendSignal: overrides.sendSignal ?? ((target, signal) => process.kill(target, signal)),
    graceMs: overrides.graceMs ?? KILL_GRACE_MS,
    log: overrides.log ?? defaultLog,
    codePage: overrides.codePage,
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Every live process of the tree: the root, its group, marker carriers, and their descendants. */
export async function collectTree(root: TreeRoot, table: ProcessTable): Promise<ProcInfo[]> {
  const procs = await table.list();
  const members = new Map<number, ProcInfo>();
  const add = (p: ProcInfo) => {
    if (p.pid !== process.pid && p.pid > 1) members.set(p.pid, p);
  };
  if (root.pid !== undefined) for (const p of procs) if (p.pid === root.pid || p.pgid === root.pid) add(p);
  if (root.marker && table.readsMarkers) {
    for (const p of procs) if (!members.has(p.pid) && table.hasMarker(p.pid, root.marker)) add(p);
  }
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const queue = [...members.keys()];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (!members.has(child.pid)) {
        add(child);
        queue.push(child.pid);
      }
    }
  }
  return [...members.values()];
}

export async function killTree(root: TreeRoot, overrides: Partial<KillDeps> = {}): Promise<KillReport> {
  const deps = defaults(overrides);
  try {
    return deps.platform.name === "win32" ? await killTreeWindows(root, deps) : await killTreePosix(root, deps);
  } catch (err) {
    deps.log.error("stopping a process tree failed", { target: root.label, pid: root.pid, error: err });
    fallbackKill(root, deps);
    return { signalled: 0, forced: false, remaining: [] };
  }
}

function fallbackKill(root: TreeRoot, deps: KillDeps): void {
  if (!root.killDirectChild) return;
  try {
    root.killDirectChild("SIGKILL");
    deps.log.debug("killed the direct child as a fallback", { target: root.label, pid: root.pid });
  } catch (err) {
    deps.log.error("the fallback kill of the direct child failed too", { target: root.label, pid: root.pid, error: err });
  }
}

async function killTreePosix(root: TreeRoot, deps: KillDeps): Promise<KillReport> {
  const table = deps.table;
  let signalled = 0;
  let failed = false;
  /** Targets that refused a signal (EPERM, ...): retrying them only repeats the error. */
  const refused = new Set<number>();

  const signal = (target: number, sig: NodeJS.Signals): boolean => {
    if (refused.has(target)) return false;
    try {
      deps.sendSignal(target, sig);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ESRCH") {
        deps.log.debug("process already gone", { target: root.label, pid: target, signal: sig });
        return false;
      }
      failed = true;
      refused.add(target);
      deps.log.error("could not signal a process of the tree", { target: root.label, pid: target, signal: sig, code, error: err });
      return false;
    }
  };

  const signalAll = (members: ProcInfo[], sig: NodeJS.Signals) => {
    if (root.sandboxed && sig === "SIGTERM") {
      for (const p of members) if (p.pid !== root.pid && !isNamespaceInit(p.pid) && signal(p.pid, sig)) signalled++;
      return;
    }
    const groupAlive = root.pid !== undefined && members.some((p) => p.pgid === root.pid);
    if (groupAlive) signal(-root.pid!, sig);
    for (const p of members) {
      if (groupAlive && p.pgid === root.pid) continue;
      if (signal(p.pid, sig)) signalled++;
    }
    if (groupAlive) signalled += members.filter((p) => p.pgid === root.pid).length;
  };

  if (!table) {
    // No process table (unknown system): the group is all we can address.
    if (root.pid === undefined) return { signalled: 0, forced: false, remaining: [] };
    if (signal(-root.pid, "SIGTERM")) signalled++;
    await sleep(deps.graceMs);
    signal(-root.pid, "SIGKILL");
    if (failed) fallbackKill(root, deps);
    return { signalled, forced: true, remaining: [] };
  }

  let members = await collectTree(root, table);
  if (members.length === 0) {
    deps.log.debug("nothing left to stop", { target: root.label, pid: root.pid });
    return { signalled: 0, forced: false, remaining: [] };
  }
  signalAll(members, "SIGTERM");
  const graceEnd = Date.now() + deps.graceMs;
  // Most trees die at once on SIGTERM: look again soon, then less often.
  let poll = 5;
  while (Date.now() < graceEnd) {
    await sleep(Math.min(poll, Math.max(1, graceEnd - Date.now())));
    poll = Math.min(POLL_MS, poll * 2);
    members = await collectTree(root, table);
    if (members.length === 0) {
      if (failed) fallbackKill(root, deps);
      return { signalled, forced: false, remaining: [] };
    }
  }
  const killEnd = Date.now() + KILL_PHASE_MS;
  for (;;) {
    signalAll(members, "SIGKILL");
    await sleep(KILL_POLL_MS);
    members = await collectTree(root, table);
    const reachable = members.some((p) => !refused.has(p.pid) && !(p.pgid === root.pid && refused.has(-root.pid!)));
    if (members.length === 0 || !reachable || Date.now() > killEnd) break;
  }
  if (failed) fallbackKill(root, deps);
  if (members.length > 0) {
    deps.log.error("processes of the tree survived SIGKILL", {
      target: root.label,
      pids: members.map((p) => p.pid),
      names: members.map((p) => p.name),
    });
  }
  return { signalled, forced: true, remaining: members.map((p) => p.pid) };
}

// The console code page is the machine's, the same for every core: asked once per process.
let cachedCodePage: Promise<number | undefined> | undefined;

async function consoleCodePage(deps: KillDeps): Promise<number | undefined> {
  if (deps.codePage !== undefined) return deps.codePage;
  cachedCodePage ??= deps.platform.exec("chcp.com", [], { timeoutMs: 3000 }).then((r) => parseChcp(r.stdout.toString("latin1")));
  return cachedCodePage;
}

/** Exit status with which taskkill reports that no such process exists. */
export const TASKKILL_NOT_FOUND = 128;

async function killTreeWindows(root: TreeRoot, deps: KillDeps): Promise<KillReport> {
  if (root.pid === undefined) return { signalled: 0, forced: false, remaining: [] };
  // Console processes have no message loop, so a gentle taskkill only posts WM_CLOSE that bash.exe
  // ignores: one forceful kill of the tree is the only stage (BASH-KILL-3).
  const r = await deps.platform.exec("taskkill", ["/PID", String(root.pid), "/T", "/F"], { timeoutMs: 15_000 });
  if (r.error) {
    deps.log.error("taskkill could not run", { target: root.label, pid: root.pid, error: r.error });
    fallbackKill(root, deps);
    return { signalled: 0, forced: true, remaining: [] };
  }
  if (r.exitCode === 0) return { signalled: 1, forced: true, remaining: [] };
  const codePage = await consoleCodePage(deps);
  const output = (await decodeConsoleOutput(Buffer.concat([r.stdout, r.stderr]), codePage)).trim();
  if (r.exitCode === TASKKILL_NOT_FOUND) {
    deps.log.debug("taskkill: the process no longer exists", { target: root.label, pid: root.pid, output });
    return { signalled: 0, forced: true, remaining: [] };
  }
  deps.log.error("taskkill failed", { target: root.label, pid: root.pid, exitCode: r.exitCode, output });
  fallbackKill(root, deps);
  return { signalled: 0, forced: true, remaining: [] };
}
