// Which shell runs Bash-tool commands (BASH-SH, BASH-WIN-1..3): always an explicit bash or zsh on
// macOS/Linux, Git Bash on Windows, never /bin/sh or cmd.exe. A failure names everything that was
// looked at and what to set.
import { envValue, hostPlatform, type Platform } from "../util/platform.js";
import type { ResolvedShell, ShellKind } from "./types.js";

export class ShellNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShellNotFound";
  }
}

/** Directories searched after PATH, in order. */
const FIXED_SHELL_DIRS = ["/bin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"];

/** `bash`, `zsh`, `bash5`, `zsh-5.9`, `bash.exe` → the kind; anything else (sh, fish, dash) → undefined. */
export function shellKindOf(file: string | undefined, platform: Platform = hostPlatform()): ShellKind | undefined {
  if (!file) return undefined;
  const base = platform.path.basename(file).toLowerCase();
  const m = /^(bash|zsh)(?:[-.]?\d[\d.]*)?(?:\.exe)?$/.exec(base);
  return m ? (m[1] as ShellKind) : undefined;
}

/**
 * Resolves the shell for the given environment (the child environment, so WAVE_SHELL and PATH
 * adopted from the login shell count). Throws ShellNotFound with a message that says what to do.
 */
export function resolveShell(env: NodeJS.ProcessEnv, platform: Platform = hostPlatform(), only?: ShellKind): ResolvedShell {
  return platform.name === "win32" ? resolveGitBash(env, platform) : resolvePosixShell(env, platform, only);
}

/** `only`: the tool needs this kind of shell (run_shell_command always runs bash). */
function resolvePosixShell(env: NodeJS.ProcessEnv, platform: Platform, only?: ShellKind): ResolvedShell {
  const p = platform.path;
  const forced = env.WAVE_SHELL;
  // A WAVE_SHELL of the other kind chooses the Bash tool's shell; a bash-only tool looks further.
  if (forced && (!only || shellKindOf(forced, platform) !== (only === "bash" ? "zsh" : "bash"))) {
    const kind = shellKindOf(forced, platform);
    if (!kind) {
      throw new ShellNotFound(
        `WAVE_SHELL is set to "${forced}", which is not bash or zsh. Set WAVE_SHELL to the absolute path of a bash or zsh executable (for example /bin/bash), or unset it to let wave find one.`,
      );
    }
    if (!p.isAbsolute(forced) || !platform.isExecutable(forced)) {
      throw new ShellNotFound(
        `WAVE_SHELL is set to "${forced}", which is not an executable file${p.isAbsolute(forced) ? "" : " (it must be an absolute path)"}. Set WAVE_SHELL to the absolute path of a bash or zsh executable (for example /bin/bash), or unset it to let wave find one.`,
      );
    }
    return { kind, path: forced, platform: platform.name };
  }

  const userShell = env.SHELL;
  const userKind = shellKindOf(userShell, platform);
  const preferred: ShellKind = only ?? userKind ?? "bash";
  const other: ShellKind = preferred === "bash" ? "zsh" : "bash";
  const kinds = only ? [only] : [preferred, other];
  const pathDirs = (env.PATH ?? "").split(":").filter((d) => d && p.isAbsolute(d));

  const candidates: Array<{ file: string; kind: ShellKind }> = [];
  if (userShell && userKind && kinds.includes(userKind) && p.isAbsolute(userShell)) candidates.push({ file: userShell, kind: userKind });
  for (const kind of kinds) {
    for (const dir of [...pathDirs, ...FIXED_SHELL_DIRS]) candidates.push({ file: p.join(dir, kind), kind });
  }
  const seen = new Set<string>();
  for (const c of candidates) {
    if (seen.has(c.file)) continue;
    seen.add(c.file);
    if (platform.isExecutable(c.file)) return { kind: c.kind, path: c.file, platform: platform.name };
  }

  const shellNote = userShell ? (userKind ? `$SHELL (${userShell}: not an executable file), ` : `$SHELL (${userShell}: not bash or zsh), `) : "";
  if (only) {
    throw new ShellNotFound(
      `No ${only} was found to run the command (this tool runs \`${only} -c\` and never another shell). Looked at ${only} on PATH (${pathDirs.join(":") || "empty"}) and in ${FIXED_SHELL_DIRS.join(", ")}. Install ${only} (for example "apt-get install ${only}"), or set WAVE_SHELL to the absolute path of a ${only} executable.`,
    );
  }
  throw new ShellNotFound(
    `No bash or zsh was found to run the command (wave never falls back to /bin/sh). Looked at ${shellNote}bash and zsh on PATH (${pathDirs.join(":") || "empty"}) and in ${FIXED_SHELL_DIRS.join(", ")}. Install bash (for example "apt-get install bash") or zsh, or set WAVE_SHELL to the absolute path of a bash or zsh executable.`,
  );
}

const GIT_FOR_WINDOWS = "https://git-scm.com/download/win";

