// Each session's background tasks (BASH-BG, BASH-KILL-4/5): commands started with
// run_in_background, moved there on timeout, or moved by the user (Ctrl+B). The manager also
// starts every command of its session, so it knows all the process trees the session owns and
// can stop them — stragglers of finished commands included — when the session is disposed.
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Session, SessionService } from "../base/session.js";
import { ServiceKey } from "../base/services.js";
import { createLogger } from "../util/log.js";
import { killTree } from "../shell/killTree.js";
import { PROCESS_TOKEN, processOutputDir } from "../shell/outputDir.js";
import { hostPlatform } from "../util/platform.js";
import { processTableFor } from "../shell/processTable.js";
import { SHELL_ENGINE, type ShellEngine } from "../shell/engine.js";
import { planRun, SpawnFailed, startShellRun, type RunSpec, type ShellRun, type Survivor } from "../shell/runner.js";
import { WarmShell, warmShellsEnabled } from "../shell/warm.js";
import { sandboxGuard } from "../shell/sandbox/guard.js";
import type { SandboxPlan } from "../shell/sandbox/service.js";
import type { ShellKind } from "../shell/types.js";

const log = createLogger("tasks");

export type TaskOrigin = "background" | "timeout" | "user";
export type TaskStatus = "running" | "completed" | "failed" | "killed";
/** Who stopped a task: the agent's TaskStop (no notice needed), the host, or the session's end. */
export type StoppedBy = "agent" | "host" | "session";

/** What hosts see of a task (PROTOCOL.md `TaskInfo`). */
export interface TaskInfo {
  taskId: string;
  sessionId: string;
  command: string;
  description?: string;
  origin: TaskOrigin;
  status: TaskStatus;
  pid?: number;
  startedAt: string;
  endedAt?: string;
  runtimeMs: number;
  exitCode: number | null;
  signal: string | null;
  outputPath: string;
  survivors: Survivor[];
}

export interface StopOutcome {
  /** True when the task was running and has now been stopped. */
  stopped: boolean;
  task: TaskInfo;
  /** For a task that had already exited: the processes it left running, now stopped. */
  stoppedSurvivors?: Survivor[];
}

/** A command of a session as its tool starts it (TaskManager.startRun). */
export interface RunOptions {
  command: string;
  cwd: string;
  trackCwd: boolean;
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

interface TaskEntry {
  taskId: string;
  run: ShellRun;
  origin: TaskOrigin;
  description?: string;
  status: TaskStatus;
  survivors: Survivor[];
  endedAt?: number;
  stoppedBy?: StoppedBy;
  done: Promise<TaskInfo>;
}

/** Finished tasks kept per session for tasks/list and TaskStop's "already exited" answer. */
const FINISHED_TASKS_KEPT = 200;
/** Notices waiting for the next MCP/CLI result. */
const PENDING_NOTICES_KEPT = 50;

// Process-wide on purpose: run markers (`<process token>.<tag>.<seq>`) and output file names
// (`<task id>.log` in the process's output directory) must not collide between cores of one process.
let nextSessionTag = 1;
const usedTaskIds = new Set<string>();

/** Short, random (so an id from an earlier core can never name a new task), unique in this process. */
export function newTaskId(): string {
  for (;;) {
    const id = "b" + (randomBytes(4).readUInt32BE(0) % 36 ** 6).toString(36).padStart(6, "0");
    if (!usedTaskIds.has(id)) {
      usedTaskIds.add(id);
      return id;
    }
  }
}

export class TaskManager implements SessionService {
  /** Distinguishes this session's run markers from other sessions' (`<token>.<tag>.<seq>`). */
  readonly tag = nextSessionTag++;
  private seq = 0;
  private readonly tasks = new Map<string, TaskEntry>();
  /** Runs whose processes may still be alive (running, or finished with survivors). */
  private readonly liveRuns = new Set<ShellRun>();
  private notices: TaskInfo[] = [];
  private disposing: Promise<void> | undefined;
  /** The next command's shell, started ahead (shell/warm.ts), and its start while under way. */
  private warm: WarmShell | undefined;
  private warming: Promise<void> | undefined;

