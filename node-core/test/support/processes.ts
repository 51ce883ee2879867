// Test helpers that look at real processes: who carries a marker in /proc/<pid>/environ, whether
// a pid is alive (zombies count as dead), and polling without wall-clock assertions.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { scratchDir } from "./scratch.js";
import { listProcPids, readProcEntry } from "../../src/shell/processTable.js";

export interface LiveProcess {
  pid: number;
  command: string;
}

function state(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie. */
export function isAlive(pid: number): boolean {
  const s = state(pid);
  return s !== undefined && s !== "Z" && s !== "X";
}

/** What the loader of a shell started ahead (src/shell/run/5-ahead.ts) names in its argv. */
const WAITING_SHELL_MARK = "__wave_warm_command";

function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replace(/\0/g, " ");
  } catch {
    return undefined;
  }
}

/**
 * The process groups of shells started ahead that still wait for their command: every live member
 * (the loader, and in the sandbox bwrap and its reaper) carries the loader in its argv. Such a
 * group ran nothing. Once its command is given the shell execs it, and the group is a command's.
 * With `markedWith`, only the groups a member of which carries a WAVE_RUN_ID starting with it: the
 * test's own, never another core's on the machine (a developer's IDE, another test file).
 */
export function waitingShellGroups(opts: { markedWith?: string } = {}): Set<number> {
  const members = new Map<number, { marks: boolean[]; ours: boolean }>();
  for (const pid of listProcPids()) {
    // readProcEntry leaves zombies out.
    const pgid = readProcEntry(pid)?.pgid;
    const line = pgid !== undefined ? commandLine(pid) : undefined;
    if (pgid === undefined || line === undefined) continue;
    const group = members.get(pgid) ?? { marks: [], ours: opts.markedWith === undefined };
    group.marks.push(line.includes(WAITING_SHELL_MARK));
    if (
      !group.ours &&
      envValue(pid, "WAVE_RUN_ID")
        ?.split(":")
        .some((id) => id.startsWith(opts.markedWith!))
    )
      group.ours = true;
    members.set(pgid, group);
  }
  return new Set([...members].filter(([, g]) => g.ours && g.marks.every(Boolean)).map(([pgid]) => pgid));
}

function envValue(pid: number, name: string): string | undefined {
  try {
    const kv = readFileSync(`/proc/${pid}/environ`, "latin1")
      .split("\0")
      .find((e) => e.startsWith(name + "="));
    return kv?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

/**
 * Live processes whose environment has a variable `name` whose value contains `needle` (a run
 * marker's prefix, a token), or for which `needle` says yes. Shells started ahead and still
 * waiting for a command are left out (they ran nothing) unless `includeWaiting` is set.
 */
export function processesWithEnv(name: string, needle: string | ((value: string) => boolean), opts: { includeWaiting?: boolean } = {}): LiveProcess[] {
  const matches = typeof needle === "function" ? needle : (value: string) => value.includes(needle);
  const out: Array<LiveProcess & { pgid?: number }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, "latin1");
    } catch {
      continue;
    }
    const hit = environ.split("\0").some((kv) => kv.startsWith(name + "=") && matches(kv.slice(name.length + 1)));
    if (!hit || !isAlive(pid)) continue;
    out.push({ pid, command: commandLine(pid) ?? "?", pgid: readProcEntry(pid)?.pgid });
  }
  // After the scan: a shell started ahead during it is already among the groups.
  const waiting = opts.includeWaiting ? new Set<number>() : waitingShellGroups();
  return out.filter((p) => p.pgid === undefined || !waiting.has(p.pgid)).map(({ pid, command }) => ({ pid, command }));
}

/**
 * A pid no process has, now or later in the test: above the highest pid Linux (2^22) or macOS
 * hands out. A pid of a process that has just exited is no such thing on a busy machine whose
 * pid_max is 32768: another test's process may get it a moment later.
 */
export const NO_SUCH_PID = 4_194_305;

/** The live processes a core started (its WAVE_CORE_PID, exactly: 1234 is not 12345's). */
export function processesOfCore(corePid: number | null | undefined, opts: { includeWaiting?: boolean } = {}): LiveProcess[] {
  return processesWithEnv("WAVE_CORE_PID", (value) => value === String(corePid), opts);
}

/** Polls until `check` returns a truthy value or the budget runs out; returns the last value. */
export async function waitFor<T>(check: () => T | Promise<T>, budgetMs = 10_000, everyMs = 50): Promise<T> {
  const end = Date.now() + budgetMs;
  for (;;) {
    const v = await check();
    if (v || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A fresh temporary directory, removed when the test file ends (scratch.ts). */
export function tempDir(prefix = "wave-test-"): string {
  return scratchDir(prefix);
}

let bwrapWorked: boolean | undefined;

/** Whether bwrap can make a sandbox here (a PID namespace over a read-only root); asked once, by the tests that need one. */
export function bwrapWorks(): boolean {
  if (bwrapWorked === undefined) {
    try {
      execFileSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "true"], { stdio: "ignore" });
      bwrapWorked = true;
    } catch {
      bwrapWorked = false;
    }
  }
  return bwrapWorked;
}
