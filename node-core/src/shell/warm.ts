// A shell started ahead of its command. Between two commands of a session the core starts the next
// shell — bash, its environment, its output file, its sandbox — and leaves it waiting on a socket.
// The next command that would start exactly that process is handed to it instead: it becomes
// `<shell> -c <command>` by exec, so the command runs in the same process, with the same argv,
// environment, descriptors, process group and namespaces as a shell started for it, without the
// fork from the core (slower the larger the core's memory) and the sandbox's set-up on its path.
//
// The waiting shell is a small bash script (the loader) that reads nothing from anywhere but the
// core's socket, runs no start-up file, and writes nothing. It is used only when everything about it
// is still what a new start would produce, checked at the moment of use:
//  - the launch: argv (sandbox options included, recomputed from the file system now: every git
//    repository, credential store, socket and setting), environment, working directory, output
//    files, the seccomp program and the filtered copies' content: compared as a whole, so any
//    settings, rule, environment or protected-path change means a new start;
//  - that its working directory and output files are still the ones at those paths (not deleted and
//    recreated meanwhile);
//  - in the sandbox, that its mount table is exactly what bwrap set up: a protected file replaced by
//    rename since (as `git config` does) detaches its read-only mount, and that shell is not used.
// Anything else — zsh, Windows and macOS, a long command (bash reads the socket a byte at a time),
// an environment that changes how bash runs the loader — starts a shell for the command as before.
import type { ChildProcess } from "node:child_process";
import { lstatSync, readFileSync, statSync } from "node:fs";
import type { Socket } from "node:net";
import { createLogger } from "../util/log.js";
import { singleQuoted } from "../util/text.js";
import { STARTUP_FILE_VARIABLES, type Invocation } from "./invocation.js";
import { removeFilesLater } from "./outcome.js";
import { lastAllocatedPid } from "./processTable.js";
import { launchOf, planRun, sandboxReaperPid, ShellRun, spawnRun, type Launch, type RunPlan, type RunSpec, type Spawned } from "./runner.js";
import type { SandboxPolicy } from "./sandbox/policy.js";
import { unwatchGroup, watchGroup } from "./watchdog.js";

const log = createLogger("warm");

/** Longer commands start a shell of their own: the loader reads its socket one byte per system call. */
export const WARM_COMMAND_MAX_BYTES = 2048;
/** A shell left waiting this long goes: it holds its workspace's mounts and a process slot. */
export const WARM_IDLE_MS = 120_000;
/** The loader's end of the socket. Above bwrap's --info-fd (3). */
export const WARM_CHANNEL_FD = 4;
/** How long a command waits for a sandboxed shell still being set up before it starts its own. */
const READY_WAIT_MS = 2000;

/** `WAVE_WARM_SHELL=0` turns shells started ahead off (each command then starts its own). */
export function warmShellsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WAVE_WARM_SHELL !== "0";
}

/**
 * Why an environment cannot run the loader as written, or undefined: exported functions could
 * stand in for `read` and `exec`, and these variables change how bash itself parses, traces or
 * reads before the command's own shell starts.
 */
export function warmUnfitEnvironment(env: Record<string, string>): string | undefined {
  for (const name of Object.keys(env)) {
    if (name.startsWith("BASH_FUNC_")) return `the environment exports the shell function ${name}`;
    if (name.startsWith("__wave_warm")) return `the environment sets ${name}`;
  }
  for (const name of ["SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT", "BASH_XTRACEFD", "BASH_COMPAT"]) {
    if (env[name] !== undefined) return `the environment sets ${name}`;
  }
  return undefined;
}

/** The first byte of what the core sends: the command runs with the start-up file, or plain (RunPlan.inv). */
const WITH_STARTUP_FILE = "S";
const PLAIN = "P";

/**
 * The loader: tells the core it runs, takes one NUL-terminated command from the socket (nothing
 * happens on EOF: the core discarded it or died), closes the socket and becomes the command's
 * shell: BASH_ENV set back for it, or for a plain run without the variables only the start-up file
 * reads (withoutStartupFile). Its own variable is not exported, so the command's environment is
 * the one the shell was started with.
 */
export function warmLoader(shellPath: string, bashEnv: string, fd: number = WARM_CHANNEL_FD): string {
  const shell = singleQuoted(shellPath);
  return (
    `printf R >&${fd}; IFS= read -r -d '' -u ${fd} __wave_warm_command || exit 0; exec ${fd}<&-; ` +
    `case $__wave_warm_command in ${PLAIN}*) unset ${STARTUP_FILE_VARIABLES.join(" ")}; exec ${shell} -c "\${__wave_warm_command#${PLAIN}}" ;; esac; ` +
    `BASH_ENV=${singleQuoted(bashEnv)} exec ${shell} -c "\${__wave_warm_command#${WITH_STARTUP_FILE}}"`
  );
}

