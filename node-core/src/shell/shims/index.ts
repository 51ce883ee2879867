// Seam for the grep/find/rg shims (BASH-SHIM). The runner asks for the injection of the shell it
// is about to start and applies it; it knows nothing else about shims.
import type { ResolvedShell } from "../types.js";

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

/**
 * What to inject into a Bash-tool shell so `grep`, `find` and (when the system has none) `rg` run
 * the bundled tools. `enabled: false` (the user's opt-out) injects nothing.
 */
export async function shimInjection(_shell: ResolvedShell, opts: { enabled: boolean }): Promise<ShimInjection> {
  if (!opts.enabled) return NO_SHIMS;
  return NO_SHIMS;
}
