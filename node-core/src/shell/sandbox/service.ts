// The core's sandbox: what the user asked for (settings.sandbox over --sandbox over the default
// `auto`), what this machine offers (detect.ts), and for each shell command the plan it runs by —
// inside the sandbox, outside it (and why), or not at all. One per core.
//
// The plan is made once per call, before the permission check, and the same plan is what the
// command then runs under: the gate's "runs inside the sandbox" is never a guess.
import { closeSync, existsSync, mkdirSync, openSync, realpathSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EventBus } from "../../base/events.js";
import { isWithin } from "../../util/paths.js";
import { accountHome, LOCK_FOLDER, waveStateDirectories } from "../../base/stateDir.js";
import type { Session } from "../../base/session.js";
import type { Workspace } from "../../base/workspace.js";
import { loginEnvironmentStatus } from "../../env/index.js";
import type { PermissionMode, SandboxMode, SandboxNetwork, SandboxSettings } from "../../base/settings.js";
import { createLogger } from "../../util/log.js";
import { settingDirectories } from "../cwd.js";
import { processOutputDir } from "../outputDir.js";
import { hostPlatform, type Platform } from "../../util/platform.js";
import type { PlatformName } from "../../util/platform.js";
import { addWritablePlaces, untrustedProgram } from "../../util/programTrust.js";
import { liveInjectionDirs } from "../shims/injectionFiles.js";
import { sandboxAvailability, type SandboxAvailability, type SandboxKind } from "./detect.js";
import { writeFilteredCopy } from "./filtered.js";
import { sandboxGuard } from "./guard.js";
import { BWRAP_INFO_FD, BWRAP_SECCOMP_FD, bwrapArgs, type MaskFiles } from "./linux.js";
import { sandboxExecArgs } from "./macos.js";
import { buildPolicy, cacheDirectories, type SandboxPolicy } from "./policy.js";
import { encodeProgram, seccompProgram } from "./seccomp.js";
import { socketsToMask } from "./sockets.js";
import type { SandboxCliOptions } from "./settings.js";

const log = createLogger("sandbox");

/** What `env/status`, `env/statusChanged` and `wave-core env` report (PROTOCOL.md `SandboxStatus`). */
export type SandboxStatus = {
  /** Shell commands run inside an OS sandbox now. */
  active: boolean;
  kind: SandboxKind;
  /** What sandboxed commands may do on the network (`allow` whenever no sandbox is active). */
  network: SandboxNetwork;
  /** Why no sandbox is active. */
  reason?: string;
  /** What to install or change to get one. */
  remedy?: string;
};

/** A command as the runner would start it. */
export interface WrapInput {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Files this command writes by path: its output file(s) and cwd file. */
  runFiles: string[];
}

export interface Wrapped {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** A descriptor the wrapper writes its JSON info to (bwrap's --info-fd); the runner passes it a pipe. */
  infoFd?: number;
  /** A file the runner opens read-only on descriptor `fd` for the wrapper (bwrap's --seccomp program). */
  inputFd?: { fd: number; file: string };
  /** The policy the command runs under (what guard.ts watches, and compares after it). */
  policy?: SandboxPolicy;
  /**
   * What the argv does not show but the sandbox's content depends on (the filtered copies, by
   * inode: a copy is written anew only when its content changed). A shell started ahead compares it.
   */
  fingerprint?: string;
}

/** How one command runs. */
export interface SandboxPlan {
  sandboxed: boolean;
  kind: SandboxKind;
  network: SandboxNetwork;
  /** Why it runs outside the sandbox (when it does). */
  outsideReason?: string;
  /** The kind of reason: the call asked for it, the user turned the sandbox off, or none is available. */
  outsideCause?: "escape" | "off" | "unavailable";
  /** Set when it must not run at all: the text of the error result. */
  refusal?: string;
  /** Puts the command inside the sandbox (only when sandboxed). */
  wrap?: (cmd: WrapInput) => Wrapped;
}

export interface SandboxDeps {
  workspace: Workspace;
  events: EventBus;
  cli?: SandboxCliOptions;
  /** The permission mode in force: `deny-all` implies network `deny`. */
  permissionMode: () => PermissionMode;
  platform?: Platform;
  /** The environment the program is looked up in (the core's at start). */
  env?: NodeJS.ProcessEnv;
}

interface Effective {
  mode: SandboxMode;
  modeSource: string;
  network: SandboxNetwork;
  networkSource: string;
  settings: SandboxSettings;
}

export const ESCAPE_REASON = "the call set dangerouslyDisableSandbox";

export class SandboxService {
  private readonly platform: Platform;
  private readonly availability: Promise<SandboxAvailability>;
  private landed: SandboxAvailability | undefined;
  private lastSettings: SandboxSettings | undefined;
  private lastReported: string | undefined;
  private readonly unsubscribe: Array<() => void> = [];
  private readonly warnedIgnored = new Set<string>();

