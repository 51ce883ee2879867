// Seam for the grep/find/rg shims (BASH-SHIM). The runner asks for the injection of the shell it
// is about to start and applies it; it knows nothing else about shims.
//
// How it is injected, chosen so the user's script and its line numbers stay exactly as written:
//   bash: BASH_ENV names a file that restores the user's BASH_ENV, sources it, defines the functions.
//   zsh:  ZDOTDIR names a directory whose .zshenv restores the user's ZDOTDIR, sources the user's
//         .zshenv, defines the functions. (Prepending to the -c script shifts $LINENO and every
//         "zsh:N:" message, and zsh's LINENO cannot be set back.)
// Both variables are put back before the user's command runs, so nested shells get no shims
// (BASH-SHIM-2) and see the user's own settings.
import { createHash } from "node:crypto";
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { childEnvironment } from "../../env/index.js";
import { createLogger, type Logger } from "../../util/log.js";
import { platformTag, vendorRoots, type VendorTool } from "../../util/vendor.js";
import type { PlatformName, ResolvedShell } from "../types.js";
import { InjectionFiles } from "./injectionFiles.js";
import { resolveLaunch, type Launch } from "./launch.js";
import {
  isEmptyPlan,
  renderInjectionFiles,
  SAVED_BASH_ENV,
  SAVED_ZDOTDIR,
  startupFileName,
  type ShimPlan,
  type ToolLaunch,
} from "./prelude.js";
import {
  formatVersion,
  ProbeCache,
  probeBfs,
  probeRg,
  probeUgrep,
  runProbe,
  type Probed,
  type ProbeRunner,
  type Version,
} from "./probe.js";

export interface ShimInjection {
  /**
   * Variables to add to the shell's environment. The runner already uses BASH_ENV (bash) and
   * ZDOTDIR (zsh) for cwd tracking: a BASH_ENV given here is sourced from the runner's own file
   * after the user's BASH_ENV, and a ZDOTDIR's `.zshenv` likewise; then both variables are put
   * back as the user had them, so nested shells never see either. Preludes loaded this way shift
   * no line numbers.
   */
  env: Record<string, string>;
  /**
   * Text placed before the user's script in the `-c` argument ("" for none); ends with a newline.
   * It shifts `$LINENO` and error line numbers by its own line count (keep it to one line).
   */
  scriptPrefix: string;
}

export const NO_SHIMS: ShimInjection = { env: {}, scriptPrefix: "" };

export interface ShimOptions {
  /** The user's opt-out (workspace setting `shims: false`) passes false: nothing is injected. */
  enabled: boolean;
  /**
   * The environment the shell would get without shims (default: `childEnvironment()`), read for
   * the user's own BASH_ENV / ZDOTDIR so the injection can hand them back.
   */
  baseEnv?: NodeJS.ProcessEnv;
}

/** The workspace setting that turns the shims off (`{"shims": false}`); on when absent. */
export const SHIMS_SETTING = "shims";