  constructor(
    readonly session: Session,
    private readonly engine: ShellEngine,
  ) {}

  get markerPrefix(): string {
    return `${PROCESS_TOKEN}.${this.tag}.`;
  }

  get disposed(): boolean {
    return this.disposing !== undefined;
  }

  /**
   * Starts a command of this session. `name` names the output file (`<name>.log`); with
   * `separateStderr` stdout and stderr go to `<name>.stdout.log` and `<name>.stderr.log`.
   */
  async startRun(opts: RunOptions): Promise<ShellRun> {
    try {
      return await this.startRunIn(opts);
    } catch (err) {
      throw filesNotWritten(err);
    }
  }

  private async startRunIn(opts: RunOptions): Promise<ShellRun> {
    if (this.disposed) throw new Error(`Session ${this.session.id} has ended; start a new session to run commands.`);
    // Only a run named like the next one can be the shell started for it (a background task's
    // leaves it waiting for the next command); the rest is compared whole when it is taken.
    const warm = this.warm;
    const fits = warm !== undefined && opts.name === undefined && (opts.separateStderr === true) === (warm.spec.stderrPath !== undefined);
    let run: ShellRun | undefined;
    if (warm && fits) {
      this.warm = undefined;
      try {
        const spec = this.runSpec(opts, warm.spec);
        run = await warm.take(spec, await planRun(spec));
      } finally {
        if (!run) warm.discard();
      }
    }
    run ??= await startShellRun(this.runSpec(opts));
    if (run.policy) sandboxGuard.watch(run, run.policy, run.policy.gitRoots, os.homedir());
    this.liveRuns.add(run);
    if (this.disposed) void run.stop();
    return run;
  }

  /** The spec of a run of this session: the next marker and output file names, or those of the shell started `ahead`. */
  private runSpec(opts: RunOptions, ahead?: RunSpec): RunSpec {
    let files: Pick<RunSpec, "runId" | "outputPath" | "stderrPath">;
    if (ahead) {
      files = { runId: ahead.runId, outputPath: ahead.outputPath, ...(ahead.stderrPath !== undefined ? { stderrPath: ahead.stderrPath } : {}) };
    } else {
      const seq = ++this.seq;
      const stem = path.join(processOutputDir(), opts.name ?? `run-${this.tag}-${seq}`);
      files = {
        runId: `${this.markerPrefix}${seq}`,
        outputPath: opts.separateStderr ? `${stem}.stdout.log` : `${stem}.log`,
        ...(opts.separateStderr ? { stderrPath: `${stem}.stderr.log` } : {}),
      };
    }
    return {
      command: opts.command,
      cwd: opts.cwd,
      ...files,
      ...(opts.shellKind ? { shellKind: opts.shellKind } : {}),
      trackCwd: opts.trackCwd,
      shimsEnabled: opts.shimsEnabled,
      ...(opts.plain ? { plain: true } : {}),
      engine: this.engine,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    };
  }

  /**
   * A foreground run ended; forget it unless it left processes behind (the session end stops those).
   * The next command will likely be started the same way: its shell is started now, ahead of it.
   */
  runFinished(run: ShellRun, hasSurvivors: boolean): void {
    if (!hasSurvivors) this.liveRuns.delete(run);
    this.startAhead(run.spec);
  }

