// Stage 4: launchers. A launcher turns a request into a running command. There are two:
//  - the cold launcher (here): plan, spawn, handle — a new process for every command;
//  - the shell started ahead (5-ahead.ts): a sandboxed shell the core started between two commands,
//    waiting for the next one, used only when it is exactly what the cold launch would start.
// Which one is asked is decided in one place: SessionRuns.launchersFor (2-session.ts).
import { watchGroup } from "../watchdog.js";
import type { RunRequest, RunSpec } from "./1-request.js";
import { planRun } from "./3-plan.js";
import { notStarted, spawnRun } from "./6-spawn.js";
import { ShellRun } from "./7-handle.js";

export interface Launcher {
  /** Named in logs and tests. */
  readonly kind: "cold" | "ahead";
  /**
   * Starts `request` as a run of its session, or undefined when this launcher cannot (the next one
   * is asked). Throws ShellNotFound or SpawnFailed, whose messages say what to do.
   */
  start(request: RunRequest): Promise<ShellRun | undefined>;
  /** A run of the session ended (its result is out): the next is likely started the same way. */
  runEnded(spec: RunSpec): void;
  /** The session ends: whatever the launcher keeps goes. */
  dispose(): Promise<void>;
}

/** The run's marker and files (the session's next, or those a shell started ahead was started with). */
export type RunFiles = Pick<RunSpec, "runId" | "outputPath" | "stderrPath">;

/** Gives a request its identity: the session's next marker and files, or `files` when given. */
export type NameRun = (request: RunRequest, files?: RunFiles) => RunSpec;

/** A new shell for every command. Always starts (or throws). */
export class ColdLauncher implements Launcher {
  readonly kind = "cold";

  constructor(private readonly name: NameRun) {}

  start(request: RunRequest): Promise<ShellRun> {
    return startShellRun(this.name(request));
  }

  runEnded(): void {}

  async dispose(): Promise<void> {}
}

/**
 * The cold start of one run: plan (3), spawn (6), handle (7). Throws ShellNotFound (no usable
 * shell) or SpawnFailed (the shell or the output file could not be opened).
 */
export async function startShellRun(spec: RunSpec): Promise<ShellRun> {
  const plan = await planRun(spec);
  const { child, launch, report } = spawnRun(spec, plan, plan.inv);
  const run = new ShellRun({ child, spec, plan, launch, ...(report ? { report } : {}) });
  if (child.pid === undefined) throw notStarted(plan, launch, (await run.exited).error);
  watchGroup(child.pid);
  return run;
}