/** Windows: WAVE_GIT_BASH_PATH → derived from git on PATH → common install locations (BASH-WIN-3). */
function resolveGitBash(env: NodeJS.ProcessEnv, platform: Platform): ResolvedShell {
  const get = (k: string) => envValue(env, k, "win32");
  const forced = get("WAVE_GIT_BASH_PATH");
  if (forced) {
    if (platform.isFile(forced)) return { kind: "bash", path: forced, platform: "win32" };
    throw new ShellNotFound(
      `WAVE_GIT_BASH_PATH is set to "${forced}", but there is no file there. Point it at Git Bash's bash.exe (for example C:\\Program Files\\Git\\bin\\bash.exe), or unset it to let wave find Git Bash.`,
    );
  }

  const looked: string[] = [];
  const git = findOnWindowsPath("git", env, platform);
  if (git) {
    for (const bash of bashNextToGit(git, platform)) {
      looked.push(bash);
      if (platform.isFile(bash)) return { kind: "bash", path: bash, platform: "win32" };
    }
  } else {
    looked.push("git on PATH (not found)");
  }

  for (const bash of commonGitBashLocations(env)) {
    if (looked.includes(bash)) continue;
    looked.push(bash);
    if (platform.isFile(bash)) return { kind: "bash", path: bash, platform: "win32" };
  }
  throw new ShellNotFound(
    `Git Bash was not found. On Windows wave runs commands in Git Bash (never cmd.exe). Install Git for Windows (${GIT_FOR_WINDOWS}), or set WAVE_GIT_BASH_PATH to the full path of bash.exe. Looked at: ${looked.join("; ")}.`,
  );
}

/**
 * `<git.exe>/../../bin/bash.exe` (git in `Git\cmd`), then one level higher (git in
 * `Git\mingw64\bin`).
 */
function bashNextToGit(gitExe: string, platform: Platform): string[] {
  const p = platform.path;
  const up2 = p.dirname(p.dirname(gitExe));
  const up3 = p.dirname(up2);
  return [...new Set([p.join(up2, "bin", "bash.exe"), p.join(up3, "bin", "bash.exe")])];
}

function commonGitBashLocations(env: NodeJS.ProcessEnv): string[] {
  const get = (k: string) => envValue(env, k, "win32");
  const out: string[] = [];
  const programFiles = get("ProgramFiles") ?? "C:\\Program Files";
  const programFilesX86 = get("ProgramFiles(x86)") ?? "C:\\Program Files (x86)";
  out.push(`${programFiles}\\Git\\bin\\bash.exe`, `${programFilesX86}\\Git\\bin\\bash.exe`);
  if (programFiles.toLowerCase() !== "c:\\program files") out.push("C:\\Program Files\\Git\\bin\\bash.exe");
  const localAppData = get("LOCALAPPDATA");
  if (localAppData) out.push(`${localAppData}\\Programs\\Git\\bin\\bash.exe`);
  const userProfile = get("USERPROFILE");
  if (userProfile) out.push(`${userProfile}\\scoop\\apps\\git\\current\\bin\\bash.exe`);
  return out;
}

/** Looks a command up on the Windows PATH with PATHEXT, like `where` does, without starting a process. */
function findOnWindowsPath(command: string, env: NodeJS.ProcessEnv, platform: Platform): string | undefined {
  const p = platform.path;
  const dirs = (envValue(env, "PATH", "win32") ?? "")
    .split(";")
    .map((d) => d.replace(/^"(.*)"$/, "$1"))
    .filter(Boolean);
  const exts = (envValue(env, "PATHEXT", "win32") ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean);
  // git.exe is what we need: a git.cmd/.bat shim gives no install root to derive Git Bash from.
  const preferred = [".EXE", ...exts.filter((e) => e.toUpperCase() !== ".EXE")];
  for (const dir of dirs) {
    for (const ext of preferred) {
      const file = p.join(dir, command + ext.toLowerCase());
      if (platform.isFile(file)) return file;
    }
  }
  return undefined;
}

// Keyed by everything that decides the answer, so it is a pure memo: sharing it between the cores
// of a process changes no answer.
const cache = new Map<string, ResolvedShell>();

/**
 * resolveShell with a cache keyed by the variables that decide the answer; a cached shell that
 * disappeared is resolved again.
 */
export function resolveShellCached(env: NodeJS.ProcessEnv, platform: Platform = hostPlatform(), only?: ShellKind): ResolvedShell {
  const keys = platform.name === "win32" ? ["WAVE_GIT_BASH_PATH", "PATH", "PATHEXT", "ProgramFiles", "LOCALAPPDATA"] : ["WAVE_SHELL", "SHELL", "PATH"];
  const key = platform.name + "\0" + (only ?? "") + "\0" + keys.map((k) => envValue(env, k, platform.name) ?? "").join("\0");
  const hit = cache.get(key);
  if (hit && platform.isExecutable(hit.path)) return hit;
  const shell = resolveShell(env, platform, only);
  if (platform === hostPlatform()) cache.set(key, shell);
  return shell;
}
