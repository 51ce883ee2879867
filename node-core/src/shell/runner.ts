// Starts one shell-tool command: `<shell> -c <command>` in its own process group, stdin /dev/null,
// stdout and stderr both the output file (so output is interleaved as produced, memory stays flat
// however much is printed, and background children holding the output never delay the result) —
// or, for run_shell_command, stdout and stderr each into a file of its own.
// A ShellRun is the handle the Bash tool and the task manager share: it can be waited for,
// stopped (whole tree), asked for the cwd it ended in and for descendants still alive.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, constants as fsConstants, openSync, readFileSync, readSync, rm, rmSync, statSync, unlinkSync } from "node:fs";
import { constants as osConstants } from "node:os";
import path from "node:path";
import { childEnvironment } from "../env/index.js";
import { createLogger } from "../util/log.js";
import { buildInvocation, tracksCwd, withoutStartupFile, type Invocation } from "./invocation.js";
import { killTree, collectTree, type KillReport } from "./killTree.js";
import type { ShellEngine } from "./engine.js";
import { processOutputDir } from "./outputDir.js";
import { envValue, hostPlatform, type Platform } from "../util/platform.js";
import {
  isNamespaceInit,
  lastAllocatedPid,
  linuxProcessTable,
  listProcPids,
  procDescendants,
  procHasMarker,
  procArguments,
  procCommandLine,
  processTableFor,
  readProcEntry,
} from "./processTable.js";
import { resolveShellCached } from "./resolve.js";
import type { SandboxPolicy } from "./sandbox/policy.js";
import type { SandboxPlan } from "./sandbox/service.js";
import type { ResolvedShell, ShellKind } from "./types.js";
import { ensureWatchdog, unwatchGroup, watchGroup } from "./watchdog.js";
import { fromGitBashPath, gitInstallRoot } from "./winpath.js";

const log = createLogger("runner");

export interface RunSpec {
  command: string;
  /** Must exist (the caller falls back first). */
  cwd: string;
  /** The marker every process of this run carries (WAVE_RUN_ID). */
  runId: string;
  /** Created (or appended to) by the runner; the caller decides when to delete it. */
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

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
  /** Set when the shell could not be started. */
  error?: Error;
}

export interface Survivor {
  pid: number;
  command: string;
}

export class SpawnFailed extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = "SpawnFailed";
  }

  /** The system's error code (EAGAIN, E2BIG, …): the cause's, else the one the message names. */
  get code(): string | undefined {
    return (this.cause as NodeJS.ErrnoException | undefined)?.code ?? /\((E[A-Z0-9]+)\)/.exec(this.message)?.[1];
  }
}

/** Survivor scans may look only at pids handed out after the shell's while the pid space cannot have wrapped. */
const RECENT_PID_SCAN_MAX_MS = 10_000;

/** How long a survivor caught in the middle of exec (a name, no command line yet) may take to settle. */
const MID_EXEC_WAIT_MS = 1000;

/** How long a stop waits for a sandbox still being set up to start its shell (bwrap takes ~5-30 ms). */
const SANDBOX_START_WAIT_MS = 2000;

export class ShellRun {
  readonly startedAt = Date.now();
  private endedAt: number | undefined;
  private status: ExitStatus | undefined;
  private stopInFlight: Promise<KillReport> | undefined;
  /** The core began stopping the tree (a signal it sees the shell die of is then its own). */
  private stopRequested = false;
  private readonly shellLine: string;
  /** The file bwrap's --info-fd wrote the sandbox's reaper (pid 1 of its namespace) to; read when needed. */
  private sandboxInfoFile: string | undefined;
  private namespaceInitPid: number | undefined;
  private readonly notes: string[] = [];
  /** The sandbox policy the command runs under (undefined outside the sandbox). */
  policy: SandboxPolicy | undefined;
  readonly exited: Promise<ExitStatus>;

