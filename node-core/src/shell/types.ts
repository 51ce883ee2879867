// Shared shapes of the shell layer, so the runner, the shims and the environment probe agree.

export type ShellKind = "bash" | "zsh";

/** The platform a code path runs for. Injected in tests for the branches that cannot run here. */
export type PlatformName = "linux" | "darwin" | "win32";

export interface ResolvedShell {
  kind: ShellKind;
  /** Absolute path of the shell executable (Git Bash's bash.exe on Windows). */
  path: string;
  platform: PlatformName;
}
