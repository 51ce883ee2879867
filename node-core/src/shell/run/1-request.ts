// Stage 1 of the command path (index.ts has the whole order): what a shell tool hands over.
// A RunRequest is the tool's word (Bash, run_shell_command): the command, where, with what. The
// session's runs (2-session.ts) give it an identity — a run marker and the files it writes — and
// that is a RunSpec, which every later stage reads.
import type { ShellEngine } from "../engine.js";
import type { SandboxPlan } from "../sandbox/service.js";
import type { ShellKind } from "../types.js";
import type { Platform } from "../../util/platform.js";

/** A command of a session as its tool starts it (SessionRuns.start). */
export interface RunRequest {
  command: string;
  /** Must exist (the tool falls back first). */
  cwd: string;
  /** Records the directory the shell ends in (foreground commands). */
  trackCwd: boolean;
  /** Injects the search shims; the user's `shims` setting. */
  shimsEnabled: boolean;
  /** The command needs no start-up file (RunSpec.plain). */
  plain?: boolean;
  /** Names the output file (`<name>.log`); the session's next run number otherwise. */
  name?: string;
  signal?: AbortSignal;
  /** stdout and stderr to `<name>.stdout.log` and `<name>.stderr.log`. */
  separateStderr?: boolean;
  shellKind?: ShellKind;
  /** How the command runs with respect to the OS sandbox (the call's plan). */
  sandbox?: SandboxPlan;
}

/** A request with its identity: the marker its processes carry and the files it writes. */
export interface RunSpec {
  command: string;
  /** Must exist (the caller falls back first). */
  cwd: string;
  /** The marker every process of this run carries (WAVE_RUN_ID). */
  runId: string;
  /** Created (or appended to) by the spawn stage; the caller decides when to delete it. */
  outputPath: string;
  /**
   * When set, stderr goes to this file (created or appended to like `outputPath`) and
   * `outputPath` receives stdout only. Otherwise both streams share `outputPath`.
   */
  stderrPath?: string;
  /** The tool runs only this kind of shell (run_shell_command: bash); otherwise bash or zsh as resolved. */
  shellKind?: ShellKind;
  /** Records the directory the shell ends in (foreground commands). */
  trackCwd: boolean;
  /** Injects the search shims; the user's `shims` setting. */
  shimsEnabled: boolean;
  /**
   * The command needs neither the cwd tracking nor a shim (shell/invocation.ts needsStartupFile):
   * bash runs it without the start-up file, as a plain `bash -c`, where it can (withoutStartupFile).
   */
  plain?: boolean;
  /** The core's shell engine: its shim files and start-up files. */
  engine: ShellEngine;
  /**
   * The call's signal: a cancelled call stops waiting for the login environment at once (the
   * run it then starts is stopped by the caller's abort handling).
   */
  signal?: AbortSignal;
  platform?: Platform;
  /** A sandboxed plan wraps the shell in the OS sandbox (shell/sandbox); otherwise it runs as is. */
  sandbox?: SandboxPlan;
}

/** How a run ended. */
export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
  /** Set when the shell could not be started. */
  error?: Error;
}

/** A process a command left running after its shell exited. */
export interface Survivor {
  pid: number;
  command: string;
}

/** The command could not be started: the message says why and what to do. */
export class SpawnFailed extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = "SpawnFailed";
  }

  /** The system's error code (EAGAIN, E2BIG, …): the cause's, else the one the message names. */
  get code(): string | undefined {
    return (this.cause as NodeJS.ErrnoException | undefined)?.code ?? /\((E[A-Z0-9]+)\)/.exec(this.message)?.[1];
  }
}
