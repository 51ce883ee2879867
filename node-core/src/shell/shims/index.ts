// Seam for the grep/find/rg shims (BASH-SHIM). The runner asks for the injection of the shell it
// is about to start and hands it to the invocation; it knows nothing else about shims.
//
// The injection is one file of function definitions (the prelude). The Bash runner's own start-up
// file — bash: the file BASH_ENV names; zsh: `.zshenv` in the ZDOTDIR it points at (see
// shell/invocation.ts) — sources it before the user's command. So the command text and its line
// numbers stay exactly as written (prepending to the `-c` script shifts `$LINENO` and every
// "zsh:N:" message, and zsh's LINENO cannot be set back), no rc file of the user's is read
// (BASH-SH-5), and nested shells get no shims (BASH-SHIM-2) because that start-up file puts
// BASH_ENV/ZDOTDIR back before the command runs.
//
// Lifecycle: each core's ShellEngine (shell/engine.ts) owns one injector and its files; probes run
// once per binary per process, lazily; the core's start-up (startup.ts) warms them as soon as the
// shell is known, off the hot path, and the core's shutdown removes the files its injector wrote.
import { createHash } from "node:crypto";
import { accessSync, chmodSync, constants, statSync, type Stats } from "node:fs";
import path from "node:path";
import { isExecutableFile, isFile } from "../../util/files.js";
import { sandboxWritablePlaces, untrustedProgram } from "../../util/programTrust.js";
import { createLogger, type Logger } from "../../util/log.js";
import { platformTag, vendorCandidates, vendorRoots, type VendorTool } from "../../util/vendor.js";
import type { PlatformName } from "../../util/platform.js";
import type { ResolvedShell } from "../types.js";
import { InjectionFiles } from "./injectionFiles.js";
import { resolveLaunch, type Launch } from "./launch.js";
import { isEmptyPlan, preludeFileName, renderInjectionFiles, type ShimPlan, type ToolLaunch } from "./prelude.js";
import { formatVersion, ProbeCache, probeBfs, probeRg, probeUgrep, runProbe, type Probed, type ProbeRunner, type Version } from "./probe.js";

export interface ShimInjection {
  /**
   * Native path of the file that defines the shims in this shell's syntax, or undefined for none.
   * The Bash runner's start-up file sources it (shell/invocation.ts); it reads no variables and
   * changes nothing but the functions it defines.
   */
  prelude?: string;
}

export const NO_SHIMS: ShimInjection = {};

/** One bundled search helper as this core sees it (PROTOCOL.md `env/status`, `searchHelpers`). */
export type HelperStatus = {
  tool: VendorTool;
  /** active: the shims (and the Grep tool, for rg) use it; missing/unusable: the system command runs. */
  state: "active" | "missing" | "unusable";
  path?: string;
  version?: string;
  reason?: string;
};

export type SearchHelpers = {
  /** The platform folder looked for: `vendor/<platform>-<arch>` (Windows on ARM also tries win32-x64). */
  platform: string;
  tools: HelperStatus[];
};

/** The helpers section of `wave-core env`: one line per tool. */
export function formatSearchHelpers(helpers: SearchHelpers): string {
  const lines = [`Search helpers (vendor/${helpers.platform}):`];
  const width = Math.max(...helpers.tools.map((t) => t.tool.length));
  for (const t of helpers.tools) {
    const detail = t.state === "active" ? `active, ${t.version} (${t.path})` : `${t.state}: ${t.reason}`;
    lines.push(`  ${t.tool.padEnd(width)}  ${detail}`);
  }
  return lines.join("\n") + "\n";
}

/** Where msys's GNU find lives inside Git Bash (BASH-SHIM-5). */
export const GIT_BASH_FIND = "/usr/bin/find";

export interface ShimDependencies {
  /** Vendor roots to look in (default: util/vendor's, which honours WAVE_VENDOR_DIR). */
  vendorRoots: () => string[];
  arch: string;
  run: ProbeRunner;
  files: InjectionFiles;
  log: Logger;
}

/** Spells a native path the way the shell of `platform` reads it (Git Bash: `C:/Users/…`). */
export function shellPath(file: string, platform: PlatformName): string {
  return platform === "win32" ? file.replace(/\\/g, "/") : file;
}

/**
 * Whether `file` is an executable regular file. A shipped file that lost its executable bits (an
 * unzip that drops Unix modes, a copy without `-p`) gets them back — x wherever it is readable — so
 * a plugin install that flattened the modes still has working shims; `restored` hears of it.
 */