  constructor(private readonly deps: SandboxDeps) {
    this.platform = deps.platform ?? hostPlatform();
    // Checked from the next turn of the event loop on: the probe's fork and exec of bwrap (a few
    // milliseconds) never delays what the core is answering now, such as `initialize`.
    const env = deps.env ?? process.env;
    this.availability = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => sandboxAvailability(this.platform, env, this.startWritablePlaces()))
      .then((a) => {
        this.landed = a;
        if (!a.available) log.info("no OS sandbox: shell commands run unsandboxed", { reason: a.reason, remedy: a.remedy });
        for (const r of a.refused ?? []) log.warn(`a bubblewrap program was refused: ${r.program}`, { reason: r.reason });
        this.refresh();
        return a;
      });
    this.unsubscribe.push(addWritablePlaces(() => this.startWritablePlaces()));
    this.unsubscribe.push(deps.workspace.onSettingsChanged(() => this.refresh()));
    this.unsubscribe.push(
      deps.events.subscribe((method: string) => {
        if (method === "permission/rulesChanged") this.refresh();
      }),
    );
  }

  /** The places sandboxed commands may write as known at start (the workspace, settings, caches, TMPDIR): no program there is run. */
  private startWritablePlaces(): string[] {
    const root = this.deps.workspace.root;
    const settings = this.effective().settings;
    const home = os.homedir();
    const resolve = (p: string) => (p === "~" ? home : p.startsWith("~/") ? path.join(home, p.slice(2)) : path.resolve(root, p));
    return [root, ...settings.allowWrite.map(resolve), ...cacheDirectories(home, process.env), ...tmpDirIfAny()];
  }

  /** Resolves once the availability check has landed (a few milliseconds after the core starts). */
  async whenChecked(): Promise<void> {
    await this.availability;
  }

  dispose(): void {
    for (const u of this.unsubscribe.splice(0)) u();
  }

  /** `settings.sandbox` as read; its problems are logged once per value the host sends. */
  private settings(): SandboxSettings {
    const settings = this.deps.workspace.setting("sandbox");
    if (settings !== this.lastSettings) {
      this.lastSettings = settings;
      for (const problem of settings.problems) log.warn(problem);
    }
    return settings;
  }

  private effective(): Effective {
    const settings = this.settings();
    const cli = this.deps.cli ?? {};
    const mode = settings.mode ?? cli.mode ?? "auto";
    const modeSource = settings.mode ? "settings.sandbox.mode" : cli.mode ? "--sandbox" : "the default";
    const denyAll = this.deps.permissionMode() === "deny-all";
    const network = denyAll ? "deny" : (settings.network ?? cli.network ?? "allow");
    const networkSource = denyAll ? "the deny-all permission mode" : settings.network ? "settings.sandbox.network" : cli.network ? "--sandbox-network" : "the default";
    return { mode, modeSource, network, networkSource, settings };
  }

