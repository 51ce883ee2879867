// Stage 2: the session's runs — the orchestrator. Every command of a session is started here, so
// the session knows all the process trees it owns and can stop them — stragglers of finished
// commands included — when it is disposed (BASH-KILL-5). It gives each request its identity (run
// marker `<process token>.<session tag>.<seq>`, output file names) and chooses the launcher, in
// one place (launchersFor): a sandboxed command asks the shell started ahead first, then the cold
// launcher; every other command starts cold. Background tasks are tasks/manager.ts, which adopts
// runs started here.
import os from "node:os";
import path from "node:path";
import type { Session, SessionService } from "../../base/session.js";
import { ServiceKey } from "../../base/services.js";
import { hostPlatform } from "../../util/platform.js";
import { SHELL_ENGINE, type ShellEngine } from "../engine.js";
import { killTree } from "../killTree.js";
import { PROCESS_TOKEN, processOutputDir } from "../outputDir.js";
import { processTableFor } from "../processTable.js";
import { sandboxGuard } from "../sandbox/guard.js";
import type { SandboxPlan } from "../sandbox/service.js";
import { SpawnFailed, type RunRequest, type RunSpec } from "./1-request.js";
import { ColdLauncher, type Launcher, type RunFiles } from "./4-launcher.js";
import { AheadLauncher, warmShellsEnabled } from "./5-ahead.js";
import type { ShellRun } from "./7-handle.js";

// Process-wide on purpose: run markers (`<process token>.<tag>.<seq>`) and output file names
// must not collide between cores of one process.
let nextSessionTag = 1;

/**
 * Whether a command with this sandbox plan may use a shell started ahead: on Linux, inside
 * bubblewrap, unless WAVE_WARM_SHELL=0. Unsandboxed commands start cold (a plain spawn is already
 * as fast as a raw one); seatbelt (macOS) has no wrapper to start ahead.
 */
export function startsAhead(sandbox: SandboxPlan | undefined, platform = hostPlatform()): boolean {
  return warmShellsEnabled() && platform.name === "linux" && sandbox?.wrap !== undefined && sandbox.kind === "bubblewrap";
}

export class SessionRuns implements SessionService {
  /** Distinguishes this session's run markers from other sessions' (`<token>.<tag>.<seq>`). */
  readonly tag = nextSessionTag++;
  private seq = 0;
  /** Runs whose processes may still be alive (running, or finished with survivors). */
  private readonly liveRuns = new Set<ShellRun>();
  private disposing: Promise<void> | undefined;
  readonly cold: ColdLauncher;
  readonly ahead: AheadLauncher;

  constructor(
    readonly session: Session,
    private readonly engine: ShellEngine,
  ) {
    const name = (request: RunRequest, files?: RunFiles) => this.runSpec(request, files);
    this.cold = new ColdLauncher(name);
    this.ahead = new AheadLauncher(name, () => this.session.cwd);
  }

  get markerPrefix(): string {
    return `${PROCESS_TOKEN}.${this.tag}.`;
  }

  get disposed(): boolean {
    return this.disposing !== undefined;
  }

  /** THE choice of launcher: in the order they are asked; the last always starts (or throws). */
  launchersFor(sandbox: SandboxPlan | undefined): Launcher[] {
    return startsAhead(sandbox) ? [this.ahead, this.cold] : [this.cold];
  }

  /**
   * Starts a command of this session. `name` names the output file (`<name>.log`); with
   * `separateStderr` stdout and stderr go to `<name>.stdout.log` and `<name>.stderr.log`.
   * Throws ShellNotFound or SpawnFailed (their messages say what to do).
   */
  async start(request: RunRequest): Promise<ShellRun> {
    try {
      return await this.startIn(request);
    } catch (err) {
      throw filesNotWritten(err);
    }
  }