  /**
   * Starts the shell of a next run like `last` (same tool settings and sandbox plan, in the session's
   * cwd now) on the next turn of the event loop, after the current answer went out.
   */
  private startAhead(last: RunSpec): void {
    if (this.warm && !this.warm.usable) this.warm = undefined;
    if (!warmShellsEnabled() || this.disposed || this.warm || this.warming || (last.platform ?? hostPlatform()).name !== "linux") return;
    const opts = {
      command: "",
      cwd: this.session.cwd,
      trackCwd: last.trackCwd,
      shimsEnabled: last.shimsEnabled,
      separateStderr: last.stderrPath !== undefined,
      ...(last.shellKind ? { shellKind: last.shellKind } : {}),
      ...(last.sandbox ? { sandbox: last.sandbox } : {}),
    };
    const warming = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (this.disposed ? undefined : WarmShell.start(this.runSpec(opts))))
      .then((warm) => {
        if (!warm) return;
        if (this.disposed || this.warm) warm.discard();
        else this.warm = warm;
      })
      .catch((err: unknown) => log.debug("could not start a shell ahead", { error: err }))
      .finally(() => {
        if (this.warming === warming) this.warming = undefined;
      });
    this.warming = warming;
  }

  /**
   * Makes a running command a background task (run_in_background, timeout, Ctrl+B) and returns
   * its info. Throws when the session has ended (the caller stops the run instead).
   */
  adopt(run: ShellRun, opts: { origin: TaskOrigin; description?: string; taskId?: string }): TaskInfo {
    if (this.disposed) throw new Error(`Session ${this.session.id} has ended.`);
    const taskId = opts.taskId ?? newTaskId();
    const entry: TaskEntry = {
      taskId,
      run,
      origin: opts.origin,
      description: opts.description,
      status: "running",
      survivors: [],
      done: undefined as unknown as Promise<TaskInfo>,
    };
    entry.done = run.exited.then(() => this.settle(entry));
    this.tasks.set(taskId, entry);
    this.liveRuns.add(run);
    const info = this.info(entry);
    this.session.events.emit("task/started", { sessionId: this.session.id, task: info });
    return info;
  }

  private async settle(entry: TaskEntry): Promise<TaskInfo> {
    const status = entry.run.exitStatus!;
    // A stop in progress is still taking the rest of the tree down: survivors are counted after it.
    await entry.run.whenStopped();
    entry.survivors = await entry.run.findSurvivors().catch((err: unknown) => {
      log.debug("survivor scan failed", { taskId: entry.taskId, error: err });
      return [];
    });
    entry.run.discardCwdFile();
    // What the sandbox did to the task goes at the end of its output, where the agent reads it.
    for (const note of [...sandboxGuard.ended(entry.run, entry.survivors.length > 0), ...entry.run.takeSandboxNotes()]) {
      try {
        appendFileSync(entry.run.outputPath, `\n[wave] ${note}\n`);
      } catch (err) {
        log.debug("could not add the sandbox's note to the task output", { taskId: entry.taskId, error: err });
      }
    }
    entry.status = entry.stoppedBy ? "killed" : status.exitCode === 0 ? "completed" : "failed";
    entry.endedAt = Date.now();
    if (entry.survivors.length === 0) this.liveRuns.delete(entry.run);
    const info = this.info(entry);
    this.session.events.emit("task/finished", { sessionId: this.session.id, task: info, ...(entry.stoppedBy ? { stoppedBy: entry.stoppedBy } : {}) });
    if (entry.stoppedBy !== "agent" && entry.stoppedBy !== "session") {
      this.notices.push(info);
      // Host sessions never take their notices (hosts get task/finished): keep only the latest.
      if (this.notices.length > PENDING_NOTICES_KEPT) this.notices.splice(0, this.notices.length - PENDING_NOTICES_KEPT);
    }
    this.prune();
    return info;
  }

  private prune(): void {
    const finished = [...this.tasks.values()].filter((t) => t.status !== "running");
    for (const t of finished.slice(0, Math.max(0, finished.length - FINISHED_TASKS_KEPT))) this.tasks.delete(t.taskId);
  }