  constructor(
    private readonly child: ChildProcess,
    readonly spec: RunSpec,
    readonly shell: ResolvedShell,
    readonly cwdFile: string | undefined,
    private readonly env: Record<string, string>,
    private readonly platform: Platform,
    /** The shell's own command line (inside the sandbox's wrapper, when there is one). */
    shellLine?: string,
    /**
     * It runs behind bwrap: a wrapper and its pid namespace's reaper stand between the core and the
     * shell. Not so under sandbox-exec (macOS), which execs the shell in place.
     */
    readonly sandboxed = false,
    /**
     * The last pid handed out before the command could start anything: the shell's own, or, for a
     * shell started ahead of its command (shell/warm.ts), the last one when the command was given.
     */
    private readonly pidFloor: number | undefined = child.pid,
  ) {
    this.shellLine = shellLine ?? child.spawnargs.join(" ");
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.finish(this.unwrapped({ exitCode: code, signal }));
        resolve(this.status!);
      });
      child.once("error", (err) => {
        // Only reached when the process could not start or be signalled; `exit` may never come.
        if (child.pid === undefined || child.exitCode !== null) {
          this.finish({ exitCode: null, signal: null, error: err });
          resolve(this.status!);
        } else {
          log.debug("child process error", { runId: spec.runId, error: err });
        }
      });
    });
  }

  /**
   * bwrap reports a shell killed by signal N as exit status 128+N. When the core itself stopped
   * the tree with that signal, that is what happened: report the signal, as without a sandbox.
   */
  private unwrapped(status: ExitStatus): ExitStatus {
    if (!this.sandboxed || !this.stopRequested || status.signal !== null || status.exitCode === null) return status;
    const name = status.exitCode === 128 + osConstants.signals.SIGTERM ? "SIGTERM" : status.exitCode === 128 + osConstants.signals.SIGKILL ? "SIGKILL" : undefined;
    return name ? { exitCode: null, signal: name } : status;
  }

  /** Something the sandbox did to this run (stopped it, set aside git metadata it made): reported with its result. */
  addSandboxNote(note: string): void {
    if (!this.notes.includes(note)) this.notes.push(note);
  }

  /** The sandbox's notes so far, each once: taken by whoever reports the result. */
  takeSandboxNotes(): string[] {
    return this.notes.splice(0);
  }

  /** Where bwrap's `--info-fd` report goes: `{"child-pid": <the sandbox's first process>, …}`. */
  setSandboxInfoFile(file: string): void {
    this.sandboxInfoFile = file;
  }

  /** The sandbox's reaper, from bwrap's report (read once, when a survivor scan needs it). */
  private namespaceInit(): number | undefined {
    if (this.namespaceInitPid === undefined && this.sandboxInfoFile) {
      this.namespaceInitPid = sandboxReaperPid(this.sandboxInfoFile);
      if (this.namespaceInitPid === undefined) log.debug("no sandbox report", { runId: this.runId, file: this.sandboxInfoFile });
    }
    return this.namespaceInitPid;
  }

  /**
   * Removes bwrap's report once the run is over (off the result's path), keeping the reaper's pid
   * only while the group still has members: once it is empty, every later scan answers without it.
   */
  private dropSandboxInfo(): void {
    const file = this.sandboxInfoFile;
    if (!file) return;
    if (this.pid !== undefined && groupExists(this.pid)) this.namespaceInit();
    this.sandboxInfoFile = undefined;
    rm(file, { force: true }, (err) => {
      if (err) log.debug("could not remove the sandbox report", { file, error: err });
    });
  }

  private finish(status: ExitStatus): void {
    if (this.status) return;
    this.status = status;
    this.endedAt = Date.now();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get runId(): string {
    return this.spec.runId;
  }
  get command(): string {
    return this.spec.command;
  }
  get outputPath(): string {
    return this.spec.outputPath;
  }
  /** stderr's own file, when the streams are kept apart. */
  get stderrPath(): string | undefined {
    return this.spec.stderrPath;
  }
  get running(): boolean {
    return this.status === undefined;
  }
  get exitStatus(): ExitStatus | undefined {
    return this.status;
  }
  get durationMs(): number {
    return (this.endedAt ?? Date.now()) - this.startedAt;
  }

  private label(): string {
    const cmd = this.command.length > 80 ? this.command.slice(0, 80) + "…" : this.command;
    return `run ${this.runId} (${cmd})`;
  }

  /**
   * Stops the whole tree (SIGTERM, SIGKILL one second later; taskkill /T /F on Windows) and
   * resolves when it is gone. Safe to call more than once and after the shell exited (then it
   * stops the descendants still alive).
   */
  stop(): Promise<KillReport> {
    if (this.stopInFlight) return this.stopInFlight;
    this.stopRequested = true;
    const stopping = this.sandboxStarted().then(() => killTree(
      {
        pid: this.pid,
        marker: { runId: this.runId },
        label: this.label(),
        killDirectChild: (sig) => {
          if (this.running) this.child.kill(sig);
        },
        sandboxed: this.sandboxed,
      },
      { platform: this.platform },
    )).then(async (report) => {
      // The shell is gone once the tree is; make sure its exit was seen before answering.
      if (this.running && this.pid !== undefined) await Promise.race([this.exited, delay(2000)]);
      if (this.pid !== undefined) unwatchGroup(this.pid);
      if (!this.running) this.dropSandboxInfo();
      return report;
    });
    this.stopInFlight = stopping;
    void stopping.finally(() => {
      if (this.stopInFlight === stopping) this.stopInFlight = undefined;
    });
    return stopping;
  }

  /**
   * Resolves once a sandboxed run's shell exists (or the run ended, or SANDBOX_START_WAIT_MS
   * passed). bwrap sets the sandbox up before it forks the shell, and the first process of the
   * new pid namespace ignores every signal it has no handler for: a SIGTERM sent earlier ends the
   * outer bwrap alone, the shell starts after it, and the tree would only go at SIGKILL, a second
   * later. Waiting for the namespace to hold a child of its first process lets SIGTERM reach the
   * shell, as it does a moment later.
   */
  private async sandboxStarted(): Promise<void> {
    if (!this.sandboxed || this.platform.name !== "linux" || !this.sandboxInfoFile) return;
    const until = Date.now() + SANDBOX_START_WAIT_MS;
    while (this.running && Date.now() < until) {
      const init = this.namespaceInit();
      if (init !== undefined) {
        if (readProcEntry(init) === undefined) return;
        const below = procDescendants(init);
        if (below === undefined || below.length > 0) return;
      }
      await delay(2);
    }
  }

  /** Resolves when no stop is in progress (a stop started earlier has finished). */
  async whenStopped(): Promise<void> {
    await this.stopInFlight?.catch(() => undefined);
  }

  /** Descendants still alive after the shell exited (pid and command line). */
  async findSurvivors(): Promise<Survivor[]> {
    const pid = this.pid;
    if (pid === undefined || this.platform.name === "win32") return [];
    const table = processTableFor(this.platform);
    if (!table) return [];
    let pids: number[] | undefined;
    let init: number | undefined;
    if (this.sandboxed && table === linuxProcessTable) {
      // Every process of a sandboxed command lives in its namespace, below its reaper, which
      // stays in the group of the pid the core started while anything is left in there.
      if (!groupExists(pid)) pids = [];
      else if ((init = this.namespaceInit()) !== undefined) pids = readProcEntry(init) === undefined ? [] : procDescendants(init);
    }
    const recent = table === linuxProcessTable && this.durationMs < RECENT_PID_SCAN_MAX_MS;
    const last = !pids && recent ? lastAllocatedPid() : undefined;
    const floor = this.pidFloor ?? pid;
    if (pids) {
      // found through the namespace
    } else if (last === floor) {
      // No pid was handed out since the command could start one: nothing it started can still be alive.
      pids = [];
    } else if (recent && !groupExists(pid)) {
      // Fast path: the group is empty, and any escaped descendant was born after the shell and
      // carries the marker, so only pids handed out since need a look.
      if (last === undefined) {
        pids = (await collectTree({ pid, marker: { runId: this.runId }, label: this.label() }, table)).map((p) => p.pid);
      } else {
        const born = (p: number) => (last >= floor ? p > floor && p <= last : p > floor || p <= last);
        // Usually only a handful of pids were handed out meanwhile: probe them directly.
        const candidates = last >= floor && last - floor <= 256 ? range(floor + 1, last) : listProcPids().filter(born);
        pids = candidates.filter((p) => p !== process.pid && mayCarryOurMarker(p) && readProcEntry(p) !== undefined && procHasMarker(p, { runId: this.runId }));
      }
    } else {
      pids = (await collectTree({ pid, marker: { runId: this.runId }, label: this.label() }, table)).map((p) => p.pid);
    }
    // A sandbox's namespace init (bwrap's reaper) lives exactly as long as the processes it holds: part of the tree, never a survivor.
    if (this.sandboxed) pids = pids.filter((p) => p !== init && !isNamespaceInit(p));
    if (pids.length === 0) unwatchGroup(pid);
    const survivors = pids.map((p) => ({ pid: p, command: table.commandLine(p) }));
    if (table === linuxProcessTable) {
      // A child the shell forked just before exiting may not have exec'd its program yet: it
      // still shows the shell's own command line (50 ms to change it: a subshell that never execs
      // keeps that line, which is then the truth) — or, caught in the middle of exec, a name but no
      // command line (up to a second, however loaded the machine: it is about to settle).
      const shellLine = this.shellLine;
      const since = Date.now();
      const midExec = (s: Survivor) => procArguments(s.pid) === undefined && readProcEntry(s.pid) !== undefined;
      const unsettled = (s: Survivor) => s.command === shellLine || midExec(s);
      for (;;) {
        const waited = Date.now() - since;
        const waiting = survivors.filter(unsettled);
        if (!waiting.some((s) => (s.command === shellLine ? waited < 50 : waited < MID_EXEC_WAIT_MS))) break;
        await delay(10);
        for (const s of waiting) s.command = procCommandLine(s.pid);
      }
    }
    this.dropSandboxInfo();
    // A process that ended while we looked is no survivor.
    return table === linuxProcessTable ? survivors.filter((s) => readProcEntry(s.pid) !== undefined) : survivors;
  }

  /**
   * The directory the shell ended in (native form), or why it is unknown. Tracking is best
   * effort: a missing file (exec, a user EXIT trap, a killed shell) just means "unknown".
   */
  readCwd(): { cwd?: string; reason?: string } {
    if (!this.cwdFile || !tracksCwd(this.env)) return { reason: "cwd tracking was off" };
    let raw: string;
    try {
      raw = readBounded(this.cwdFile, CWD_FILE_MAX_BYTES);
    } catch (err) {
      if (err instanceof TooLarge) return { reason: `the cwd file is larger than ${CWD_FILE_MAX_BYTES} bytes (the command wrote to it)` };
      return { reason: `no cwd file (${(err as NodeJS.ErrnoException).code ?? err})` };
    }
    const text = raw.endsWith("\n") ? raw.slice(0, -1) : raw;
    if (!text) return { reason: "empty cwd file" };
    if (this.shell.platform !== "win32") return { cwd: text };
    const native = fromGitBashPath(text, {
      root: gitInstallRoot(this.shell.path),
      tmp: envValue(this.env, "TEMP", "win32") ?? envValue(this.env, "TMP", "win32"),
    });
    return native ? { cwd: native } : { reason: `cannot map Git Bash path ${JSON.stringify(text)} to a Windows path` };
  }

  /** Removes the cwd file (after each command; BASH-WIN-4): one unlink, nothing to look up first. */
  discardCwdFile(): void {
    const file = this.cwdFile;
    if (!file) return;
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") log.debug("could not remove the cwd file", { file, error: err });
    }
  }
}


