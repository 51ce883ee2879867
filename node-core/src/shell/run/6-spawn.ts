// Stage 6: spawning. The run's files (output, stderr, the cwd file a sandbox binds writable, bwrap's
// report), the sandbox's wrapper around the invocation (launchOf), and the spawn itself:
// `<shell> -c <command>` (or bwrap … -- <shell> -c …) in its own process group, stdin /dev/null,
// stdout and stderr both the output file (so output is interleaved as produced, memory stays flat
// however much is printed, and background children holding the output never delay the result) —
// or, for run_shell_command, stdout and stderr each into a file of its own.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, constants as fsConstants, openSync, readFileSync, rm, rmSync } from "node:fs";
import path from "node:path";
import { createLogger } from "../../util/log.js";
import type { Invocation } from "../invocation.js";
import { processOutputDir } from "../outputDir.js";
import type { Wrapped } from "../sandbox/service.js";
import { ensureWatchdog } from "../watchdog.js";
import { SpawnFailed, type RunSpec } from "./1-request.js";
import type { RunPlan } from "./3-plan.js";

const log = createLogger("runner");

/** What a run's process is started as: the invocation, or the sandbox's wrapper around it. */
export type Launch = Wrapped;

/** `inv` as it is started: inside the sandbox when the spec's plan has one. Throws SpawnFailed. */
export function launchOf(spec: RunSpec, plan: RunPlan, inv: Invocation): Launch {
  if (!spec.sandbox?.wrap) return inv;
  try {
    return spec.sandbox.wrap({ file: inv.file, args: inv.args, env: inv.env, cwd: spec.cwd, runFiles: plan.runFiles });
  } catch (err) {
    throw new SpawnFailed(`Could not prepare the sandbox for the command: ${(err as Error).message}.`, err);
  }
}

/**
 * bwrap's `--info-fd` report, `{"child-pid": <the sandbox's first process>, …}`, in a file (read
 * only when a stop or a survivor scan needs it: no stream to service per command). The pid it
 * names is the reaper, pid 1 of the command's namespace, below which every process of it lives.
 */
export class SandboxReport {
  private pid: number | undefined;
  private removed = false;

  constructor(readonly file: string) {}

  /** The reaper's pid, once bwrap wrote it (read once, kept after). */
  reaper(): number | undefined {
    if (this.pid === undefined && !this.removed) this.pid = sandboxReaperPid(this.file);
    return this.pid;
  }

  /** Removes the file (off the result's path), keeping the pid if it was read; `keep` reads it first. */
  remove(keep: boolean): void {
    if (this.removed) return;
    if (keep) this.reaper();
    this.removed = true;
    rm(this.file, { force: true }, (err) => {
      if (err) log.debug("could not remove the sandbox report", { file: this.file, error: err });
    });
  }
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

export interface Spawned {
  child: ChildProcess;
  launch: Launch;
  /** Where bwrap's --info-fd report goes (sandboxed runs on Linux). */
  report: SandboxReport | undefined;
}

/** Never through a symlink: a sandbox binds these files writable, and a link would take it elsewhere. */
const NO_FOLLOW = fsConstants.O_NOFOLLOW ?? 0;

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
    throw new SpawnFailed(`Could not create the cwd file ${file} (${(err as NodeJS.ErrnoException).code ?? err}). Check that the directory is writable, or set WAVE_OUTPUT_DIR to one that is.`, err);
  }
}

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
      throw new SpawnFailed(
        `Could not open ${input.file} (${(err as NodeJS.ErrnoException).code ?? err}), which the sandbox needs. Restart the core; if it persists, set WAVE_OUTPUT_DIR to a writable directory.`,
        err,
      );
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
    const tooBig =
      (err as NodeJS.ErrnoException).code === "E2BIG"
        ? " The command and its environment together are larger than the system accepts: write the script to a file and run that file, or leave large values out of the environment."
        : "";
    throw new SpawnFailed(`Could not start ${launch.file}: ${(err as Error).message}.${tooBig}`, err);
  }
  // The child has its own copies now; ours would only keep the files open.
  closeOutputs();
  closeInfo();
  return { child, launch, report: infoFile !== undefined ? new SandboxReport(infoFile) : undefined };
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
