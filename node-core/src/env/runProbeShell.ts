// The probe's process boundary: start the login shell in its own process group with stdin on
// /dev/null, collect stdout (bounded), and never let it outlive its deadline. Everything about
// what to run and how to read the output lives elsewhere, so tests can swap this one function.
import { spawn, spawnSync } from "node:child_process";
import type { PlatformName } from "../util/platform.js";

export interface ProbeRunRequest {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
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
 * After the shell exits, how long its output may still take to arrive. Also how long a killed
 * shell's pipes may take to close. Part of the probe's budget (see probe.ts).
 */
export const DRAIN_GRACE_MS = 100;
/**
 * How long the processes of a stopped probe have after SIGTERM to run their EXIT traps before
 * SIGKILL. Not part of the probe's budget: the result does not wait for it. Generous because a
 * loaded machine can take hundreds of milliseconds to schedule a trap, and a lock left behind
 * (pyenv's rehash lock) makes every later login shell wait 60 s.
 */
export const TERM_GRACE_MS = 2000;

/**
 * Kills the probe's whole process tree: its process group on POSIX (the shell is a group leader,
 * and without a terminal its background jobs stay in that group), `taskkill /T` on Windows.
 */
export function killProbeTree(pid: number, platform: PlatformName): void {
  if (platform === "win32") {
    spawnSync("taskkill", ["/PID", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true, timeout: 2000 });
    return;
  }
  signalGroup(pid, "SIGKILL");
}

/**
 * Stops the probe's tree gently where that matters: the shell itself is killed at once (it must
 * run nothing more of the profile; an interactive shell ignores SIGTERM anyway), then the
 * processes it started get SIGTERM so their EXIT traps run: a profile tool killed outright can
 * leave its lock behind (pyenv's rehash lock made every later login shell wait 60 s). Whatever
 * still runs TERM_GRACE_MS later is killed by `killProbeTree`. Windows has no TERM.
 */
export function terminateProbeTree(pid: number, platform: PlatformName): void {
  if (platform === "win32") {
    killProbeTree(pid, platform);
    return;
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // ESRCH: the shell has already exited.
  }
  signalGroup(pid, "SIGTERM");
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

export function createProbeRunner(platform: PlatformName = process.platform as PlatformName): ProbeRunner {
  return (request) => runProbeShell(request, platform);
}

function runProbeShell(request: ProbeRunRequest, platform: PlatformName): Promise<ProbeRunResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let aborted = false;
    let outputOverflow = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let settled = false;
    let terminating = false;
    const timers: NodeJS.Timeout[] = [];

    if (request.signal?.aborted) {
      resolve({ stdout: Buffer.alloc(0), exitCode: null, signal: null, timedOut: false, aborted: true, outputOverflow: false });
      return;
    }

    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(request.file, request.args, {
        env: request.env,
        cwd: request.cwd,
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group (a new session on POSIX): no controlling terminal to read a
        // password from, and one kill reaches everything the profile started.
        detached: platform !== "win32",
        windowsHide: true,
      });
    } catch (err) {
      resolve(failedToStart(err));
      return;
    }

    const finish = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      // Whatever ignored the TERM (or left the pipes before it came) does not outlive the probe,
      // but what is still running its EXIT trap gets the time to finish it. The timer is not
      // unref'd on purpose: a core about to exit waits for it rather than leave the tree alive.
      // Until then its pipes stay drained: a trap that prints ("Terminated") to a closed pipe
      // would die of SIGPIPE before releasing its lock.
      const closePipes = () => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      };
      if (terminating && child.pid !== undefined && platform !== "win32") {
        const pid = child.pid;
        child.stdout?.removeAllListeners("data").resume();
        setTimeout(() => {
          killProbeTree(pid, platform);
          closePipes();
        }, TERM_GRACE_MS);
      } else {
        closePipes();
      }
      request.signal?.removeEventListener("abort", onAbort);
      resolve({
        stdout: Buffer.concat(chunks),
        exitCode,
        signal: exitSignal,
        timedOut,
        aborted,
        outputOverflow,
        ...(spawnError ? { spawnError } : {}),
      });
    };

    /** TERM the group now, KILL what is left and stop waiting for output DRAIN_GRACE_MS later. */
    const terminate = () => {
      if (terminating || child.pid === undefined) return;
      terminating = true;
      terminateProbeTree(child.pid, platform);
      timers.push(setTimeout(() => finish(), DRAIN_GRACE_MS));
    };
    const onAbort = () => {
      aborted = true;
      terminate();
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });

    timers.push(
      setTimeout(() => {
        timedOut = true;
        terminate();
      }, request.timeoutMs),
    );

    child.stdout?.on("data", (chunk: Buffer) => {
      if (outputOverflow) return;
      size += chunk.length;
      if (size > MAX_PROBE_OUTPUT_BYTES) {
        outputOverflow = true;
        terminate();
        return;
      }
      chunks.push(chunk);
    });
    // The profile's stderr (job-control warnings, errors) is drained and never kept: it may echo
    // anything, secrets included, and the parse does not need it.
    child.stderr?.resume();

    child.on("error", (err) => {
      // A shell that never started has no pid. A running one reports through exit; an error
      // for it (a failed kill) changes nothing about how it ends.
      if (child.pid === undefined) finish(describeSpawnError(err));
    });
    child.once("exit", (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      // Whatever the profile left running in the probe's group is of no use without the shell
      // and may hold our pipe open; stop it, then let the remaining output drain.
      if (platform !== "win32") terminate();
      else timers.push(setTimeout(() => finish(), DRAIN_GRACE_MS));
    });
    child.once("close", () => finish());
  });
}

function describeSpawnError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}` : String(e?.message ?? err);
}

function failedToStart(err: unknown): ProbeRunResult {
  return {
    stdout: Buffer.alloc(0),
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    outputOverflow: false,
    spawnError: describeSpawnError(err),
  };
}