/** A directory path is at most PATH_MAX (4096) bytes, plus the newline. */
export const CWD_FILE_MAX_BYTES = 4097;

class TooLarge extends Error {}

/**
 * The file's text, reading at most `max` bytes: a command can write anything to its cwd file, and
 * the core must not read 700 MB to learn a directory. Throws TooLarge when there is more.
 */
function readBounded(file: string, max: number): string {
  const fd = openSync(file, fsConstants.O_RDONLY | NO_FOLLOW);
  try {
    const buf = Buffer.alloc(max + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n > max) throw new TooLarge();
    }
    return buf.toString("utf8", 0, n);
  } finally {
    closeSync(fd);
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

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());

/**
 * The cwd file of a sandboxed command exists (empty) before the shell starts: the sandbox makes
 * exactly this file writable, and an empty file reads as "unknown" when the shell never writes it.
 */
function createCwdFile(file: string): void {
  try {
    // A new file, never what is there already (a link planted by an earlier, unsandboxed command goes).
    const create = () => closeSync(openSync(file, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | NO_FOLLOW, 0o600));
    try {
      create();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      rmSync(file, { force: true });
      create();
    }
  } catch (err) {
    throw new SpawnFailed(
      `Could not create the cwd file ${file} (${(err as NodeJS.ErrnoException).code ?? err}). Check that the directory is writable, or set WAVE_OUTPUT_DIR to one that is.`,
      err,
    );
  }
}