export function shimsEnabled(workspace: { setting(key: string, fallback: boolean): boolean }): boolean {
  return workspace.setting(SHIMS_SETTING, true);
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

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

interface Bundled<T> {
  launch: Launch;
  caps: T;
}

export class ShimInjector {
  private readonly deps: ShimDependencies;
  private readonly cache = new ProbeCache();
  private readonly reported = new Set<string>();

  constructor(deps: Partial<ShimDependencies> = {}) {
    this.deps = {
      vendorRoots: deps.vendorRoots ?? (() => vendorRoots()),
      arch: deps.arch ?? process.arch,
      run: deps.run ?? runProbe,
      files: deps.files ?? new InjectionFiles(),
      log: deps.log ?? createLogger("shims"),
    };
  }

  /** The bundled binary for `platform`, or undefined when none is shipped. Checked at each use. */
  bundledBinary(tool: VendorTool, platform: PlatformName): string | undefined {
    const exe = platform === "win32" ? `${tool}.exe` : tool;
    for (const root of this.deps.vendorRoots()) {
      const candidate = path.join(root, platformTag(platform, this.deps.arch), exe);
      if (isExecutableFile(candidate)) return candidate;
    }
    return undefined;
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
  async injection(shell: ResolvedShell, baseEnv: NodeJS.ProcessEnv): Promise<ShimInjection> {
    try {
      return await this.build(shell, baseEnv);
    } catch (error) {
      this.once(`failed:${error instanceof Error ? error.message : String(error)}`, "search shims unavailable, the system commands run instead", {
        error,
      });
      return NO_SHIMS;
    }
  }

  private async build(shell: ResolvedShell, baseEnv: NodeJS.ProcessEnv): Promise<ShimInjection> {
    const plan = await this.plan(shell);
    if (isEmptyPlan(plan)) return NO_SHIMS;
    const { kind, platform } = shell;
    const name = `${kind}-${createHash("sha256").update(JSON.stringify(plan)).digest("hex").slice(0, 16)}`;
    const startup = startupFileName(kind);
    const dir = this.deps.files.ensureDir(
      name,
      (d) => renderInjectionFiles(kind, plan, d, path.join, (f) => shellPath(f, platform)),
      startup,
    );
    const env: Record<string, string> = {};
    if (kind === "bash") {
      env.BASH_ENV = shellPath(path.join(dir, startup), platform);
      if (baseEnv.BASH_ENV !== undefined) env[SAVED_BASH_ENV] = baseEnv.BASH_ENV;
    } else {
      env.ZDOTDIR = shellPath(dir, platform);
      if (baseEnv.ZDOTDIR !== undefined) env[SAVED_ZDOTDIR] = baseEnv.ZDOTDIR;
    }
    return { env, scriptPrefix: "" };
  }

  /** Removes the files written for shells (tests; the process removes them at exit anyway). */
  dispose(): void {
    this.deps.files.dispose();
  }

  private once(key: string, message: string, fields?: Record<string, unknown>): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.deps.log.debug(message, fields);
  }

  private async probed<T extends { version: Version }>(
    tool: VendorTool,
    platform: PlatformName,
    probe: (launch: Launch, run: ProbeRunner) => Promise<Probed<T>>,
  ): Promise<Bundled<T> | undefined> {
    const file = this.bundledBinary(tool, platform);
    const tag = platformTag(platform, this.deps.arch);
    if (!file) {
      this.once(`missing:${tool}:${tag}`, `no bundled ${tool} for ${tag}; the system command runs instead`);
      return undefined;
    }
    const result = await this.cache.get(tool, file, async () => {
      const launch = resolveLaunch(file);
      try {
        const r = await probe(launch, this.deps.run);
        return r.ok ? { ...r, launch } : r;
      } catch (error) {
        return { ok: false as const, reason: `probe failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    });
    if (!result.ok) {
      this.once(`unusable:${file}`, `bundled ${tool} unusable, the system command runs instead: ${result.reason}`, { file });
      return undefined;
    }
    this.once(`usable:${file}`, `bundled ${tool} ${formatVersion(result.version)} in use`, { file });
    return { launch: result.launch, caps: result };
  }
}

let defaultInjector: ShimInjector | undefined;

/**
 * What to inject into a Bash-tool shell so `grep`, `find` and (when the system has none) `rg` run
 * the bundled tools. `enabled: false` (the user's opt-out) injects nothing.
 */
export async function shimInjection(shell: ResolvedShell, opts: ShimOptions): Promise<ShimInjection> {
  if (!opts.enabled) return NO_SHIMS;
  defaultInjector ??= new ShimInjector();
  return defaultInjector.injection(shell, opts.baseEnv ?? (await childEnvironment()));
}

/** Removes the files written for shells by `shimInjection` (shutdown, tests). */
export function disposeShims(): void {
  defaultInjector?.dispose();
}

/** Starts the probes early (e.g. from a start-up hook) so the first Bash command does not wait for them. */
export function prewarmShims(shell: ResolvedShell): void {
  defaultInjector ??= new ShimInjector();
  void defaultInjector.plan(shell).catch(() => undefined);
}
