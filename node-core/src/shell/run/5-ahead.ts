// Stage 5: the shell started ahead of its command — the second launcher (4-launcher.ts), for
// sandboxed commands only. Between two sandboxed commands of a session the core starts the next
// shell — bwrap, bash, its environment, its output file — and leaves it waiting on a socket. The
// next command that would start exactly that process is handed to it instead: it becomes
// `<shell> -c <command>` by exec, so the command runs in the same process, with the same argv,
// environment, descriptors, process group and namespaces as a cold start, without bwrap's set-up
// (~half of a sandboxed start) on its path. Unsandboxed commands always start cold: their plain
// spawn is already as fast as a raw spawn, and a waiting unsandboxed shell would only add risk.
//
// The waiting shell is a small bash script (the loader) that reads nothing from anywhere but the
// core's socket, runs no start-up file, and writes nothing. It is used only when, checked at the
// moment of use:
//  - its launch differs from the launch a cold start would use NOW (argv with every sandbox option
//    recomputed from the file system: git repositories, credential stores, sockets, settings;
//    environment; working directory; output files; seccomp program; filtered copies; policy) in
//    nothing but the fields of AHEAD_MAY_DIFFER below, each with the value the loader turns it into;
//  - its working directory and output files are still the ones at those paths (not deleted and
//    recreated meanwhile);
//  - its mount table is exactly what bwrap set up: a protected file replaced by rename since (as
//    `git config` does) detaches its read-only mount, and that shell is not used.
// Anything else — zsh, Windows and macOS, seatbelt, a long command (bash reads the socket a byte
// at a time), an environment that changes how bash runs the loader's own few steps — starts cold.
import type { ChildProcess } from "node:child_process";
import { lstatSync, readFileSync, statSync } from "node:fs";
import type { Socket } from "node:net";
import { createLogger } from "../../util/log.js";
import { singleQuoted } from "../../util/text.js";
import { STARTUP_FILE_VARIABLES, type Invocation } from "../invocation.js";
import { removeFilesLater } from "../outcome.js";
import { lastAllocatedPid } from "../processTable.js";
import type { SandboxPolicy } from "../sandbox/policy.js";
import { unwatchGroup, watchGroup } from "../watchdog.js";
import type { RunRequest, RunSpec } from "./1-request.js";
import { planRun, type RunPlan } from "./3-plan.js";
import type { Launcher, NameRun } from "./4-launcher.js";
import { launchOf, sandboxReaperPid, spawnRun, type Launch, type Spawned } from "./6-spawn.js";
import { ShellRun } from "./7-handle.js";

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
 * Why an environment cannot run the loader's own steps (printf, read, exec) as written, or
 * undefined. This is no argument that the command runs as in a cold start (AHEAD_MAY_DIFFER is):
 * it keeps the loader itself from being changed by what bash takes from the environment when it
 * starts — exported functions could stand in for `read` and `exec`, these variables change how
 * bash parses, traces or times out (TMOUT: `read`'s default timeout) before the command's own
 * shell starts. (`bash -p` ignores some of them, but rewrites SHELLOPTS for the command: no way out.)
 */
export function warmUnfitEnvironment(env: Record<string, string>): string | undefined {
  for (const name of Object.keys(env)) {
    if (name.startsWith("BASH_FUNC_")) return `the environment exports the shell function ${name}`;
    if (name.startsWith("__wave_warm")) return `the environment sets ${name}`;
  }
  for (const name of ["SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT", "BASH_XTRACEFD", "BASH_COMPAT", "TMOUT"]) {
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

/** A launch with what the spawn adds to it: the fields a waiting shell and a cold start are compared on. */
export interface LaunchView extends Launch {
  cwd: string;
  outputPath: string;
  stderrPath?: string;
}

/** One field in which two launches differ (`args[3]`, `env.PATH`, `cwd`, `policy`, ...). */
export interface LaunchDifference {
  field: string;
  waiting: unknown;
  cold: unknown;
}

/** Every field in which `waiting` and `cold` differ: argv element by element, the environment variable by variable, the rest whole. */
export function launchDifferences(waiting: LaunchView, cold: LaunchView): LaunchDifference[] {
  const out: LaunchDifference[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const field = (name: string, a: unknown, b: unknown) => {
    if (!same(a, b)) out.push({ field: name, waiting: a, cold: b });
  };
  field("file", waiting.file, cold.file);
  field("args.length", waiting.args.length, cold.args.length);
  const last = Math.max(waiting.args.length, cold.args.length) - 1;
  for (let i = 0; i <= last; i++) field(i === last ? "args[last]" : `args[${i}]`, waiting.args[i], cold.args[i]);
  for (const name of new Set([...Object.keys(waiting.env), ...Object.keys(cold.env)])) field(`env.${name}`, waiting.env[name], cold.env[name]);
  field("cwd", waiting.cwd, cold.cwd);
  field("outputPath", waiting.outputPath, cold.outputPath);
  field("stderrPath", waiting.stderrPath, cold.stderrPath);
  field("infoFd", waiting.infoFd, cold.infoFd);
  field("inputFd", waiting.inputFd, cold.inputFd);
  field("fingerprint", waiting.fingerprint, cold.fingerprint);
  field("policy", waiting.policy, cold.policy);
  return out;
}

/**
 * THE ALLOW-LIST: the only fields in which a waiting shell's launch may differ from the cold launch
 * of the command it is given, and the one value each must have — what the loader turns it into by
 * its exec. Any other difference (a variable added, removed or changed, the working directory, the
 * shell, an output file, a bwrap option or mount, the seccomp program, a filtered copy, the policy)
 * means the command starts cold.
 *  - args[last], the script of `<shell> -c <script>`: the loader, `warmLoader(<cold's shell>, <cold's
 *    BASH_ENV>)`, in place of the command — the loader execs `<shell> -c <command>`, which is the
 *    cold argv exactly (so the shell and BASH_ENV it names must be cold's).
 *  - env.BASH_ENV, for a command with the start-up file: absent from the loader's environment (it
 *    reads no start-up file), set back by the loader to the value the script names (cold's).
 *  - env.WAVE_CWD_FILE, env.WAVE_CWD_START, env.WAVE_SHIMS_FILE, for a plain command: the loader
 *    waits as a run with the start-up file and unsets exactly these (withoutStartupFile) before it
 *    execs a plain `bash -c`, so they must be absent from cold's.
 */
export const AHEAD_MAY_DIFFER: Readonly<Record<string, (d: LaunchDifference, cold: { plan: RunPlan; plain: boolean }) => boolean>> = {
  "args[last]": (d, { plan }) =>
    plan.withStartupFile.env.BASH_ENV !== undefined && d.cold === plan.inv.args[plan.inv.args.length - 1] && d.waiting === warmLoader(plan.shell.path, plan.withStartupFile.env.BASH_ENV),
  "env.BASH_ENV": (d, { plan, plain }) => !plain && d.waiting === undefined && d.cold === plan.withStartupFile.env.BASH_ENV,
  ...Object.fromEntries(
    STARTUP_FILE_VARIABLES.filter((v) => v !== "BASH_ENV").map((v) => [
      `env.${v}`,
      (d: LaunchDifference, { plan, plain }: { plan: RunPlan; plain: boolean }) => plain && d.cold === undefined && d.waiting === plan.withStartupFile.env[v],
    ]),
  ),
};

/** The differences between a waiting shell and the cold launch of `plan` that the allow-list does not explain (empty: it may be used). */
export function unexplainedDifferences(waiting: LaunchView, cold: LaunchView, plan: RunPlan): LaunchDifference[] {
  const plain = plan.inv !== plan.withStartupFile;
  return launchDifferences(waiting, cold).filter((d) => !AHEAD_MAY_DIFFER[d.field]?.(d, { plan, plain }));
}

const viewOf = (spec: RunSpec, launch: Launch): LaunchView => ({ ...launch, cwd: spec.cwd, outputPath: spec.outputPath, ...(spec.stderrPath !== undefined ? { stderrPath: spec.stderrPath } : {}) });

/** Why a run cannot use (or be) a shell started ahead, or undefined. */
function unfitRun(spec: RunSpec, plan: RunPlan): string | undefined {
  if (plan.platform.name !== "linux") return `runs on ${plan.platform.name}`;
  if (plan.shell.kind !== "bash") return `the shell is ${plan.shell.kind}`;
  if (!spec.sandbox?.wrap) return "it runs outside the sandbox";
  if (spec.sandbox.kind !== "bubblewrap") return `the sandbox is ${spec.sandbox.kind}`;
  return warmUnfitEnvironment(plan.withStartupFile.env);
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
      if (pid !== undefined) this.mounts = readText(`/proc/${pid}/mountinfo`);
    });
    this.idleTimer = setTimeout(() => this.discard(), idleMs);
    this.idleTimer.unref();
  }

  /**
   * Starts the shell the sandboxed run `spec` would start, waiting for its command; undefined when
   * such a run cannot use one (the reason is logged at debug level). Throws what a start would
   * (SpawnFailed). Unused for `idleMs`, it goes.
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
      removeFilesLater([...plan.runFiles, spawned.report?.file]);
      return undefined;
    }
    watchGroup(spawned.child.pid);
    return new WarmShell(spec, plan, spawned, idleMs);
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

  /** The loader's pid: inside the sandbox, the one child of bwrap's reaper. */
  private loaderPid(): number | undefined {
    const reaper = this.spawned.report === undefined ? undefined : sandboxReaperPid(this.spawned.report.file);
    if (reaper === undefined) return undefined;
    const children = readText(`/proc/${reaper}/task/${reaper}/children`)?.trim().split(/\s+/).filter(Boolean);
    return children?.length === 1 ? Number(children[0]) : undefined;
  }

  /**
   * Runs `spec` in this shell when a cold start would produce exactly this process (see the file's
   * head); otherwise discards it and returns undefined, and the caller starts the run cold. `plan`
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
    const unfit = unfitRun(spec, plan);
    if (unfit) {
      log.debug(`the shell started ahead is not used: ${unfit}`, { runId: spec.runId });
      return undefined;
    }
    // The waiting launch against the cold launch of this very command, now: only the allow-list may differ.
    const differences = unexplainedDifferences(viewOf(this.spec, this.spawned.launch), viewOf(spec, launchOf(spec, plan, plan.inv)), plan);
    if (differences.length > 0) {
      log.debug("the shell started ahead no longer fits", { runId: spec.runId, fields: differences.map((d) => d.field) });
      return undefined;
    }
    const pid = await withTimeout(this.ready, READY_WAIT_MS);
    if (pid === undefined || !this.usable) return undefined;
    // The output files through the process the core started: the loader's own stdout is the socket
    // for a moment while it says it runs (`printf R >&4` redirects it).
    const holder = this.child.pid;
    const stale = !sameFile(`/proc/${pid}/cwd`, spec.cwd, true)
      ? "its working directory was replaced"
      : !sameFile(`/proc/${holder}/fd/1`, spec.outputPath, false) || (spec.stderrPath !== undefined && !sameFile(`/proc/${holder}/fd/2`, spec.stderrPath, false))
        ? "its output file was replaced"
        : this.mounts === undefined || readText(`/proc/${pid}/mountinfo`) !== this.mounts
          ? "its sandbox's mounts changed"
          : missingMountPoints(this.mounts, this.spawned.launch.policy)
            ? `its sandbox lost a protection (${missingMountPoints(this.mounts, this.spawned.launch.policy)})`
            : undefined;
    if (stale) {
      log.debug(`the shell started ahead is not used: ${stale}`, { runId: spec.runId });
      return undefined;
    }
    // Before the command can fork: every process it starts gets a later pid.
    const pidFloor = lastAllocatedPid();
    this.finished = true;
    clearTimeout(this.idleTimer);
    this.child.ref();
    const { launch, report } = this.spawned;
    const run = new ShellRun({ child: this.child, spec, plan, launch, ...(report ? { report } : {}), ...(pidFloor !== undefined ? { pidFloor } : {}) });
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
    const files = [this.plan.cwdFile, this.spawned.report?.file];
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

/**
 * The launcher of shells started ahead: one waiting shell per session at most, started after a
 * sandboxed run ended, for the next run like it; asked first for sandboxed commands (2-session.ts).
 */
export class AheadLauncher implements Launcher {
  readonly kind = "ahead";
  /** The next command's shell, started ahead, and its start while under way. */
  private warm: WarmShell | undefined;
  private warming: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly name: NameRun,
    /** The session's directory now (where the next command most likely starts). */
    private readonly sessionCwd: () => string,
  ) {}

  /** The waiting shell's run, when there is one (tests). */
  get waiting(): WarmShell | undefined {
    return this.warm;
  }

  async start(request: RunRequest): Promise<ShellRun | undefined> {
    // Only a run named like the next one can be the shell started for it (a background task's
    // leaves it waiting for the next command); the rest is compared when it is taken.
    const warm = this.warm;
    if (!warm || request.name !== undefined || (request.separateStderr === true) !== (warm.spec.stderrPath !== undefined)) return undefined;
    this.warm = undefined;
    let run: ShellRun | undefined;
    try {
      const { runId, outputPath, stderrPath } = warm.spec;
      const spec = this.name(request, { runId, outputPath, ...(stderrPath !== undefined ? { stderrPath } : {}) });
      run = await warm.take(spec, await planRun(spec));
      return run;
    } finally {
      if (!run) warm.discard();
    }
  }

  /**
   * Starts the shell of a next run like `last` (same tool settings and sandbox plan, in the session's
   * cwd now) on the next turn of the event loop, after the current answer went out.
   */
  runEnded(last: RunSpec): void {
    if (this.warm && !this.warm.usable) this.warm = undefined;
    if (this.disposed || this.warm || this.warming) return;
    const request: RunRequest = {
      command: "",
      cwd: this.sessionCwd(),
      trackCwd: last.trackCwd,
      shimsEnabled: last.shimsEnabled,
      separateStderr: last.stderrPath !== undefined,
      ...(last.shellKind ? { shellKind: last.shellKind } : {}),
      ...(last.sandbox ? { sandbox: last.sandbox } : {}),
    };
    const warming = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (this.disposed ? undefined : WarmShell.start(this.name(request))))
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

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.warming;
    this.warm?.discard();
    this.warm = undefined;
  }
}

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
  const points = new Set(
    mountinfo
      .split("\n")
      .map((l) => l.split(" ")[4])
      .filter((p): p is string => !!p)
      .map(unescapeMount),
  );
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