/** Never through a symlink: a sandbox binds these files writable, and a link would take it elsewhere. */
const NO_FOLLOW = fsConstants.O_NOFOLLOW ?? 0;

/** Opens (creates, or appends to) an output file, private to the user. */
function openOutput(file: string): number {
  try {
    return openSync(file, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_APPEND | NO_FOLLOW, 0o600);
  } catch (err) {
    throw new SpawnFailed(
      `Could not create the output file ${file} (${(err as NodeJS.ErrnoException).code ?? err}). Check that the directory is writable, or set WAVE_OUTPUT_DIR to one that is.`,
      err,
    );
  }
}

/** A run as decided before any file is touched: its shell, its invocation and the files it writes. */
export interface RunPlan {
  platform: Platform;
  shell: ResolvedShell;
  /** `<shell> -c <the command>` with its environment: what runs. */
  inv: Invocation;
  /** The same with the start-up file (`inv` itself unless the run is plain): what a shell started ahead waits as. */
  withStartupFile: Invocation;
  /** Where the shell reports the directory it ends in (a plain run's shell is not told of it, and it is not read). */
  cwdFile: string | undefined;
  /** Files the command writes by path (output, stderr, cwd file): a sandbox makes exactly these writable. */
  runFiles: string[];
}

/** The sandbox's reaper (pid 1 of its namespace) from bwrap's `--info-fd` report, once bwrap has written it. */
export function sandboxReaperPid(infoFile: string): number | undefined {
  try {
    const pid = (JSON.parse(readFileSync(infoFile, "utf8")) as { "child-pid"?: unknown })["child-pid"];
    return typeof pid === "number" && Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** What a run's process is started as: the invocation, or the sandbox's wrapper around it. */
export interface Launch {
  file: string;
  args: string[];
  env: Record<string, string>;
  infoFd?: number;
  /** A file opened read-only on this descriptor of the child (bwrap's --seccomp program). */
  inputFd?: { fd: number; file: string };
  /** The sandbox policy it runs under. */
  policy?: SandboxPolicy;
  /** What else the sandbox's content depends on (compared by a shell started ahead). */
  fingerprint?: string;
}

export async function planRun(spec: RunSpec): Promise<RunPlan> {
  const platform = spec.platform ?? hostPlatform();
  const baseEnv = await childEnvironment({ signal: spec.signal });
  const shell = resolveShellCached(baseEnv, platform, spec.shellKind);
  const shims = await spec.engine.shimInjection(shell, spec.shimsEnabled);
  const rc = spec.engine.startupFiles();
  const cwdFile = spec.trackCwd ? path.join(processOutputDir(), `${spec.runId}.cwd`) : undefined;
  const withStartupFile = buildInvocation({
    shell,
    command: spec.command,
    baseEnv,
    shims,
    runId: spec.runId,
    cwdFile,
    cwd: spec.cwd,
    bashRcFile: rc.bash,
    zshRcDir: rc.zshDir,
    corePid: process.pid,
  });
  // A plain run keeps the cwd file among its files, so its sandbox is the one a shell started ahead has.
  const runFiles = [spec.outputPath, ...(spec.stderrPath !== undefined ? [spec.stderrPath] : []), ...(cwdFile ? [cwdFile] : [])];
  const inv = (spec.plain && withoutStartupFile(withStartupFile, shell)) || withStartupFile;
  return { platform, shell, inv, withStartupFile, cwdFile, runFiles };
}

/** `inv` as it is started: inside the sandbox when the spec's plan has one. Throws SpawnFailed. */
export function launchOf(spec: RunSpec, plan: RunPlan, inv: Invocation): Launch {
  if (!spec.sandbox?.wrap) return inv;
  try {
    return spec.sandbox.wrap({ file: inv.file, args: inv.args, env: inv.env, cwd: spec.cwd, runFiles: plan.runFiles });
  } catch (err) {
    throw new SpawnFailed(`Could not prepare the sandbox for the command: ${(err as Error).message}.`, err);
  }
}

export interface Spawned {
  child: ChildProcess;
  launch: Launch;
  /** The file bwrap's --info-fd report goes to. */
  infoFile: string | undefined;
}

/**
 * Creates the run's files and spawns `inv` (wrapped in the sandbox when the spec says so). With
 * `channelFd`, that descriptor of the child is a socket to the core (`child.stdio[channelFd]`).
 * Throws SpawnFailed when a file cannot be created or the process cannot be started.
 */
export function spawnRun(spec: RunSpec, plan: RunPlan, inv: Invocation, channelFd?: number): Spawned {
  const { cwdFile } = plan;
  // A sandbox binds exactly this file writable: it must exist, and be ours, before bwrap starts.
  if (cwdFile && spec.sandbox?.wrap) createCwdFile(cwdFile);
  const fd = openOutput(spec.outputPath);
  let errFd: number;
  try {
    errFd = spec.stderrPath === undefined ? fd : openOutput(spec.stderrPath);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  const closeOutputs = () => {
    closeSync(fd);
    if (errFd !== fd) closeSync(errFd);
  };
  ensureWatchdog(plan.platform);
  let launch: Launch;
  try {
    launch = launchOf(spec, plan, inv);
  } catch (err) {
    closeOutputs();
    throw err;
  }
  const infoFd = launch.infoFd;
  const stdio: Array<"ignore" | "pipe" | number> = ["ignore", fd, errFd];
  // A file, not a pipe: read only when a survivor scan needs it, no stream to service per command.
  const infoFile = infoFd !== undefined ? path.join(processOutputDir(), `${spec.runId}.sandbox.json`) : undefined;
  if (infoFd !== undefined && infoFile !== undefined) {
    while (stdio.length < infoFd) stdio.push("ignore");
    try {
      stdio[infoFd] = openSync(infoFile, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | NO_FOLLOW, 0o600);
    } catch (err) {
      closeOutputs();
      throw new SpawnFailed(`Could not create ${infoFile} (${(err as NodeJS.ErrnoException).code ?? err}). Check that the directory is writable, or set WAVE_OUTPUT_DIR to one that is.`, err);
    }
  }
  const input = launch.inputFd;
  if (input) {
    while (stdio.length < input.fd) stdio.push("ignore");
    try {
      stdio[input.fd] = openSync(input.file, fsConstants.O_RDONLY | NO_FOLLOW);
    } catch (err) {
      closeOutputs();
      if (infoFd !== undefined && typeof stdio[infoFd] === "number") closeSync(stdio[infoFd] as number);
      throw new SpawnFailed(`Could not open ${input.file} (${(err as NodeJS.ErrnoException).code ?? err}), which the sandbox needs. Restart the core; if it persists, set WAVE_OUTPUT_DIR to a writable directory.`, err);
    }
  }
  const closeInfo = () => {
    if (infoFd !== undefined && typeof stdio[infoFd] === "number") closeSync(stdio[infoFd] as number);
    if (input && typeof stdio[input.fd] === "number") closeSync(stdio[input.fd] as number);
  };
  if (channelFd !== undefined) {
    if (stdio[channelFd] !== undefined && stdio[channelFd] !== "ignore") {
      closeOutputs();
      closeInfo();
      throw new SpawnFailed(`Descriptor ${channelFd} is taken (${launch.file}); cannot start a shell ahead on it.`);
    }
    while (stdio.length < channelFd) stdio.push("ignore");
    stdio[channelFd] = "pipe";
  }
  let child: ChildProcess;
  try {
    child = spawn(launch.file, launch.args, {
      cwd: spec.cwd,
      env: launch.env,
      // stdin is /dev/null: reads get EOF at once (BASH-FG-2). Files, never pipes, for the output.
      stdio,
      detached: true,
      windowsHide: true,
    });
  } catch (err) {
    closeOutputs();
    closeInfo();
    const tooBig = (err as NodeJS.ErrnoException).code === "E2BIG"
      ? " The command and its environment together are larger than the system accepts: write the script to a file and run that file, or leave large values out of the environment."
      : "";
    throw new SpawnFailed(`Could not start ${launch.file}: ${(err as Error).message}.${tooBig}`, err);
  }
  // The child has its own copies now; ours would only keep the files open.
  closeOutputs();
  closeInfo();
  return { child, launch, infoFile };
}

/** Why a process could not start, and what to do (its `error` event came instead of a pid). */
export function notStarted(plan: RunPlan, launch: Launch, error: Error | undefined): SpawnFailed {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const wrapped = launch.file !== plan.shell.path;
  const what = wrapped ? `the sandbox (${launch.file})` : plan.shell.path;
  return new SpawnFailed(
    `Could not start ${what} (${code ?? error?.message ?? "unknown error"}). ${
      wrapped
        ? "Check that bubblewrap is installed and works (wave-core env), or set sandbox mode to off."
        : code === "ENOENT"
          ? "The shell disappeared; set WAVE_SHELL to an existing bash or zsh."
          : "Check that the shell is executable."
    }`,
    error,
  );
}

/**
 * Spawns the command. Throws ShellNotFound (no usable shell) or SpawnFailed (the shell or the
 * output file could not be opened); both messages say what to do.
 */
export async function startShellRun(spec: RunSpec): Promise<ShellRun> {
  const plan = await planRun(spec);
  const { child, launch, infoFile } = spawnRun(spec, plan, plan.inv);
  const { inv, shell, cwdFile, platform } = plan;
  const run = new ShellRun(child, spec, shell, cwdFile, inv.env, platform, [inv.file, ...inv.args].join(" "), launch.infoFd !== undefined);
  run.policy = launch.policy;
  if (infoFile) run.setSandboxInfoFile(infoFile);
  if (child.pid === undefined) throw notStarted(plan, launch, (await run.exited).error);
  watchGroup(child.pid);
  return run;
}