/** The loader's invocation for a run's: the same shell and environment, without BASH_ENV (the loader reads no start-up file). */
export function loaderInvocation(inv: Invocation): Invocation | undefined {
  const bashEnv = inv.env.BASH_ENV;
  if (bashEnv === undefined) return undefined;
  const env = { ...inv.env };
  delete env.BASH_ENV;
  return { file: inv.file, args: ["-c", warmLoader(inv.file, bashEnv)], env };
}

/** Everything a launch is: compared whole between the shell started ahead and a new start. */
function launchKey(spec: RunSpec, launch: Launch): string {
  return JSON.stringify([launch.file, launch.args, launch.env, launch.infoFd ?? null, launch.inputFd ?? null, launch.fingerprint ?? null, spec.cwd, spec.outputPath, spec.stderrPath ?? null]);
}

/** Why a run cannot use (or be) a shell started ahead, or undefined. */
function unfitRun(spec: RunSpec, plan: RunPlan): string | undefined {
  if (plan.platform.name !== "linux") return `runs on ${plan.platform.name}`;
  if (plan.shell.kind !== "bash") return `the shell is ${plan.shell.kind}`;
  if (spec.sandbox?.wrap && spec.sandbox.kind !== "bubblewrap") return `the sandbox is ${spec.sandbox.kind}`;
  return warmUnfitEnvironment(plan.withStartupFile.env);
}

