// Stage 7: the handle of a running command. A ShellRun is what the tools and the task manager
// share: it can be waited for (`exited`), stopped (the whole tree), asked for the cwd the shell
// ended in and for descendants still alive (8-survivors.ts). Built from ONE options object, by
// either launcher (4-launcher.ts: cold; 5-ahead.ts: a shell started ahead of its command).
import type { ChildProcess } from "node:child_process";
import { closeSync, constants as fsConstants, openSync, readSync, unlinkSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { createLogger } from "../../util/log.js";
import { envValue, type Platform } from "../../util/platform.js";
import { tracksCwd } from "../invocation.js";
import { killTree, type KillReport } from "../killTree.js";
import { procDescendants, readProcEntry } from "../processTable.js";
import type { SandboxPolicy } from "../sandbox/policy.js";
import type { ResolvedShell } from "../types.js";
import { unwatchGroup } from "../watchdog.js";
import { fromGitBashPath, gitInstallRoot } from "../winpath.js";
import type { ExitStatus, RunSpec, Survivor } from "./1-request.js";
import type { RunPlan } from "./3-plan.js";
import type { Launch, SandboxReport } from "./6-spawn.js";
import { findSurvivors, groupExists, type SurvivorScan } from "./8-survivors.js";

const log = createLogger("runner");

/** How long a stop waits for a sandbox still being set up to start its shell (bwrap takes ~5-30 ms). */
const SANDBOX_START_WAIT_MS = 2000;

/** Everything a handle is made of: the process, and what the earlier stages decided about it. */
export interface ShellRunOptions {
  child: ChildProcess;
  spec: RunSpec;
  /** The run's plan: its shell, its cwd file, the invocation (environment, command line). */
  plan: Pick<RunPlan, "shell" | "cwdFile" | "inv" | "platform">;
  /** What was spawned: the invocation or the sandbox's wrapper (its policy; bwrap's when `infoFd` is set). */
  launch?: Pick<Launch, "infoFd" | "policy">;
  /** bwrap's --info-fd report (sandboxed runs on Linux). */
  report?: SandboxReport;
  /**
   * The last pid handed out before the command could start anything: the shell's own (the
   * default), or, for a shell started ahead of its command, the last one when the command was given.
   */
  pidFloor?: number;
}

export class ShellRun {
  readonly startedAt = Date.now();
  private endedAt: number | undefined;
  private status: ExitStatus | undefined;
  private stopInFlight: Promise<KillReport> | undefined;
  /** The core began stopping the tree (a signal it sees the shell die of is then its own). */
  private stopRequested = false;
  private readonly child: ChildProcess;
  readonly spec: RunSpec;
  readonly shell: ResolvedShell;
  readonly cwdFile: string | undefined;
  private readonly env: Record<string, string>;
  private readonly platform: Platform;
  /** The shell's own command line (inside the sandbox's wrapper, when there is one). */
  private readonly shellLine: string;
  /**
   * It runs behind bwrap: a wrapper and its pid namespace's reaper stand between the core and the
   * shell. Not so under sandbox-exec (macOS), which execs the shell in place.
   */
  readonly sandboxed: boolean;
  private readonly report: SandboxReport | undefined;
  private readonly pidFloor: number | undefined;
  private readonly notes: string[] = [];
  /** The sandbox policy the command runs under (undefined outside the sandbox). */
  readonly policy: SandboxPolicy | undefined;
  readonly exited: Promise<ExitStatus>;

  constructor(o: ShellRunOptions) {
    const { child, spec, plan } = o;
    this.child = child;
    this.spec = spec;
    this.shell = plan.shell;
    this.cwdFile = plan.cwdFile;
    this.env = plan.inv.env;
    this.platform = plan.platform;
    this.shellLine = [plan.inv.file, ...plan.inv.args].join(" ");
    this.sandboxed = o.launch?.infoFd !== undefined;
    this.policy = o.launch?.policy;
    this.report = o.report;
    this.pidFloor = o.pidFloor ?? child.pid;
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

  /**
   * Removes bwrap's report once the run is over (off the result's path), keeping the reaper's pid
   * only while the group still has members: once it is empty, every later scan answers without it.
   */
  private dropSandboxReport(): void {
    this.report?.remove(this.pid !== undefined && groupExists(this.pid));
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
    const stopping = this.sandboxStarted()
      .then(() =>
        killTree(
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
        ),
      )
      .then(async (report) => {
        // The shell is gone once the tree is; make sure its exit was seen before answering.
        if (this.running && this.pid !== undefined) await Promise.race([this.exited, delay(2000)]);
        if (this.pid !== undefined) unwatchGroup(this.pid);
        if (!this.running) this.dropSandboxReport();
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
    if (!this.sandboxed || this.platform.name !== "linux" || !this.report) return;
    const until = Date.now() + SANDBOX_START_WAIT_MS;
    while (this.running && Date.now() < until) {
      const init = this.report.reaper();
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

  /** What a survivor scan of this run knows (undefined before the shell has a pid). */
  survivorScan(): SurvivorScan | undefined {
    const pid = this.pid;
    if (pid === undefined) return undefined;
    const report = this.report;
    return {
      pid,
      runId: this.runId,
      label: this.label(),
      sandboxed: this.sandboxed,
      reaper: () => report?.reaper(),
      pidFloor: this.pidFloor ?? pid,
      durationMs: this.durationMs,
      shellLine: this.shellLine,
      platform: this.platform,
    };
  }

  /** Descendants still alive after the shell exited (pid and command line): 8-survivors.ts. */
  async findSurvivors(): Promise<Survivor[]> {
    const scan = this.survivorScan();
    if (!scan) return [];
    const survivors = await findSurvivors(scan);
    this.dropSandboxReport();
    return survivors;
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

  /**
   * Removes the cwd file (after each command; BASH-WIN-4): one unlink, nothing to look up first.
   * None for a plain run outside a sandbox: its shell was not told of the file and the core never
   * created it (only a sandbox's is made ahead, 6-spawn.ts), so there is nothing to remove.
   */
  discardCwdFile(): void {
    const file = this.cwdFile;
    if (!file) return;
    if (!tracksCwd(this.env) && this.spec.sandbox?.wrap === undefined) return;
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

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());

/** Never through a symlink: whatever a command left at the cwd file path is not followed. */
const NO_FOLLOW = fsConstants.O_NOFOLLOW ?? 0;
