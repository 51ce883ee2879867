// Each session's background tasks (BASH-BG, BASH-KILL-4/5): commands started with
// run_in_background, moved there on timeout, or moved by the user (Ctrl+B). The commands
// themselves are started by the session's runs (shell/run/2-session.ts), which also stop whatever
// a session's commands left running when it ends; a task adopts a run started there.
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import type { Session, SessionService } from "../base/session.js";
import { ServiceKey } from "../base/services.js";
import { createLogger } from "../util/log.js";
import { RUNS, type SessionRuns, type ShellRun, type Survivor } from "../shell/run/index.js";
import { sandboxGuard } from "../shell/sandbox/guard.js";

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

// Process-wide on purpose: output file names (`<task id>.log` in the process's output directory)
// must not collide between cores of one process.
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
  private readonly tasks = new Map<string, TaskEntry>();
  private notices: TaskInfo[] = [];
  private disposing: Promise<void> | undefined;

  constructor(
    readonly session: Session,
    /** The session's runs, which start every command (created first, so disposed after this). */
    private readonly runs: SessionRuns,
  ) {}

  get disposed(): boolean {
    return this.disposing !== undefined;
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
    this.runs.keep(run);
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
    if (entry.survivors.length === 0) this.runs.forget(entry.run);
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
      if (entry.survivors.length === 0) this.runs.forget(entry.run);
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

  /** Stops every running task (BASH-KILL-5); the session's runs stop the rest after. */
  dispose(): Promise<void> {
    this.disposing ??= this.doDispose();
    return this.disposing;
  }

  private async doDispose(): Promise<void> {
    const running = [...this.tasks.values()].filter((t) => t.status === "running");
    for (const t of running) t.stoppedBy ??= "session";
    await Promise.all(running.map((t) => t.run.stop()));
    await Promise.all(running.map((t) => t.done.catch(() => undefined)));
    this.notices = [];
  }
}

export const TASKS = new ServiceKey<TaskManager, Session>("tasks", (session) => new TaskManager(session, session.service(RUNS)));

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