  private statusOf(a: SandboxAvailability | undefined): SandboxStatus {
    const e = this.effective();
    // The truth about what runs: a program that a sandboxed command could have replaced is no sandbox.
    if (a?.available && a.program) {
      const problem = this.programProblem(a.program, [this.deps.workspace.root, ...e.settings.allowWrite.map((p) => path.resolve(this.deps.workspace.root, p))]);
      if (problem) {
        a = { ...a, available: false, reason: `The sandbox program cannot be trusted: ${problem}.`, remedy: "Install bubblewrap system-wide (sudo apt-get install bubblewrap) and restart the core." };
      }
    }
    return describeSandbox(a, e, this.platform.name);
  }

  /** The status (waits for the availability check, a few milliseconds after start). */
  async status(): Promise<SandboxStatus> {
    return this.statusOf(await this.availability);
  }

  /** The status without waiting ("checking" while the check runs). */
  currentStatus(): SandboxStatus {
    return this.statusOf(this.landed);
  }

  /** The status for a notification the caller sends now: later changes are announced against it. */
  statusForNotification(): SandboxStatus {
    const status = this.currentStatus();
    this.lastReported = JSON.stringify(status);
    return status;
  }

  /**
   * Tells the host (env/statusChanged) when what it shows would change. The first status after
   * the check needs no notice unless the host heard another one ("checking"): env/status waits
   * for the check.
   */
  private refresh(): void {
    if (!this.landed) return;
    const status = this.statusOf(this.landed);
    const text = JSON.stringify(status);
    if (text === this.lastReported) return;
    const first = this.lastReported === undefined;
    this.lastReported = text;
    if (first) return;
    log.info("the sandbox status changed", status);
    this.deps.events.emit("env/statusChanged", { ...loginEnvironmentStatus(), sandbox: status });
  }

  /** Whether an ordinary command of `session` would run sandboxed (for permission previews). */
  async wouldSandbox(session: Session): Promise<{ sandboxed: boolean; reason?: string }> {
    const p = await this.plan({ session, escape: false });
    return p.sandboxed ? { sandboxed: true } : { sandboxed: false, reason: p.refusal ?? p.outsideReason };
  }