  private async startIn(request: RunRequest): Promise<ShellRun> {
    if (this.disposed) throw new Error(`Session ${this.session.id} has ended; start a new session to run commands.`);
    let run: ShellRun | undefined;
    for (const launcher of this.launchersFor(request.sandbox)) if ((run = await launcher.start(request))) break;
    if (!run) throw new SpawnFailed("No launcher could start the command.");
    if (run.policy) sandboxGuard.watch(run, run.policy, run.policy.gitRoots, os.homedir());
    this.liveRuns.add(run);
    if (this.disposed) void run.stop();
    return run;
  }

  /** The spec of a run of this session: the next marker and output file names, or `files`. */
  private runSpec(request: RunRequest, files?: RunFiles): RunSpec {
    if (!files) {
      const seq = ++this.seq;
      const stem = path.join(processOutputDir(), request.name ?? `run-${this.tag}-${seq}`);
      files = {
        runId: `${this.markerPrefix}${seq}`,
        outputPath: request.separateStderr ? `${stem}.stdout.log` : `${stem}.log`,
        ...(request.separateStderr ? { stderrPath: `${stem}.stderr.log` } : {}),
      };
    }
    return {
      command: request.command,
      cwd: request.cwd,
      ...files,
      ...(request.shellKind ? { shellKind: request.shellKind } : {}),
      trackCwd: request.trackCwd,
      shimsEnabled: request.shimsEnabled,
      ...(request.plain ? { plain: true } : {}),
      engine: this.engine,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.sandbox ? { sandbox: request.sandbox } : {}),
    };
  }

  /**
   * A foreground run ended; forget it unless it left processes behind (the session end stops those).
   * The next command will likely be started the same way: its launcher may prepare for it now.
   */
  runFinished(run: ShellRun, hasSurvivors: boolean): void {
    if (!hasSurvivors) this.liveRuns.delete(run);
    if (this.disposed) return;
    for (const launcher of this.launchersFor(run.spec.sandbox)) launcher.runEnded(run.spec);
  }

  /** A run handed to a background task (tasks/manager.ts): kept until the task forgets it. */
  keep(run: ShellRun): void {
    this.liveRuns.add(run);
  }

  /** The run's processes are all gone (a task settled without survivors). */
  forget(run: ShellRun): void {
    this.liveRuns.delete(run);
  }

  /** Stops every straggler of this session's commands (BASH-KILL-5). */
  dispose(): Promise<void> {
    this.disposing ??= this.doDispose();
    return this.disposing;
  }

  private async doDispose(): Promise<void> {
    await Promise.all([this.ahead.dispose(), this.cold.dispose()]);
    await Promise.all([...this.liveRuns].map((run) => run.stop()));
    const table = processTableFor(hostPlatform());
    if (table?.readsMarkers) {
      // Anything else that carries this session's marker (a run we lost track of).
      await killTree({ pid: undefined, marker: { prefix: this.markerPrefix }, label: `session ${this.session.id} stragglers` });
    }
    this.liveRuns.clear();
  }
}

/**
 * A file the run needs (start-up files, the output file) that could not be written is a failure
 * to start, said with the directory and what to do; a full disk would otherwise surface as an
 * "internal error" naming only ENOSPC.
 */
function filesNotWritten(err: unknown): unknown {
  const e = err as NodeJS.ErrnoException;
  if (err instanceof SpawnFailed || typeof e?.code !== "string" || typeof e.syscall !== "string") return err;
  const dir = processOutputDir();
  const full = e.code === "ENOSPC" || e.code === "EDQUOT";
  return new SpawnFailed(
    full
      ? `Could not write the command's files in ${dir} (${e.code}): the disk holding it is full. Free space on that disk, or set WAVE_OUTPUT_DIR to a directory on one with room; nothing ran.`
      : `Could not write the command's files in ${dir} (${e.code}: ${e.message}). Check that the directory is writable, or set WAVE_OUTPUT_DIR to one that is; nothing ran.`,
    err,
  );
}

/** The session's runs: created with the session's first command, disposed with the session. */
export const RUNS = new ServiceKey<SessionRuns, Session>("runs", (session) => new SessionRuns(session, session.coreServices.get(SHELL_ENGINE)));
