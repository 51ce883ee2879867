// The probe's process boundary: start the login shell in its own session with stdin on /dev/null,
// collect stdout (bounded), and never let the core wait past its deadline. Everything about what
// to run and how to read the output lives elsewhere, so tests can swap this one function.
//
// How a probe ends matters beyond the core: a profile's tools take locks and release them in EXIT
// traps, and pyenv's rehash creates its lock about a millisecond before it installs that trap. A
// signal in that millisecond leaves the lock, and from then on every login shell of the user
// waits 60 s for it. So nothing of a probe is ever signalled while it may be doing such work:
// - stopping a probe (its timeout, the core's shutdown) kills only the login shell itself, so no
//   more of the profile starts; what it had started runs on to its end;
// - the profile writes into an unlinked file, never a pipe, so nothing it prints after the core
//   stopped reading (or exited) fails or raises SIGPIPE;
// - processes of the probe still running when its shell is gone get LINGER_MS to finish by
//   themselves. Only then are they taken for hung: SIGTERM (their EXIT traps run), SIGKILL
//   TERM_GRACE_MS later. A small reaper process does this, so it happens the same whether the
//   core goes on or exits at once.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PlatformName } from "../util/platform.js";
import { createLogger } from "../util/log.js";

const log = createLogger("env");

export interface ProbeRunRequest {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
  /** How long the processes of a finished or stopped probe may run on by themselves (tests). */
  lingerMs?: number;
  /** After that, how long SIGTERM has before SIGKILL (tests). */
  termGraceMs?: number;
}

export interface ProbeRunResult {
  stdout: Buffer;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** The shell could not be started at all (ENOENT, EACCES, ...): the error's code and message. */
  spawnError?: string;
  /** stdout passed MAX_PROBE_OUTPUT_BYTES; the shell was stopped. */
  outputOverflow: boolean;
}

export type ProbeRunner = (request: ProbeRunRequest) => Promise<ProbeRunResult>;

/** Far above any real environment (typically a few kB); a profile that prints more is broken. */
export const MAX_PROBE_OUTPUT_BYTES = 16 * 1024 * 1024;
/**
 * How long a stopped shell may take to be reaped, and (Windows) how long its output may still
 * take to arrive after it exits. Part of the probe's budget (see probe.ts).
 */
export const DRAIN_GRACE_MS = 100;
/**
 * How long what a probe started may run on after its shell is gone before it counts as hung.
 * Long, because nothing waits for it and a tool cut short can leave its lock: pyenv's rehash
 * takes well under a second, and gives up on a held lock only after 60 s.
 */
export const LINGER_MS = 30_000;
/** After LINGER_MS, how long SIGTERM (EXIT traps run) has before SIGKILL. */
export const TERM_GRACE_MS = 2000;
/** How often the size of the output file is looked at (a profile that prints without end). */
const OUTPUT_CHECK_MS = 100;

/**
 * The reaper for what a probe left running (POSIX sh). `$1` = the probe's process group, `$2` and
 * `$3` = the linger and the TERM grace in tenths of a second. The group's number cannot be taken
 * by another process while any member is alive, so each signal is sent only after a check.
 */
export const PROBE_REAPER_SCRIPT = `g=$1
alive() { kill -s 0 -- "-$g" 2>/dev/null; }
wait_up_to() { n=0; while alive && [ "$n" -lt "$1" ]; do sleep 0.1; n=$((n + 1)); done; }
wait_up_to "$2"
alive || exit 0
kill -s TERM -- "-$g" 2>/dev/null
wait_up_to "$3"
alive && kill -s KILL -- "-$g" 2>/dev/null
exit 0
`;

/** Whether any process of the group `pgid` is left (a zombie not yet reaped counts). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Probe groups handed to a reaper, and the reapers, while they run: a host that kills what its
 * core left must leave these alone (PROTOCOL.md `processes/leftRunning`).
 */
const leftRunning = new Map<number, number | undefined>();

