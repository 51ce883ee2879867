// Stage 8: survivor detection. After the shell exited, which processes it started are still alive
// (`server &`, `setsid …`)? Each strategy below answers on its own, or says it cannot tell
// (undefined) and the next is asked; the first answer is the run's:
//  1. inSandboxNamespace: every process of a bwrap-sandboxed command lives in its pid namespace,
//     below its reaper (pid 1 there), which stays in the shell's process group while anything is
//     left: group gone → none; else the reaper's descendants.
//  2. nothingStartedSince: no pid was handed out since the command could start one → none.
//  3. markedAmongNewPids: the group is empty, so an escaped descendant was born after the shell
//     and carries the run's marker: only the pids handed out since need a look.
//  4. markedTree: the whole tree — the group and every process carrying the marker (killTree's
//     collectTree); always answers.
// The answer is then settled (settleCommandLines): a child caught between fork and exec shows the
// shell's own command line, or none, for a moment.
import { statSync } from "node:fs";
import type { Platform } from "../../util/platform.js";
import { collectTree } from "../killTree.js";
import {
  isNamespaceInit,
  lastAllocatedPid,
  linuxProcessTable,
  listProcPids,
  procArguments,
  procCommandLine,
  procDescendants,
  procHasMarker,
  processTableFor,
  readProcEntry,
  type ProcessTable,
} from "../processTable.js";
import { unwatchGroup } from "../watchdog.js";
import type { Survivor } from "./1-request.js";

/** What a survivor scan knows of its run. */
export interface SurvivorScan {
  /** The shell's pid, which leads the run's process group. */
  pid: number;
  /** The marker (WAVE_RUN_ID) every process of the run carries. */
  runId: string;
  /** Names the run in logs. */
  label: string;
  /** It runs behind bwrap (a wrapper and its namespace's reaper stand between the core and the shell). */
  sandboxed: boolean;
  /** The reaper of its pid namespace (bwrap's report), when known. */
  reaper: () => number | undefined;
  /** The last pid handed out before the command could start anything. */
  pidFloor: number;
  /** How long the run has existed. */
  durationMs: number;
  /** The shell's own command line (what a child shows between fork and exec). */
  shellLine: string;
  platform: Platform;
}

/** Pids (the run's own shell excluded) still alive, or undefined when the strategy cannot tell. */
export type SurvivorStrategy = (scan: SurvivorScan, table: ProcessTable) => Promise<number[] | undefined> | number[] | undefined;

/** Survivor scans may look only at pids handed out after the shell's while the pid space cannot have wrapped. */
export const RECENT_PID_SCAN_MAX_MS = 10_000;

/** How long a survivor caught in the middle of exec (a name, no command line yet) may take to settle. */
const MID_EXEC_WAIT_MS = 1000;

/** How long a child still showing the shell's command line may take to exec (a subshell that never does keeps it). */
const SHELL_LINE_WAIT_MS = 50;

const recent = (scan: SurvivorScan, table: ProcessTable) => table === linuxProcessTable && scan.durationMs < RECENT_PID_SCAN_MAX_MS;

export const inSandboxNamespace: SurvivorStrategy = (scan, table) => {
  if (!scan.sandboxed || table !== linuxProcessTable) return undefined;
  if (!groupExists(scan.pid)) return [];
  const init = scan.reaper();
  if (init === undefined) return undefined;
  return readProcEntry(init) === undefined ? [] : procDescendants(init);
};

export const nothingStartedSince: SurvivorStrategy = (scan, table) => {
  if (!recent(scan, table)) return undefined;
  return lastAllocatedPid() === scan.pidFloor ? [] : undefined;
};

export const markedAmongNewPids: SurvivorStrategy = (scan, table) => {
  if (!recent(scan, table) || groupExists(scan.pid)) return undefined;
  const last = lastAllocatedPid();
  if (last === undefined) return undefined;
  const floor = scan.pidFloor;
  const born = (p: number) => (last >= floor ? p > floor && p <= last : p > floor || p <= last);
  // Usually only a handful of pids were handed out meanwhile: probe them directly.
  const candidates = last >= floor && last - floor <= 256 ? range(floor + 1, last) : listProcPids().filter(born);
  return candidates.filter((p) => p !== process.pid && mayCarryOurMarker(p) && readProcEntry(p) !== undefined && procHasMarker(p, { runId: scan.runId }));
};

export const markedTree: SurvivorStrategy = async (scan, table) => (await collectTree({ pid: scan.pid, marker: { runId: scan.runId }, label: scan.label }, table)).map((p) => p.pid);

/** The strategies in the order they are asked. */
export const SURVIVOR_STRATEGIES: readonly SurvivorStrategy[] = [inSandboxNamespace, nothingStartedSince, markedAmongNewPids, markedTree];

/** Descendants still alive after the shell exited (pid and command line). */
export async function findSurvivors(scan: SurvivorScan, strategies: readonly SurvivorStrategy[] = SURVIVOR_STRATEGIES): Promise<Survivor[]> {
  if (scan.platform.name === "win32") return [];
  const table = processTableFor(scan.platform);
  if (!table) return [];
  let pids: number[] | undefined;
  for (const strategy of strategies) if ((pids = await strategy(scan, table)) !== undefined) break;
  pids ??= [];
  // A sandbox's namespace init (bwrap's reaper) lives exactly as long as the processes it holds: part of the tree, never a survivor.
  if (scan.sandboxed) {
    const init = scan.reaper();
    pids = pids.filter((p) => p !== init && !isNamespaceInit(p));
  }
  if (pids.length === 0) unwatchGroup(scan.pid);
  const survivors = pids.map((p) => ({ pid: p, command: table.commandLine(p) }));
  if (table !== linuxProcessTable) return survivors;
  await settleCommandLines(survivors, scan.shellLine);
  // A process that ended while we looked is no survivor.
  return survivors.filter((s) => readProcEntry(s.pid) !== undefined);
}

/**
 * A child the shell forked just before exiting may not have exec'd its program yet: it still shows
 * the shell's own command line (50 ms to change it: a subshell that never execs keeps that line,
 * which is then the truth) — or, caught in the middle of exec, a name but no command line (up to a
 * second, however loaded the machine: it is about to settle). Updates `survivors` in place.
 */
export async function settleCommandLines(survivors: Survivor[], shellLine: string): Promise<void> {
  const since = Date.now();
  const midExec = (s: Survivor) => procArguments(s.pid) === undefined && readProcEntry(s.pid) !== undefined;
  const unsettled = (s: Survivor) => s.command === shellLine || midExec(s);
  for (;;) {
    const waited = Date.now() - since;
    const waiting = survivors.filter(unsettled);
    if (!waiting.some((s) => (s.command === shellLine ? waited < SHELL_LINE_WAIT_MS : waited < MID_EXEC_WAIT_MS))) break;
    await delay(10);
    for (const s of waiting) s.command = procCommandLine(s.pid);
  }
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let p = from; p <= to; p++) out.push(p);
  return out;
}

/**
 * Whether a pid is a live process whose environment we could read: a stat, never an exception,
 * for the many pids of other programs a busy machine hands out meanwhile. Another user's
 * process cannot show us its environment (unless we are root), so it cannot be found by marker.
 */
function mayCarryOurMarker(pid: number): boolean {
  let st;
  try {
    st = statSync(`/proc/${pid}`, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (!st) return false;
  const uid = process.getuid?.();
  return uid === undefined || uid === 0 || st.uid === uid;
}

/** Whether a process group has members. */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());