  /** How a command of `session` runs; `escape` = the call set dangerouslyDisableSandbox. */
  async plan(opts: { session: Session; escape: boolean }): Promise<SandboxPlan> {
    const a = await this.availability;
    const e = this.effective();
    const status = describeSandbox(a, e, this.platform.name);
    const base = { kind: status.kind, network: status.network };
    if (e.mode === "off") return { ...base, sandboxed: false, outsideCause: "off", outsideReason: `sandbox mode is "off" (${e.modeSource})` };
    if (opts.escape) {
      if (e.mode === "on") {
        return {
          ...base,
          sandboxed: false,
          refusal: `This call asked to run outside the sandbox (dangerouslyDisableSandbox), but sandbox mode is "on" (${e.modeSource}): commands never run outside it, so nothing ran. Run the command without dangerouslyDisableSandbox, or ask the user to set sandbox mode to "auto".`,
        };
      }
      return {
        ...base,
        sandboxed: false,
        outsideCause: "escape",
        outsideReason: status.active ? ESCAPE_REASON : `${ESCAPE_REASON}; besides, ${lowerFirst(status.reason ?? "no sandbox is available")}`,
      };
    }
    const dirs = this.writableRoots(opts.session, e.settings);
    const untrusted = a.available && a.program ? this.programProblem(a.program, dirs.all) : undefined;
    if (!a.available || untrusted) {
      const why = untrusted ? `the sandbox program cannot be trusted: ${untrusted}` : (a.reason ?? "no sandbox is available");
      const remedy = untrusted ? "Install bubblewrap system-wide (sudo apt-get install bubblewrap) and restart the core." : (a.remedy ?? "");
      if (e.mode === "on") {
        return { ...base, sandboxed: false, refusal: `The sandbox is required (sandbox mode "on", ${e.modeSource}) but not available: ${why} ${remedy} Nothing ran.`.replace(/\s+/g, " ").trim() };
      }
      return { ...base, sandboxed: false, outsideCause: "unavailable", outsideReason: lowerFirst(why).replace(/\.$/, "") };
    }
    const program = a.program!;
    const kind = a.kind;
    const network = e.network;
    const seccomp = kind === "bubblewrap" ? seccompFile(e.settings.allowUnixSockets.length === 0) : undefined;
    const resolve = dirs.resolve;
    // The ssh agent signs for whoever connects: with the network cut off it is never allowed.
    const agent = process.env.SSH_AUTH_SOCK;
    const allowSockets = e.settings.allowUnixSockets.map(resolve).filter((p) => network === "allow" || p !== agent);
    const blockedByFilter = kind === "bubblewrap" && seccomp?.denyUnix === true;
    const policyFor = (cmd: WrapInput): SandboxPolicy => {
      // Git metadata that appeared while a sandboxed command ran is looked at before this one is planned.
      const roots = canonicalAll([...dirs.allowed, ...dirs.allowWrite]).filter((p) => p !== "/" && !["/proc", "/sys", "/dev"].some((k) => isWithin(p, k)));
      const git = sandboxGuard.beforeRun(roots, os.homedir());
      return buildPolicy({
        git,
        home: os.homedir(),
        accountHome: accountHome(),
        env: process.env,
        allowedDirectories: dirs.allowed,
        allowWrite: dirs.allowWrite,
        denyRead: dirs.denyRead,
        stateDirectories: ensureStateDirectories(),
        tmpDir: privateTmpDir(),
        runFiles: cmd.runFiles,
        network,
        coreFiles: coreFiles(),
        unixSockets: blockedByFilter ? undefined : { allow: allowSockets, found: kind === "bubblewrap" ? socketsToMask(process.env) : [] },
        filteredCopy: (file, filter) => writeFilteredCopy(file, filter, path.join(sandboxDir(), "filtered")),
      });
    };
    const wrap = (cmd: WrapInput): Wrapped => {
      const policy = policyFor(cmd);
      // What each single-file protection is now, before bwrap mounts it: the guard compares against this.
      policy.fileLevelIds = Object.fromEntries(
        policy.fileLevel.flatMap((f) => {
          const st = statSync(f, { throwIfNoEntry: false });
          return st ? [[f, `${st.dev}:${st.ino}`]] : [];
        }),
      );
      for (const i of policy.ignored) {
        if (this.warnedIgnored.has(i.path)) continue;
        this.warnedIgnored.add(i.path);
        log.warn(`a writable place is ignored: ${i.path}`, { reason: i.reason });
      }
      for (const note of policy.notes) {
        if (this.warnedIgnored.has(note)) continue;
        this.warnedIgnored.add(note);
        log.warn(note);
      }
      // zsh writes heredocs under TMPPREFIX (default /tmp/zsh), not TMPDIR.
      const env: Record<string, string> = { ...cmd.env, TMPDIR: policy.tmpDir, TMPPREFIX: path.join(policy.tmpDir, "zsh") };
      if (kind === "seatbelt") {
        // Seatbelt decides by path at every access: nothing lapses, nothing to watch. The npm
        // configuration without secrets is given by npm's own variable (no mount to show it in place).
        const npmrc = policy.filtered.find((f) => path.basename(f.path) === ".npmrc");
        if (npmrc && env.NPM_CONFIG_USERCONFIG === undefined && env.npm_config_userconfig === undefined) env.NPM_CONFIG_USERCONFIG = npmrc.copy;
        return { file: program, args: sandboxExecArgs(policy, [cmd.file, ...cmd.args]), env, policy: { ...policy, fileLevel: [] } };
      }
      return {
        file: program,
        args: [...bwrapArgs(policy, { cwd: cmd.cwd, masks: maskFiles(), seccomp: seccomp !== undefined, disableUserns: a.disableUserns !== false }), "--", cmd.file, ...cmd.args],
        env,
        infoFd: BWRAP_INFO_FD,
        ...(seccomp ? { inputFd: { fd: BWRAP_SECCOMP_FD, file: seccomp.file } } : {}),
        policy,
        fingerprint: policy.filtered.map((f) => `${f.copy}:${statSync(f.copy, { throwIfNoEntry: false })?.ino ?? "-"}`).join("\n"),
      };
    };
    return { sandboxed: true, kind, network, wrap };
  }