function ensureExecutable(file: string, restored?: (file: string) => void): boolean {
  if (isExecutableFile(file)) return true;
  if (!isFile(file)) return false;
  try {
    const mode = statSync(file).mode & 0o777;
    chmodSync(file, mode | ((mode & 0o444) >> 2));
    accessSync(file, constants.X_OK);
    restored?.(file);
    return true;
  } catch {
    return false;
  }
}

/** The directory holding an injection's files, as it is now ("" for no files, "-" when it is gone). */
function filesState(injection: ShimInjection): string {
  if (!injection.prelude) return "";
  const s = statOrUndefined(path.dirname(injection.prelude));
  return s ? `${s.ino}:${s.mtimeMs}:${s.ctimeMs}` : "-";
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

// Keyed by the binary's path, size and mtime: a pure memo, like the shell resolution cache.
const PROCESS_PROBES = new ProbeCache();

interface Bundled<T> {
  launch: Launch;
  caps: T;
}

export class ShimInjector {
  private readonly deps: ShimDependencies;
  private readonly cache: ProbeCache;
  private readonly reported = new Set<string>();
  /** Directory names by shell kind and plan (a hash of both). */
  private readonly names = new Map<string, string>();
  /**
   * The last injection per shell kind and platform, with what it was made from: the state of every
   * vendor candidate file, and the directory its files were written to. While none of those
   * changed (removing a file changes its directory), the next command reuses it: one stat per
   * place instead of the probes' lookups, hashing and a check of every file.
   */
  private readonly reusable = new Map<string, { binaries: string; files: string; injection: ShimInjection }>();

  constructor(deps: Partial<ShimDependencies> = {}) {
    this.deps = {
      vendorRoots: deps.vendorRoots ?? (() => vendorRoots()),
      arch: deps.arch ?? process.arch,
      run: deps.run ?? runProbe,
      files: deps.files ?? new InjectionFiles(),
      log: deps.log ?? createLogger("shims"),
    };
    // The real probes' answers are facts about a binary on disk, shared by every core of the
    // process; an injected runner gets a cache of its own.
    this.cache = deps.run ? new ProbeCache() : PROCESS_PROBES;
  }

  /** The bundled binary for `platform`, or undefined when none is shipped. Checked at each use. */
  bundledBinary(tool: VendorTool, platform: PlatformName): string | undefined {
    return vendorCandidates(tool, this.deps.vendorRoots(), platform, this.deps.arch).find((f) => this.executable(f));
  }

  /** What to shim for this shell, from the bundled binaries that exist and pass their probes. */
  async plan(shell: ResolvedShell): Promise<ShimPlan> {
    const { platform } = shell;
    const [ugrep, bfs, rg] = await Promise.all([
      this.probed("ugrep", platform, probeUgrep),
      // bfs has no Windows build; Git Bash's own find is GNU find.
      platform === "win32" ? undefined : this.probed("bfs", platform, probeBfs),
      this.probed("rg", platform, probeRg),
    ]);
    const spell = (launch: Launch): ToolLaunch => ({
      command: launch.command.map((w) => shellPath(w, platform)),
      requires: launch.requires.map((f) => shellPath(f, platform)),
    });
    const plan: ShimPlan = {};
    if (ugrep) plan.grep = spell(ugrep.launch);
    if (platform === "win32") plan.find = { kind: "gnu", path: GIT_BASH_FIND };
    else if (bfs) {
      const { regextype, regextypes, optimizeO1 } = bfs.caps;
      plan.find = { kind: "bfs", ...spell(bfs.launch), regextype, regextypes, optimizeO1 };
    }
    if (rg) plan.rg = spell(rg.launch);
    return plan;
  }

  /** The injection for `shell`; never throws: any failure means no shims (BASH-SHIM-7). */
  async injection(shell: ResolvedShell): Promise<ShimInjection> {
    const key = `${shell.kind}\0${shell.platform}`;
    const binaries = this.binariesState(shell.platform);
    const last = this.reusable.get(key);
    if (last && last.binaries === binaries && last.files === filesState(last.injection)) return last.injection;
    try {
      const injection = await this.build(shell);
      // Only what was built from the files as they are now may be reused.
      if (this.binariesState(shell.platform) === binaries) this.reusable.set(key, { binaries, files: filesState(injection), injection });
      return injection;
    } catch (error) {
      this.once(`failed:${error instanceof Error ? error.message : String(error)}`, "search shims unavailable, the system commands run instead", {
        error,
      });
      return NO_SHIMS;
    }
  }

  private async build(shell: ResolvedShell): Promise<ShimInjection> {
    const plan = await this.plan(shell);
    if (isEmptyPlan(plan)) return NO_SHIMS;
    const { kind, platform } = shell;
    const key = `${kind}\0${JSON.stringify(plan)}`;
    let name = this.names.get(key);
    if (!name) {
      name = `${kind}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
      this.names.set(key, name);
    }
    const prelude = preludeFileName(kind);
    const dir = this.deps.files.ensureDir(name, (d) => renderInjectionFiles(kind, plan, d, path.join, (f) => shellPath(f, platform)), prelude);
    return { prelude: path.join(dir, prelude) };
  }

  /** Removes the files written for shells (tests; the process removes them at exit anyway). */
  dispose(): void {
    this.reusable.clear();
    this.deps.files.dispose();
  }

  /**
   * Every place a bundled binary may be, and what is there (identity, size, time and mode): the
   * plan changes only when this does. Missing places cost a failed stat each.
   */
  private binariesState(platform: PlatformName): string {
    const roots = this.deps.vendorRoots();
    let state = "";
    for (const tool of ["ugrep", "bfs", "rg"] as const) {
      for (const file of vendorCandidates(tool, roots, platform, this.deps.arch)) {
        const s = statOrUndefined(file);
        state += s ? `${file}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}\n` : `${file}:-\n`;
      }
    }
    return state;
  }

  private executable(file: string): boolean {
    if (!ensureExecutable(file, (f) => this.deps.log.debug("restored the executable bits of a bundled file", { file: f }))) return false;
    // Its probe runs it outside the sandbox: never one a sandboxed command could have written.
    const why = untrustedProgram(file, sandboxWritablePlaces());
    if (why) this.once(`untrusted:${file}`, `not using the bundled ${path.basename(file)}: ${why}`);
    return why === undefined;
  }

  private once(key: string, message: string, fields?: Record<string, unknown>): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.deps.log.debug(message, fields);
  }

  /**
   * Which bundled helpers this core would use on `platform` (what `env/status` and `wave-core env`
   * report): each one active with its version, missing (the system command runs), or unusable with
   * the probe's reason. Runs the same cached probes as the shims.
   */
  async helperStatus(platform: PlatformName): Promise<SearchHelpers> {
    const tag = platformTag(platform, this.deps.arch);
    const report = async <T extends { version: Version }>(tool: VendorTool, probe: (launch: Launch, run: ProbeRunner) => Promise<Probed<T>>): Promise<HelperStatus> => {
      const { file, result } = await this.inspect(tool, platform, probe);
      if (!file || !result) return { tool, state: "missing", reason: `no bundled ${tool} for ${tag}; the system command runs` };
      if (!result.ok) return { tool, state: "unusable", path: file, reason: result.reason };
      return { tool, state: "active", path: file, version: formatVersion(result.version) };
    };
    const tools = await Promise.all([
      report("ugrep", probeUgrep),
      platform === "win32" ? Promise.resolve<HelperStatus>({ tool: "bfs", state: "missing", reason: "bfs has no Windows build; find is Git Bash's GNU find" }) : report("bfs", probeBfs),
      report("rg", probeRg),
    ]);
    return { platform: tag, tools };
  }

  private async inspect<T extends { version: Version }>(
    tool: VendorTool,
    platform: PlatformName,
    probe: (launch: Launch, run: ProbeRunner) => Promise<Probed<T>>,
  ): Promise<{ file?: string; result?: Probed<T & { launch: Launch }> }> {
    const file = this.bundledBinary(tool, platform);
    if (!file) return {};
    const result = await this.cache.get(tool, file, async () => {
      const launch = resolveLaunch(file);
      // The loader and the binary a launch script names must be executable too (the prelude checks).
      for (const part of launch.requires) this.executable(part);
      try {
        const r = await probe(launch, this.deps.run);
        return r.ok ? { ...r, launch } : r;
      } catch (error) {
        return { ok: false as const, reason: `probe failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    });
    return { file, result };
  }

  private async probed<T extends { version: Version }>(tool: VendorTool, platform: PlatformName, probe: (launch: Launch, run: ProbeRunner) => Promise<Probed<T>>): Promise<Bundled<T> | undefined> {
    const { file, result } = await this.inspect(tool, platform, probe);
    if (!file || !result) {
      const tag = platformTag(platform, this.deps.arch);
      this.once(`missing:${tool}:${tag}`, `no bundled ${tool} for ${tag}; the system command runs instead`);
      return undefined;
    }
    if (!result.ok) {
      this.once(`unusable:${file}`, `bundled ${tool} unusable, the system command runs instead: ${result.reason}`, { file });
      return undefined;
    }
    this.once(`usable:${file}`, `bundled ${tool} ${formatVersion(result.version)} in use`, { file });
    return { launch: result.launch, caps: result };
  }
}