/** The probe groups (their leaders' pids) and reapers still running, for the host. */
export function probeProcessesLeftRunning(): number[] {
  const pids: number[] = [];
  for (const [pgid, reaper] of leftRunning) {
    if (!groupAlive(pgid) && reaper === undefined) {
      leftRunning.delete(pgid);
      continue;
    }
    pids.push(pgid, ...(reaper !== undefined ? [reaper] : []));
  }
  return pids;
}

/**
 * Hands the probe's group to a reaper if anything of it still runs. The reaper is its own session
 * and holds nothing of the core's, so the core may exit at once.
 */
export function reapLater(pgid: number, lingerMs = LINGER_MS, termGraceMs = TERM_GRACE_MS): ChildProcess | undefined {
  if (!groupAlive(pgid)) return undefined;
  leftRunning.set(pgid, undefined);
  const tenths = (ms: number) => String(Math.max(0, Math.ceil(ms / 100)));
  try {
    const reaper = spawn("/bin/sh", ["-c", PROBE_REAPER_SCRIPT, "wave-probe-reaper", String(pgid), tenths(lingerMs), tenths(termGraceMs)], {
      stdio: "ignore",
      detached: true,
      cwd: "/",
      env: { PATH: "/usr/bin:/bin:/usr/sbin:/sbin", LC_ALL: "C" },
    });
    reaper.on("error", (err) => log.warn("the login-environment probe's leftover processes cannot be watched; they run until they end", { error: err }));
    if (reaper.pid !== undefined) leftRunning.set(pgid, reaper.pid);
    reaper.once("exit", () => leftRunning.delete(pgid));
    reaper.unref();
    return reaper;
  } catch (err) {
    log.warn("the login-environment probe's leftover processes cannot be watched; they run until they end", { error: err });
    return undefined;
  }
}

/** Windows: the probe's tree goes at once (`taskkill /T /F`); there is no TERM to give it. */
export function killProbeTree(pid: number): void {
  spawnSync("taskkill", ["/PID", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true, timeout: 2000 });
}

export function createProbeRunner(platform: PlatformName = process.platform as PlatformName): ProbeRunner {
  return (request) => (platform === "win32" ? runWindowsProbe(request) : runPosixProbe(request));
}

function abortedBeforeStart(): ProbeRunResult {
  return { stdout: Buffer.alloc(0), exitCode: null, signal: null, timedOut: false, aborted: true, outputOverflow: false };
}

/** A private file in the temp directory, already unlinked: only our descriptor and the shell's name it. */
function openOutputFile(): number {
  const file = path.join(tmpdir(), `wave-probe-${process.pid}-${randomBytes(6).toString("hex")}.out`);
  const fd = openSync(file, "wx+", 0o600);
  try {
    unlinkSync(file);
  } catch {
    // Removed by someone else already: the descriptor is all we need.
  }
  return fd;
}

function readOutput(fd: number): Buffer {
  const size = Math.min(fstatSync(fd).size, MAX_PROBE_OUTPUT_BYTES);
  const out = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const n = readSync(fd, out, read, size - read, read);
    if (n === 0) break;
    read += n;
  }
  return out.subarray(0, read);
}