  /**
   * Why the sandbox program cannot be trusted now (it, or a folder above it, can be changed by a
   * sandboxed command or another account), or undefined. Checked at every plan and status: a
   * setting or a directory added later may make its folder writable.
   */
  private programProblem(program: string, writable: readonly string[]): string | undefined {
    // Only a program that is really here can be judged (tests inject platforms whose programs are not).
    if (!existsSync(program)) return undefined;
    return untrustedProgram(program, [...writable, ...cacheDirectories(os.homedir(), process.env), ...tmpDirIfAny()]);
  }

  /** Every place a sandboxed command of `session` may write (for checking what the core runs outside the sandbox). */
  writablePlaces(session: Session): string[] {
    const dirs = this.writableRoots(session, this.effective().settings);
    return [...dirs.all, ...cacheDirectories(os.homedir(), process.env), ...cacheDirectories(accountHome(), process.env), ...tmpDirIfAny()];
  }

  /** Allowed directories (workspace, --add-dir, session and setting directories) and the user's lists, absolute. */
  private writableRoots(session: Session, settings: SandboxSettings): { allowed: string[]; allowWrite: string[]; denyRead: string[]; all: string[]; resolve: (p: string) => string } {
    const root = this.deps.workspace.root;
    const home = os.homedir();
    const resolve = (p: string) => (p === "~" ? home : p.startsWith("~/") ? path.join(home, p.slice(2)) : path.resolve(root, p));
    const allowed = [...session.allowedDirectories(), ...settingDirectories(session)];
    const allowWrite = settings.allowWrite.map(resolve);
    const denyRead = settings.denyRead.map(resolve);
    const all = [...allowed, ...allowWrite];
    return { allowed, allowWrite, denyRead, all, resolve };
  }
}

/** The choices that decide the status: mode and network, and where each came from. */
export interface SandboxChoice {
  mode: SandboxMode;
  modeSource: string;
  network: SandboxNetwork;
}

/** The status for an availability (undefined: still being checked) and the user's choice. */
export function describeSandbox(a: SandboxAvailability | undefined, e: SandboxChoice, platform: PlatformName): SandboxStatus {
  const kind: SandboxKind = a?.kind ?? (platform === "linux" ? "bubblewrap" : platform === "darwin" ? "seatbelt" : "none");
  if (e.mode === "off") {
    return {
      active: false,
      kind: "none",
      network: "allow",
      reason: `Sandbox mode is "off" (${e.modeSource}): commands run with your full permissions.`,
      remedy: 'Set settings.sandbox.mode to "auto" (or start the core with --sandbox auto) to sandbox commands.',
    };
  }
  if (!a) return { active: false, kind, network: "allow", reason: "Checking whether the sandbox works here." };
  if (!a.available) {
    const refused = e.mode === "on" ? ` Sandbox mode is "on" (${e.modeSource}), so shell commands are refused until it works.` : " Commands run unsandboxed.";
    return { active: false, kind: a.kind, network: "allow", reason: `${a.reason}${refused}`, ...(a.remedy ? { remedy: a.remedy } : {}) };
  }
  return { active: true, kind: a.kind, network: e.network };
}

