// Shared shapes of the shell layer, so the runner, the shims and the environment probe agree.

import type { PlatformName } from "../util/platform.js";

export type ShellKind = "bash" | "zsh";

export interface ResolvedShell {
  kind: ShellKind;
  /** Absolute path of the shell executable (Git Bash's bash.exe on Windows). */
  path: string;
  platform: PlatformName;
}