function runPosixProbe(request: ProbeRunRequest): Promise<ProbeRunResult> {
  return new Promise((resolve) => {
    if (request.signal?.aborted) return resolve(abortedBeforeStart());
    let fd: number;
    try {
      fd = openOutputFile();
    } catch (err) {
      return resolve(failedToStart(err, "the probe's output file could not be created"));
    }
    let child: ChildProcess;
    try {
      child = spawn(request.file, request.args, {
        env: request.env,
        cwd: request.cwd,
        stdio: ["ignore", fd, "ignore"],
        // Its own session: no controlling terminal to read a password from, and one group that
        // holds everything the profile starts.
        detached: true,
      });
    } catch (err) {
      closeSync(fd);
      return resolve(failedToStart(err));
    }
    let timedOut = false;
    let aborted = false;
    let outputOverflow = false;
    let stopped = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const finish = (exit: { code: number | null; signal: string | null }, spawnError?: string) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      request.signal?.removeEventListener("abort", onAbort);
      let stdout: Buffer = Buffer.alloc(0);
      try {
        stdout = readOutput(fd);
      } finally {
        closeSync(fd);
      }
      // The profile's background jobs, or what a stopped shell had started, finish by themselves.
      if (child.pid !== undefined) reapLater(child.pid, request.lingerMs, request.termGraceMs);
      resolve({ stdout, exitCode: exit.code, signal: exit.signal, timedOut, aborted, outputOverflow, ...(spawnError ? { spawnError } : {}) });
    };

    /** Kills the login shell alone (it runs no more of the profile); its children run on. */
    const stop = () => {
      if (stopped || settled || child.pid === undefined) return;
      stopped = true;
      try {
        process.kill(child.pid, "SIGKILL");
      } catch {
        // ESRCH: it has exited; its exit event comes.
      }
      timers.push(setTimeout(() => finish({ code: null, signal: "SIGKILL" }), DRAIN_GRACE_MS));
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, request.timeoutMs),
    );
    // Cleared with the other timers (clearTimeout clears an interval too).
    timers.push(
      setInterval(() => {
        if (fstatSync(fd).size <= MAX_PROBE_OUTPUT_BYTES) return;
        outputOverflow = true;
        stop();
      }, OUTPUT_CHECK_MS),
    );

    child.on("error", (err) => {
      // A shell that never started has no pid. A running one reports through exit.
      if (child.pid === undefined) finish({ code: null, signal: null }, describeSpawnError(err));
    });
    child.once("exit", (code, sig) => finish({ code, signal: sig }));
  });
}

function runWindowsProbe(request: ProbeRunRequest): Promise<ProbeRunResult> {
  return new Promise((resolve) => {
    if (request.signal?.aborted) return resolve(abortedBeforeStart());
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let aborted = false;
    let outputOverflow = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let settled = false;
    let killed = false;
    const timers: NodeJS.Timeout[] = [];
    let child: ChildProcess;
    try {
      child = spawn(request.file, request.args, { env: request.env, cwd: request.cwd, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    } catch (err) {
      return resolve(failedToStart(err));
    }
    const finish = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      child.stdout?.destroy();
      child.stderr?.destroy();
      request.signal?.removeEventListener("abort", onAbort);
      resolve({ stdout: Buffer.concat(chunks), exitCode, signal: exitSignal, timedOut, aborted, outputOverflow, ...(spawnError ? { spawnError } : {}) });
    };
    const kill = () => {
      if (killed || child.pid === undefined) return;
      killed = true;
      killProbeTree(child.pid);
      timers.push(setTimeout(() => finish(), DRAIN_GRACE_MS));
    };
    const onAbort = () => {
      aborted = true;
      kill();
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        timedOut = true;
        kill();
      }, request.timeoutMs),
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      if (outputOverflow) return;
      size += chunk.length;
      if (size > MAX_PROBE_OUTPUT_BYTES) {
        outputOverflow = true;
        kill();
        return;
      }
      chunks.push(chunk);
    });
    // The profile's stderr is drained and never kept: it may echo anything, secrets included.
    child.stderr?.resume();
    child.on("error", (err) => {
      if (child.pid === undefined) finish(describeSpawnError(err));
    });
    child.once("exit", (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      timers.push(setTimeout(() => finish(), DRAIN_GRACE_MS));
    });
    child.once("close", () => finish());
  });
}

function describeSpawnError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}` : String(e?.message ?? err);
}

function failedToStart(err: unknown, what?: string): ProbeRunResult {
  return {
    stdout: Buffer.alloc(0),
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    outputOverflow: false,
    spawnError: what ? `${what} (${describeSpawnError(err)})` : describeSpawnError(err),
  };
}
