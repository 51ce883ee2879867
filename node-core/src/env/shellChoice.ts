// Which shell the login-environment probe runs (BASH-ENV-3 on macOS/Linux, BASH-ENV-9 on
// Windows). Pure functions over an injected file-system view, so every branch is testable here;
// the real view is at the end.
import path from "node:path";
import { isDirectory, isExecutableFile, isFile } from "../util/files.js";
import type { PlatformName } from "../util/platform.js";

/** The file-system checks shell choice needs; the real one is `realProbeFileSystem`. */
export interface ProbeFileSystem {
  /** True for an existing regular file (or symlink to one). */
  exists(file: string): boolean;
  /** True for an existing file the current user may execute. */
  isExecutable(file: string): boolean;
  /** True for an existing directory. */
  isDirectory(dir: string): boolean;
}

/**
 * BASH-ENV-3: `$SHELL` when it is absolute and executable → `/bin/zsh` when `~/.zshrc` exists →
 * `/bin/bash` when `~/.bashrc` exists → the first existing of `/bin/zsh`, `/bin/bash`, `/bin/sh`.
 * Never one hard-coded shell: a Linux user with only bash must still get a probe.
 */
export function choosePosixProbeShell(env: NodeJS.ProcessEnv, fs: ProbeFileSystem, home: string | undefined): string | undefined {
  const fromEnv = env.SHELL;
  if (fromEnv && path.posix.isAbsolute(fromEnv) && fs.isExecutable(fromEnv)) return fromEnv;
  if (home) {
    if (fs.isExecutable("/bin/zsh") && fs.exists(path.posix.join(home, ".zshrc"))) return "/bin/zsh";
    if (fs.isExecutable("/bin/bash") && fs.exists(path.posix.join(home, ".bashrc"))) return "/bin/bash";
  }
  return ["/bin/zsh", "/bin/bash", "/bin/sh"].find((candidate) => fs.isExecutable(candidate));
}

/** Reads a variable the way Windows does: names are case-insensitive. */
export function getWindowsVariable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const wanted = name.toUpperCase();
  for (const key of Object.keys(env)) if (key.toUpperCase() === wanted) return env[key];
  return undefined;
}

/**
 * Git Bash for the Windows probe (BASH-ENV-9): `WAVE_GIT_BASH_PATH` when that file exists, then
 * the Git installation owning a `git.exe` on PATH (`<git>\cmd\git.exe` or
 * `<git>\mingw64\bin\git.exe` → `<git>\bin\bash.exe`), then the standard install locations.
 */
export function findGitBash(env: NodeJS.ProcessEnv, fs: ProbeFileSystem): string | undefined {
  const win = path.win32;
  const configured = getWindowsVariable(env, "WAVE_GIT_BASH_PATH");
  if (configured && fs.exists(configured)) return configured;

  const candidates: string[] = [];
  for (const dir of (getWindowsVariable(env, "PATH") ?? "").split(";")) {
    const trimmed = dir.trim().replace(/^"(.*)"$/, "$1");
    if (!trimmed || !fs.exists(win.join(trimmed, "git.exe"))) continue;
    // Walk up from the directory holding git.exe to the installation root that has bin\bash.exe.
    let root = trimmed;
    for (let depth = 0; depth < 3; depth++) {
      root = win.dirname(root);
      candidates.push(win.join(root, "bin", "bash.exe"));
    }
  }
  for (const variable of ["ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"]) {
    const base = getWindowsVariable(env, variable);
    if (base) candidates.push(win.join(base, "Git", "bin", "bash.exe"));
  }
  candidates.push("C:\\Program Files\\Git\\bin\\bash.exe", "C:\\Program Files (x86)\\Git\\bin\\bash.exe");
  const localAppData = getWindowsVariable(env, "LOCALAPPDATA");
  if (localAppData) candidates.push(win.join(localAppData, "Programs", "Git", "bin", "bash.exe"));
  return candidates.find((c) => fs.exists(c));
}

export interface ProbeShellChoice {
  shell: string | undefined;
  /** When no shell was found: what was looked for, and what the user can do. */
  missing?: string;
}

export function chooseProbeShell(platform: PlatformName, env: NodeJS.ProcessEnv, fs: ProbeFileSystem, home: string | undefined): ProbeShellChoice {
  if (platform === "win32") {
    const shell = findGitBash(env, fs);
    return shell ? { shell } : { shell: undefined, missing: "Git Bash was not found (install Git for Windows, or set WAVE_GIT_BASH_PATH to its bin\\bash.exe)" };
  }
  const shell = choosePosixProbeShell(env, fs, home);
  return shell ? { shell } : { shell: undefined, missing: "no shell found ($SHELL, /bin/zsh, /bin/bash and /bin/sh are all missing or not executable)" };
}

/** The real file system (symlinks followed, as `exec` does). */
export const realProbeFileSystem: ProbeFileSystem = { exists: isFile, isDirectory, isExecutable: isExecutableFile };