  private info(entry: TaskEntry): TaskInfo {
    const run = entry.run;
    const exit = run.exitStatus;
    const running = entry.status === "running";
    return {
      taskId: entry.taskId,
      sessionId: this.session.id,
      command: run.command,
      ...(entry.description ? { description: entry.description } : {}),
      origin: entry.origin,
      status: entry.status,
      ...(run.pid !== undefined ? { pid: run.pid } : {}),
      startedAt: new Date(run.startedAt).toISOString(),
      ...(entry.endedAt !== undefined ? { endedAt: new Date(entry.endedAt).toISOString() } : {}),
      runtimeMs: running ? Date.now() - run.startedAt : run.durationMs,
      exitCode: running ? null : (exit?.exitCode ?? null),
      signal: running ? null : (exit?.signal ?? null),
      outputPath: run.outputPath,
      survivors: entry.survivors,
    };
  }

  get(taskId: string): TaskInfo | undefined {
    const entry = this.tasks.get(taskId);
    return entry ? this.info(entry) : undefined;
  }

  list(): TaskInfo[] {
    return [...this.tasks.values()].map((e) => this.info(e));
  }

  /**
   * Stops a running task's whole tree and resolves with its final info once it has ended.
   * `stopped: false` when it had already ended; undefined when there is no such task.
   */
  async stop(taskId: string, by: StoppedBy): Promise<StopOutcome | undefined> {
    const entry = this.tasks.get(taskId);
    if (!entry) return undefined;
    if (entry.status !== "running" || !entry.run.running) {
      const task = await entry.done;
      if (task.survivors.length === 0) return { stopped: false, task };
      // The shell ended but left processes behind: they are part of the task, stop them.
      await entry.run.stop();
      entry.survivors = await entry.run.findSurvivors().catch(() => []);
      if (entry.survivors.length === 0) this.liveRuns.delete(entry.run);
      return { stopped: false, task: this.info(entry), stoppedSurvivors: task.survivors };
    }
    entry.stoppedBy ??= by;
    await entry.run.stop();
    return { stopped: true, task: await entry.done };
  }

  /** Finished-task notices not yet shown to the agent (for callers without host notifications). */
  takeNotices(): TaskInfo[] {
    const out = this.notices;
    this.notices = [];
    return out;
  }

  /** Stops every task and every straggler of this session's commands (BASH-KILL-5). */
  dispose(): Promise<void> {
    this.disposing ??= this.doDispose();
    return this.disposing;
  }

  private async doDispose(): Promise<void> {
    await this.warming;
    this.warm?.discard();
    this.warm = undefined;
    const running = [...this.tasks.values()].filter((t) => t.status === "running");
    for (const t of running) t.stoppedBy ??= "session";
    await Promise.all([...this.liveRuns].map((run) => run.stop()));
    await Promise.all(running.map((t) => t.done.catch(() => undefined)));
    const table = processTableFor(hostPlatform());
    if (table?.readsMarkers) {
      // Anything else that carries this session's marker (a run we lost track of).
      await killTree({ pid: undefined, marker: { prefix: this.markerPrefix }, label: `session ${this.session.id} stragglers` });
    }
    this.liveRuns.clear();
    this.notices = [];
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

export const TASKS = new ServiceKey<TaskManager, Session>("tasks", (session) => new TaskManager(session, session.coreServices.get(SHELL_ENGINE)));

/** Every task of these sessions, running and finished, oldest first. */
export function listTasks(sessions: Iterable<Session>): TaskInfo[] {
  const tasks: TaskInfo[] = [];
  for (const s of sessions) tasks.push(...(s.peekService(TASKS)?.list() ?? []));
  return tasks.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** Finds a task in any session of the core (task ids are unique per core process). */
export function findTaskManager(sessions: Iterable<Session>, taskId: string): TaskManager | undefined {
  for (const s of sessions) {
    const m = s.peekService(TASKS);
    if (m?.get(taskId)) return m;
  }
  return undefined;
}