/** The plain-text section `wave-core env` prints for a status (ends with a newline). */
export function formatSandboxStatus(s: SandboxStatus): string {
  const head = s.active ? `Sandbox: active (${s.kind}), network ${s.network}` : `Sandbox: none${s.kind !== "none" ? ` (${s.kind} not usable)` : ""}`;
  const rows: Array<[string, string]> = [];
  if (s.reason) rows.push(["reason", s.reason]);
  if (s.remedy) rows.push(["remedy", s.remedy]);
  return [head, ...rows.map(([label, value]) => `  ${label.padEnd(6)}  ${value}`), ""].join("\n");
}

function canonicalAll(list: readonly string[]): string[] {
  return [
    ...new Set(
      list.flatMap((p) => {
        try {
          return [realpathSync.native(p)];
        } catch {
          return [];
        }
      }),
    ),
  ];
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Wave's state directories, each created (0700, with its lock folder) when missing: only a
 * directory that exists can be masked, and a core that starts listening later would otherwise
 * publish its token where a command started earlier can read it. One that cannot be created (no
 * home, a read-only disk) stays unmasked; no core can publish there either.
 */
export function ensureStateDirectories(dirs: readonly string[] = waveStateDirectories()): readonly string[] {
  for (const dir of dirs) {
    try {
      mkdirSync(path.join(dir, LOCK_FOLDER), { recursive: true, mode: 0o700 });
    } catch (err) {
      log.debug(`cannot create the state directory ${dir}`, { error: (err as Error).message });
    }
  }
  return dirs;
}

/** The private TMPDIR when it can exist (an output folder that cannot be made holds nothing sandboxed commands wrote). */
function tmpDirIfAny(): string[] {
  try {
    return [privateTmpDir()];
  } catch {
    return [];
  }
}

let tmpDir: string | undefined;

/** TMPDIR inside the sandbox: private to this core process (0700), kept between its commands. */
export function privateTmpDir(): string {
  if (!tmpDir) {
    tmpDir = path.join(processOutputDir(), "tmp");
    mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
  }
  return tmpDir;
}

/** Where the sandbox's own files are (masks, the seccomp program, filtered copies): read-only inside it. */
function sandboxDir(): string {
  const dir = path.join(processOutputDir(), "sandbox");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Folders of the core's own that it (or a command's shell) reads as code: kept read-only inside the sandbox. */
function coreFiles(): string[] {
  return [path.join(processOutputDir(), "rc"), sandboxDir(), ...liveInjectionDirs()];
}

const seccompFiles = new Map<boolean, { file: string; denyUnix: boolean } | undefined>();

/** The seccomp program for bwrap, written once per process and choice; undefined on an architecture without one. */
function seccompFile(denyUnix: boolean): { file: string; denyUnix: boolean } | undefined {
  if (!seccompFiles.has(denyUnix)) {
    const program = seccompProgram({ denyUnixSockets: denyUnix });
    let entry: { file: string; denyUnix: boolean } | undefined;
    if (program) {
      const file = path.join(sandboxDir(), denyUnix ? "seccomp-no-unix.bpf" : "seccomp.bpf");
      writeFileSync(file, encodeProgram(program), { mode: 0o600 });
      entry = { file, denyUnix };
    } else log.warn(`no seccomp filter for this architecture (${os.arch()}): unix sockets are masked where found instead of refused`);
    seccompFiles.set(denyUnix, entry);
  }
  return seccompFiles.get(denyUnix);
}

let masks: MaskFiles | undefined;

/** The empty, unreadable (mode 000) file and directory bound over denied paths. */
export function maskFiles(): MaskFiles {
  if (!masks) {
    const dir = sandboxDir();
    const directory = path.join(dir, "denied-directory");
    const file = path.join(dir, "denied-file");
    mkdirSync(directory, { recursive: true, mode: 0o000 });
    // `wx` creates it or finds ours from an earlier core of this process.
    try {
      closeSync(openSync(file, "wx", 0o000));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    masks = { directory, file };
  }
  return masks;
}