/** Same file (device and inode): `link` is followed (a /proc link); `file` only when `follow` (never an output path: a link planted there is not our file). */
function sameFile(link: string, file: string, follow: boolean): boolean {
  try {
    const x = statSync(link, { throwIfNoEntry: false });
    const y = follow ? statSync(file, { throwIfNoEntry: false }) : lstatSync(file, { throwIfNoEntry: false });
    return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export class WarmShell {
  private readonly child: ChildProcess;
  private readonly channel: Socket;
  private readonly idleTimer: NodeJS.Timeout;
  /** Resolves with the loader's pid (in the core's namespace) once it runs, or undefined if it never does. */
  private readonly ready: Promise<number | undefined>;
  /** The sandbox's mount table when the loader started: any change since means another start. */
  private mounts: string | undefined;
  private finished = false;

  private constructor(
    readonly spec: RunSpec,
    private readonly plan: RunPlan,
    private readonly spawned: Spawned,
    private readonly key: string,
    idleMs: number,
  ) {
    this.child = spawned.child;
    this.channel = this.child.stdio[WARM_CHANNEL_FD] as Socket;
    // A shell waiting for a command keeps nothing alive: a core that is done exits.
    this.child.unref();
    this.channel.unref();
    this.child.once("exit", () => this.discard());
    this.channel.on("error", () => this.discard());
    this.ready = new Promise((resolve) => {
      this.channel.once("data", () => void this.findLoader().then(resolve));
      this.channel.once("close", () => resolve(undefined));
    });
    void this.ready.then((pid) => {
      if (pid !== undefined && this.sandboxed) this.mounts = readText(`/proc/${pid}/mountinfo`);
    });
    this.idleTimer = setTimeout(() => this.discard(), idleMs);
    this.idleTimer.unref();
  }

  /**
   * Starts the shell the run `spec` would start, waiting for its command; undefined when such a run
   * cannot use one (the reason is logged at debug level). Throws what a start would (SpawnFailed).
   * Unused for `idleMs`, it goes.
   */
  static async start(spec: RunSpec, idleMs: number = WARM_IDLE_MS): Promise<WarmShell | undefined> {
    const plan = await planRun(spec);
    const unfit = unfitRun(spec, plan);
    const inv = unfit ? undefined : loaderInvocation(plan.withStartupFile);
    if (!inv) {
      log.debug("no shell started ahead", { reason: unfit ?? "no BASH_ENV" });
      return undefined;
    }
    const spawned = spawnRun(spec, plan, inv, WARM_CHANNEL_FD);
    if (spawned.child.pid === undefined) {
      spawned.child.once("error", () => undefined);
      removeFilesLater([...plan.runFiles, spawned.infoFile]);
      return undefined;
    }
    watchGroup(spawned.child.pid);
    return new WarmShell(spec, plan, spawned, launchKey(spec, spawned.launch), idleMs);
  }

  private get sandboxed(): boolean {
    return this.spawned.launch.infoFd !== undefined;
  }

  get usable(): boolean {
    return !this.finished && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The loader's pid, waiting a little for bwrap's report, which its parent writes while the loader starts. */
  private async findLoader(): Promise<number | undefined> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const pid = this.loaderPid();
      if (pid !== undefined || !this.usable) return pid;
      await new Promise((r) => setTimeout(r, 5));
    }
    return undefined;
  }

  /** The loader's pid: the process the core started, or inside the sandbox the one child of bwrap's reaper. */
  private loaderPid(): number | undefined {
    const pid = this.child.pid;
    if (pid === undefined || !this.sandboxed) return pid;
    const reaper = this.spawned.infoFile === undefined ? undefined : sandboxReaperPid(this.spawned.infoFile);
    if (reaper === undefined) return undefined;
    const children = readText(`/proc/${reaper}/task/${reaper}/children`)?.trim().split(/\s+/).filter(Boolean);
    return children?.length === 1 ? Number(children[0]) : undefined;
  }

  /**
   * Runs `spec` in this shell when a new start would produce exactly this process (see the file's
   * head); otherwise discards it and returns undefined, and the caller starts the run itself. `plan`
   * is planRun(spec).
   */
  async take(spec: RunSpec, plan: RunPlan): Promise<ShellRun | undefined> {
    let run: ShellRun | undefined;
    try {
      run = await this.tryTake(spec, plan);
      return run;
    } finally {
      if (!run) this.discard();
    }
  }

  private async tryTake(spec: RunSpec, plan: RunPlan): Promise<ShellRun | undefined> {
    if (!this.usable) return undefined;
    if (spec.runId !== this.spec.runId || Buffer.byteLength(spec.command, "utf8") > WARM_COMMAND_MAX_BYTES) return undefined;
    // The launch compared whole covers what start() checked (shell, sandbox program, environment).
    const inv = loaderInvocation(plan.withStartupFile);
    if (!inv || launchKey(spec, launchOf(spec, plan, inv)) !== this.key) {
      log.debug("the shell started ahead no longer fits", { runId: spec.runId });
      return undefined;
    }
    const pid = this.sandboxed ? await withTimeout(this.ready, READY_WAIT_MS) : this.child.pid;
    if (pid === undefined || !this.usable) return undefined;
    // The output files through the process the core started: the loader's own stdout is the socket
    // for a moment while it says it runs (`printf R >&4` redirects it).
    const holder = this.child.pid;
    const stale = !sameFile(`/proc/${pid}/cwd`, spec.cwd, true)
      ? "its working directory was replaced"
      : !sameFile(`/proc/${holder}/fd/1`, spec.outputPath, false) || (spec.stderrPath !== undefined && !sameFile(`/proc/${holder}/fd/2`, spec.stderrPath, false))
        ? "its output file was replaced"
        : this.sandboxed && (this.mounts === undefined || readText(`/proc/${pid}/mountinfo`) !== this.mounts)
          ? "its sandbox's mounts changed"
          : this.sandboxed && missingMountPoints(this.mounts!, this.spawned.launch.policy)
            ? `its sandbox lost a protection (${missingMountPoints(this.mounts!, this.spawned.launch.policy)})`
            : undefined;
    if (stale) {
      log.debug(`the shell started ahead is not used: ${stale}`, { runId: spec.runId });
      return undefined;
    }
    // Before the command can fork: every process it starts gets a later pid.
    const floor = lastAllocatedPid();
    this.finished = true;
    clearTimeout(this.idleTimer);
    this.child.ref();
    const { shell, cwdFile, platform } = plan;
    const run = new ShellRun(this.child, spec, shell, cwdFile, plan.inv.env, platform, [plan.inv.file, ...plan.inv.args].join(" "), this.sandboxed, floor);
    run.policy = this.spawned.launch.policy;
    if (this.spawned.infoFile) run.setSandboxInfoFile(this.spawned.infoFile);
    this.channel.end(`${plan.inv === plan.withStartupFile ? WITH_STARTUP_FILE : PLAIN}${spec.command}\0`);
    return run;
  }

  /** Stops the waiting shell (it never ran anything) and removes its files. Safe to call more than once. */
  discard(): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.idleTimer);
    const pid = this.child.pid;
    // Its output files, unless something else took their place meanwhile (that is not ours to remove).
    // Looked at before the socket closes: the loader exits on end-of-file, and its descriptors with it.
    const alive = pid !== undefined && this.child.exitCode === null && this.child.signalCode === null;
    const ours = (file: string | undefined, fd: number) => file !== undefined && alive && sameFile(`/proc/${pid}/fd/${fd}`, file, false);
    const files = [this.plan.cwdFile, this.spawned.infoFile];
    if (ours(this.spec.outputPath, 1)) files.push(this.spec.outputPath);
    if (ours(this.spec.stderrPath, 2)) files.push(this.spec.stderrPath);
    if (pid !== undefined) {
      if (alive) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch (err) {
          log.debug("could not stop the shell started ahead", { pid, error: err });
        }
      }
      unwatchGroup(pid);
    }
    this.channel.destroy();
    removeFilesLater(files);
  }
}

/** mountinfo escapes space, tab, newline and backslash as \ooo. */
function unescapeMount(p: string): string {
  return p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/**
 * A protection the policy put on a path that has no mount point in the sandbox's table (the
 * table was first read after the user's tools replaced it by rename, which drops the mount), or
 * undefined when every one is there.
 */
function missingMountPoints(mountinfo: string, policy: SandboxPolicy | undefined): string | undefined {
  if (!policy) return undefined;
  const points = new Set(mountinfo.split("\n").map((l) => l.split(" ")[4]).filter((p): p is string => !!p).map(unescapeMount));
  return [...policy.readOnly, ...policy.denied.map((d) => d.path), ...policy.filtered.map((f) => f.path)].find((p) => !points.has(p));
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
    void p.then((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}
