// What one core's shell-tool runs share: the search-shim injector (its probes, and the files
// shells source, in a private directory of this core's own) and the start-up files the cwd
// tracking reads. Each WaveCore owns one (a core service): two cores in one process probe and
// write for themselves, and one core's shutdown removes only its own files.
import path from "node:path";
import { ServiceKey, type Service } from "../base/services.js";
import { hostPlatform, type PlatformName } from "../util/platform.js";
import { BASH_RC, BASH_RC_FILE, ZSH_RC, ZSH_RC_DIR } from "./invocation.js";
import { ensureSupportFile, processOutputDir } from "./outputDir.js";
import { NO_SHIMS, ShimInjector, type SearchHelpers, type ShimInjection } from "./shims/index.js";
import type { ResolvedShell } from "./types.js";

export interface StartupFiles {
  /** The file BASH_ENV names. */
  bash: string;
  /** The ZDOTDIR whose `.zshenv` zsh reads. */
  zshDir: string;
}

export class ShellEngine implements Service {
  private startup: StartupFiles | undefined;
  private disposed = false;

  constructor(readonly shims: ShimInjector = new ShimInjector()) {}

  /** The start-up files, written on first use (their content never changes). */
  startupFiles(): StartupFiles {
    if (!this.startup) {
      const bash = ensureSupportFile(BASH_RC_FILE, BASH_RC);
      ensureSupportFile(path.join(ZSH_RC_DIR, ".zshenv"), ZSH_RC);
      this.startup = { bash, zshDir: path.join(processOutputDir(), ZSH_RC_DIR) };
    }
    return this.startup;
  }

  /**
   * What to inject into a shell so `grep`, `find` and (when the system has none) `rg` run the
   * bundled tools. `enabled: false` (the user's `shims` setting) injects nothing.
   */
  async shimInjection(shell: ResolvedShell, enabled: boolean): Promise<ShimInjection> {
    if (!enabled || this.disposed) return NO_SHIMS;
    return this.shims.injection(shell);
  }

  /**
   * Probes the bundled binaries and writes the prelude for `shell` ahead of the first command, so
   * that command does not wait for them. Never throws; writes nothing once `signal` is aborted.
   */
  async prewarmShims(shell: ResolvedShell, signal: AbortSignal): Promise<void> {
    try {
      await this.shims.plan(shell);
    } catch {
      return;
    }
    if (!signal.aborted && !this.disposed) await this.shims.injection(shell);
  }

  /**
   * Which bundled search helpers this core's shells use on `platform` (`env/status`, `wave-core
   * env`): active with a version, missing, or unusable with the reason. The same cached probes as
   * the shims; writes no files.
   */
  searchHelpers(platform: PlatformName = hostPlatform().name): Promise<SearchHelpers> {
    return this.shims.helperStatus(platform);
  }

  /** Removes the files written for this core's shells. */
  dispose(): void {
    this.disposed = true;
    this.shims.dispose();
  }
}

export const SHELL_ENGINE = new ServiceKey<ShellEngine, void>("shell", () => new ShellEngine());
