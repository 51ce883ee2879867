// A snapshot of the processes on the machine, to find every process a command started: those in
// its process group, its descendants by parent link, and (Linux) every process whose environment
// carries the command's WAVE_RUN_ID marker — which also finds children that called setsid() or
// were re-parented after their parent exited.
import { existsSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { hostPlatform, type Platform } from "../util/platform.js";

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** One-letter state; zombies (`Z`) and dead (`X`) processes are never listed. */
  state: string;
  /** The short name (`comm`). */
  name: string;
}

/** Which processes carry a run marker: one run exactly, or every run whose id starts with a prefix. */
export type MarkerQuery = { runId: string } | { prefix: string };

export const RUN_MARKER_VAR = "WAVE_RUN_ID";
export const CORE_PID_VAR = "WAVE_CORE_PID";

export interface ProcessTable {
  /** True when markers can be read (Linux /proc). */
  readonly readsMarkers: boolean;
  /** Live processes (zombies excluded). */
  list(): Promise<ProcInfo[]>;
  /** Whether the process's environment carries a matching marker. */
  hasMarker(pid: number, query: MarkerQuery): boolean;
  /** The full command line, for reports. */
  commandLine(pid: number): string;
}

/**
 * Whether a WAVE_RUN_ID value matches. The value lists the run's own id first, then the ids it
 * inherited (a wave core started from a Bash command tags its children with both).
 */
export function markerMatches(value: string, query: MarkerQuery): boolean {
  for (const id of value.split(":")) {
    if ("runId" in query ? id === query.runId : id.startsWith(query.prefix)) return true;
  }
  return false;
}

const MARKER_KEY = Buffer.from(RUN_MARKER_VAR + "=");

/** The WAVE_RUN_ID value in a NUL-separated environment block, if any. */
export function markerValue(environ: Buffer): string | undefined {
  let at = 0;
  while (at < environ.length) {
    const end = environ.indexOf(0, at);
    const stop = end === -1 ? environ.length : end;
    if (stop - at > MARKER_KEY.length && environ.compare(MARKER_KEY, 0, MARKER_KEY.length, at, at + MARKER_KEY.length) === 0) {
      return environ.toString("latin1", at + MARKER_KEY.length, stop);
    }
    at = stop + 1;
  }
  return undefined;
}

/** Parses `/proc/<pid>/stat`; the name may contain spaces and parentheses, so split at the last `)`. */
export function parseProcStat(text: string): ProcInfo | undefined {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const rest = text.slice(close + 2).split(" ");
  const state = rest[0] ?? "?";
  const ppid = Number(rest[1]);
  const pgid = Number(rest[2]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isInteger(pgid)) return undefined;
  return { pid, ppid, pgid, state, name: text.slice(open + 1, close) };
}

function isGone(state: string): boolean {
  return state === "Z" || state === "X" || state === "x";
}

export function readProcEntry(pid: number): ProcInfo | undefined {
  try {
    const info = parseProcStat(readFileSync(`/proc/${pid}/stat`, "latin1"));
    return info && !isGone(info.state) ? info : undefined;
  } catch {
    return undefined;
  }
}

export function listProcPids(): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) out.push(Number(name));
  }
  return out;
}

// Kept open: every command's survivor check reads it, and one pread costs less than open, read
// and close. The kernel produces the file's text afresh at each read from offset 0.
let lastPidFd: number | undefined;
const lastPidText = Buffer.alloc(32);

/** The last pid the kernel handed out (Linux), to scan only processes born after a given one. */
export function lastAllocatedPid(): number | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      lastPidFd ??= openSync("/proc/sys/kernel/ns_last_pid", "r");
      const length = readSync(lastPidFd, lastPidText, 0, lastPidText.length, 0);
      const n = Number(lastPidText.toString("latin1", 0, length).trim());
      return Number.isInteger(n) && n > 0 ? n : undefined;
    } catch {
      // A descriptor closed behind our back: open it again once.
      lastPidFd = undefined;
    }
  }
  return undefined;
}

