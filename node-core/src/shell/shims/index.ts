// Seam for the grep/find/rg shims (BASH-SHIM). The runner asks for the injection of the shell it
// is about to start and applies it; it knows nothing else about shims.
//
// How it is injected, chosen so the user's script and its line numbers stay exactly as written:
//   bash: BASH_ENV names a file that restores the user's BASH_ENV, sources it, defines the functions.
//   zsh:  ZDOTDIR names a directory whose .zshenv restores the user's ZDOTDIR, sources the user's
//         .zshenv, defines the functions. (Prepending to the -c script shifts $LINENO and every
//         "zsh:N:" message, and zsh's LINENO is read-only, so it cannot be undone.)
// Both variables are put back before the user's command runs, so nested shells get no shims
// (BASH-SHIM-2) and see the user's own settings.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { childEnvironment } from "../../env/index.js";
import { createLogger, type Logger } from "../../util/log.js";
import { platformTag, vendorRoots, type VendorTool } from "../../util/vendor.js";
import type { PlatformName, ResolvedShell } from "../types.js";
import { InjectionFiles } from "./injectionFiles.js";
import {
  renderBashEnvFile,
  renderZshEnvFile,
  SAVED_BASH_ENV,
  SAVED_ZDOTDIR,
  type ShimPlan,
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
  /** Variables to add to the shell's environment (bash: BASH_ENV naming the prelude file). */
  env: Record<string, string>;
  /** Text placed before the user's script in the `-c` argument ("" for none); ends with a newline. */
  scriptPrefix: string;
}

export const NO_SHIMS: ShimInjection = { env: {}, scriptPrefix: "" };

export interface ShimOptions {
  /** The user's opt-out (workspace setting `shims: false`) passes false: nothing is injected. */
  enabled: boolean;
  /**
   * The environment the shell will otherwise get (default: `childEnvironment()`), read for the
   * user's own BASH_ENV / ZDOTDIR so the injection can hand them back.
   */
  baseEnv?: NodeJS.ProcessEnv;
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
  file: string;
  caps: T;
}

export class ShimInjector {
  private readonly deps: ShimDependencies;
  private readonly cache = new ProbeCache();
  private readonly reportedMissing = new Set<string>();

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
      platform === "win32" ? undefined : this.probed("bfs", platform, probeBfs),
      this.probed("rg", platform, probeRg),
    ]);
    const plan: ShimPlan = {};
    if (ugrep) plan.grep = { path: shellPath(ugrep.file, platform), grepMode: ugrep.caps.grepMode };
    if (platform === "win32") plan.find = { kind: "gnu", path: GIT_BASH_FIND };
    else if (bfs) {
      const { regextype, regextypes, optimizeO1 } = bfs.caps;
      plan.find = { kind: "bfs", path: bfs.file, regextype, regextypes, optimizeO1 };
    }
    if (rg) plan.rg = { path: shellPath(rg.file, platform) };
    return plan;
  }

  async injection(shell: ResolvedShell, baseEnv: NodeJS.ProcessEnv): Promise<ShimInjection> {
    const plan = await this.plan(shell);
    if (!plan.grep && !plan.find && !plan.rg) return NO_SHIMS;
    const env: Record<string, string> = {};
    if (shell.kind === "bash") {
      env.BASH_ENV = shellPath(this.deps.files.ensureFile("bash", renderBashEnvFile(plan)), shell.platform);
      if (baseEnv.BASH_ENV !== undefined) env[SAVED_BASH_ENV] = baseEnv.BASH_ENV;
    } else {
      env.ZDOTDIR = shellPath(this.deps.files.ensureZdotdir(renderZshEnvFile(plan)), shell.platform);
      if (baseEnv.ZDOTDIR !== undefined) env[SAVED_ZDOTDIR] = baseEnv.ZDOTDIR;
    }
    return { env, scriptPrefix: "" };
  }

  /** Removes the files written for shells (tests; the process removes them at exit anyway). */
  dispose(): void {
    this.deps.files.dispose();
  }

  private async probed<T extends { version: Version }>(
    tool: VendorTool,
    platform: PlatformName,
    probe: (file: string, run: ProbeRunner) => Promise<Probed<T>>,
  ): Promise<Bundled<T> | undefined> {
    const file = this.bundledBinary(tool, platform);
    if (!file) {
      const tag = platformTag(platform, this.deps.arch);
      if (!this.reportedMissing.has(`${tool}:${tag}`)) {
        this.reportedMissing.add(`${tool}:${tag}`);
        this.deps.log.debug(`no bundled ${tool} for ${tag}; the system command runs instead`);
      }
      return undefined;
    }
    const result = await this.cache.get(tool, file, async () => {
      const r = await probe(file, this.deps.run);
      if (!r.ok) this.deps.log.debug(`bundled ${tool} unusable, the system command runs instead: ${r.reason}`, { file });
      else this.deps.log.debug(`bundled ${tool} ${formatVersion(r.version)} in use`, { file });
      return r;
    });
    return result.ok ? { file, caps: result } : undefined;
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

/** Starts the probes early (e.g. from a start-up hook) so the first Bash command does not wait for them. */
export function prewarmShims(shell: ResolvedShell): void {
  defaultInjector ??= new ShimInjector();
  void defaultInjector.plan(shell).catch(() => undefined);
}