export function procHasMarker(pid: number, query: MarkerQuery): boolean {
  try {
    const value = markerValue(readFileSync(`/proc/${pid}/environ`));
    return value !== undefined && markerMatches(value, query);
  } catch {
    return false;
  }
}

/**
 * Whether the process is the first process of a PID namespace below ours (`NSpid: <ours> … 1`):
 * a sandbox's reaper, which lives exactly as long as the processes it holds.
 */
export function isNamespaceInit(pid: number): boolean {
  try {
    const line = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1];
    const ids = line?.trim().split(/\s+/) ?? [];
    return ids.length > 1 && ids[ids.length - 1] === "1";
  } catch {
    return false;
  }
}

/**
 * Every live descendant of `pid` (not `pid` itself), found through `/proc/<pid>/task/<tid>/children`
 * of each thread; undefined when the kernel does not offer those files.
 */
export function procDescendants(pid: number): number[] | undefined {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.pop()!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      let text: string;
      try {
        text = readFileSync(`/proc/${p}/task/${tid}/children`, "latin1");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT" && existsSync(`/proc/${p}/task/${tid}`)) return undefined;
        continue;
      }
      for (const c of text.split(" ")) {
        const child = Number(c);
        if (c && Number.isInteger(child) && !out.includes(child)) {
          out.push(child);
          queue.push(child);
        }
      }
    }
  }
  return out.filter((p) => readProcEntry(p) !== undefined);
}

/**
 * The full command line, or undefined while the kernel shows none: a process in the middle of
 * exec (its new name is set before its arguments are), a zombie, a kernel thread.
 */
export function procArguments(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`).toString("utf8").replace(/\0+$/, "").replace(/\0/g, " ");
    if (text) return text.length > 300 ? text.slice(0, 300) + "…" : text;
  } catch {
    // gone, or not ours to read
  }
  return undefined;
}

export function procCommandLine(pid: number): string {
  return procArguments(pid) ?? readProcEntry(pid)?.name ?? "?";
}

export const linuxProcessTable: ProcessTable = {
  readsMarkers: true,
  async list() {
    const out: ProcInfo[] = [];
    for (const pid of listProcPids()) {
      const info = readProcEntry(pid);
      if (info) out.push(info);
    }
    return out;
  },
  hasMarker: procHasMarker,
  commandLine: procCommandLine,
};

/**
 * Parses `ps -axo pid=,ppid=,pgid=,stat=,command=` (macOS and other systems without /proc).
 * Environments are not readable there, so only groups and parent links are followed.
 */
export function parsePsOutput(text: string): Array<ProcInfo & { command: string }> {
  const out: Array<ProcInfo & { command: string }> = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!m) continue;
    const state = m[4]!.charAt(0);
    if (isGone(state)) continue;
    const command = m[5]!.trim();
    out.push({
      pid: Number(m[1]),
      ppid: Number(m[2]),
      pgid: Number(m[3]),
      state,
      name: command.split(" ")[0]?.split("/").pop() ?? "?",
      command,
    });
  }
  return out;
}

export function psProcessTable(platform: Platform): ProcessTable {
  let commands = new Map<number, string>();
  return {
    readsMarkers: false,
    async list() {
      const r = await platform.exec("ps", ["-axo", "pid=,ppid=,pgid=,stat=,command="], { timeoutMs: 5000 });
      const rows = parsePsOutput(r.stdout.toString("utf8"));
      commands = new Map(rows.map((p) => [p.pid, p.command]));
      return rows.map(({ command: _c, ...info }) => info);
    },
    hasMarker: () => false,
    commandLine: (pid) => commands.get(pid) ?? "?",
  };
}

// Whether this machine has a /proc to read: asked once (every command's survivor check needs it).
let hasProc: boolean | undefined;

/** The table for a platform; undefined on Windows (taskkill walks the tree itself). */
export function processTableFor(platform: Platform = hostPlatform()): ProcessTable | undefined {
  if (platform.name === "win32") return undefined;
  if (platform.name === "linux" && (hasProc ??= existsSync("/proc/self/stat"))) return linuxProcessTable;
  return psProcessTable(platform);
}
