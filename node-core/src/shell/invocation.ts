// How a Bash-tool command becomes a process: `<shell> -c <command>` with an environment built from
// childEnvironment(), the non-interactive defaults, the run markers, and one start-up file per
// shell that carries both the cwd tracking and the search shims.
//
// Nothing is added to the command text. Bash reads the file named by BASH_ENV before the `-c`
// string runs, zsh reads `$ZDOTDIR/.zshenv`; ours set an EXIT trap that writes `pwd -P` to the
// run's cwd file — its path quoted into the trap's own text, so no variable the command can
// assign, unset or shadow decides where that write goes — when the shell ends in a directory other
// than the one it started in (creating a file costs more than the rest of the start-up file: 0.3 ms
// on ext4 here, for the common command that does not `cd`), source the shim definitions
// (shell/shims), and put BASH_ENV/ZDOTDIR back as the user had them. So `$LINENO`, syntax-error
// line numbers and `$?` are the user's own, the trap runs after `exit N` and failures, and nested
// shells inherit neither the tracking nor the shims (BASH-SHIM-2). A bash command that needs
// neither (needsStartupFile) runs without the file at all: a plain `bash -c` (withoutStartupFile).
// The user's rc files are never read (BASH-SH-5): zsh's `~/.zshenv` and `$ZDOTDIR/.zshenv` are
// skipped because ZDOTDIR points here. A BASH_ENV the core itself was started with is not an rc
// file but an explicit request that every `bash -c` read that file, so bash still reads it,
// expanded as bash expands it, before the shims are defined.
import { CORE_PID_VAR, RUN_MARKER_VAR } from "./processTable.js";
import { envValue, type PlatformName } from "../util/platform.js";
import type { ShimInjection } from "./shims/index.js";
import { SHIM_TOOLS } from "./shims/prelude.js";
import type { ResolvedShell } from "./types.js";
import { toGitBashPath } from "./winpath.js";

/**
 * Set on every child so nothing can wait for a person: pagers print, git never prompts for
 * credentials or opens an editor, package tools take defaults.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  MANPAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
  GIT_EDITOR: "true",
  GIT_SEQUENCE_EDITOR: "true",
  EDITOR: "true",
  VISUAL: "true",
  GCM_INTERACTIVE: "never",
  DEBIAN_FRONTEND: "noninteractive",
};

/** Variables the start-up files consume (and remove) before the command runs. */
const CWD_FILE_VAR = "WAVE_CWD_FILE";
const CWD_START_VAR = "WAVE_CWD_START";
const SHIMS_FILE_VAR = "WAVE_SHIMS_FILE";
const USER_BASH_ENV_VAR = "WAVE_USER_BASH_ENV";
const USER_ZDOTDIR_VAR = "WAVE_USER_ZDOTDIR";

/** The variables only the start-up file reads (and unsets): a shell started without it gets none of them. */
export const STARTUP_FILE_VARIABLES: readonly string[] = ["BASH_ENV", CWD_FILE_VAR, CWD_START_VAR, SHIMS_FILE_VAR];

export const BASH_RC_FILE = "rc/bash_env.sh";
export const ZSH_RC_DIR = "rc/zsh";

/**
 * Sourced by bash through BASH_ENV. Silent under xtrace (SHELLOPTS=xtrace from the environment)
 * except for the user's own BASH_ENV file, which traces as it would without us. Everything after
 * the user's file is parsed before that file runs (one `{ … }`), so aliases it defines cannot
 * reshape our lines. Ends with a command that succeeds, so `$?` starts at 0.
 */
export const BASH_RC = `# wave-core: read by bash through BASH_ENV before the command runs (docs/user/bash.md).
{ __wave_x=$-; set +x; } 2>/dev/null
{
__wave_cwd_file=\${${CWD_FILE_VAR}-}
__wave_cwd_start=\${${CWD_START_VAR}-}
__wave_shims=\${${SHIMS_FILE_VAR}-}
if [ -n "\${${USER_BASH_ENV_VAR}+x}" ]; then BASH_ENV=$${USER_BASH_ENV_VAR}; else unset BASH_ENV; fi
unset ${CWD_FILE_VAR} ${CWD_START_VAR} ${SHIMS_FILE_VAR} ${USER_BASH_ENV_VAR}
if [ -n "$__wave_cwd_file" ]; then
  builtin printf -v __wave_cwd_file '%q' "$__wave_cwd_file"; builtin printf -v __wave_cwd_start '%q' "$__wave_cwd_start"
  trap "{ builtin cd -P . && builtin test \\"\\$PWD\\" = $__wave_cwd_start || builtin pwd -P >| $__wave_cwd_file; } 2>/dev/null" EXIT
fi
if [ -n "\${BASH_ENV-}" ]; then
  case $BASH_ENV in *'$'*|*'\`'*) eval "__wave_f=\\"$BASH_ENV\\"" ;; *) __wave_f=$BASH_ENV ;; esac
  if [ -r "$__wave_f" ]; then
    case $__wave_x in *x*) set -x ;; esac
    . "$__wave_f"
    { __wave_x=$-; set +x; } 2>/dev/null
  fi
fi
if [ -n "$__wave_shims" ] && [ -r "$__wave_shims" ]; then . "$__wave_shims"; fi
{ case $__wave_x in *x*) set -x ;; esac; unset __wave_x __wave_f __wave_shims __wave_cwd_file __wave_cwd_start; } 2>/dev/null
}
`;

/**
 * Sourced by zsh as `$ZDOTDIR/.zshenv`. The user's own .zshenv is deliberately not read:
 * commands never run the user's rc files (BASH-SH-5).
 */
export const ZSH_RC = `# wave-core: read by zsh as $ZDOTDIR/.zshenv before the command runs (docs/user/bash.md).
__wave_cwd_file=\${${CWD_FILE_VAR}-}
__wave_cwd_start=\${${CWD_START_VAR}-}
__wave_shims=\${${SHIMS_FILE_VAR}-}
if (( \${+${USER_ZDOTDIR_VAR}} )); then export ZDOTDIR=$${USER_ZDOTDIR_VAR}; else unset ZDOTDIR; fi
unset ${CWD_FILE_VAR} ${CWD_START_VAR} ${SHIMS_FILE_VAR} ${USER_ZDOTDIR_VAR}
if [[ -n $__wave_cwd_file ]]; then trap "{ builtin cd -q -P . && builtin test \\"\\$PWD\\" = \${(qq)__wave_cwd_start} || builtin pwd -P >| \${(q)__wave_cwd_file}; } 2>/dev/null" EXIT; fi
unset __wave_cwd_file __wave_cwd_start
if [[ -n $__wave_shims && -r $__wave_shims ]]; then . "$__wave_shims"; fi
unset __wave_shims
`;

export interface InvocationInput {
  shell: ResolvedShell;
  command: string;
  /** childEnvironment(): the environment every child starts from. */
  baseEnv: NodeJS.ProcessEnv;
  shims: ShimInjection;
  /** This run's marker id (WAVE_RUN_ID); inherited ids are kept after it. */
  runId: string;
  /** Native path of the cwd file; undefined turns tracking off. */
  cwdFile: string | undefined;
  /** The directory the command starts in: ending there writes no cwd file. */
  cwd: string;
  /** Native paths of the rc support files. */
  bashRcFile: string;
  zshRcDir: string;
  /** The core's pid, for the marker that names the owner. */
  corePid: number;
}

export interface Invocation {
  file: string;
  args: string[];
  env: Record<string, string>;
}

export function buildInvocation(input: InvocationInput): Invocation {
  const { shell } = input;
  const win = shell.platform === "win32";
  const toShell = (p: string) => (win ? toGitBashPath(p) : p);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.baseEnv)) if (v !== undefined) env[k] = v;
  const setVar = (key: string, value: string) => {
    if (win) {
      // One variable per name on Windows, whatever its case (Path vs PATH).
      for (const k of Object.keys(env)) if (k !== key && k.toUpperCase() === key.toUpperCase()) delete env[k];
    }
    env[key] = value;
  };

  for (const [k, v] of Object.entries(NON_INTERACTIVE_ENV)) setVar(k, v);
  const inherited = envValue(input.baseEnv, RUN_MARKER_VAR, shell.platform);
  setVar(RUN_MARKER_VAR, inherited ? `${input.runId}:${inherited}` : input.runId);
  setVar(CORE_PID_VAR, String(input.corePid));

  if (shell.kind === "bash") {
    const userBashEnv = envValue(input.baseEnv, "BASH_ENV", shell.platform);
    if (userBashEnv !== undefined) setVar(USER_BASH_ENV_VAR, userBashEnv);
    setVar("BASH_ENV", toShell(input.bashRcFile));
  } else {
    const userZdotdir = envValue(input.baseEnv, "ZDOTDIR", shell.platform);
    if (userZdotdir !== undefined) setVar(USER_ZDOTDIR_VAR, userZdotdir);
    setVar("ZDOTDIR", toShell(input.zshRcDir));
  }
  if (input.shims.prelude) setVar(SHIMS_FILE_VAR, toShell(input.shims.prelude));
  if (input.cwdFile) {
    setVar(CWD_FILE_VAR, toShell(input.cwdFile));
    // Git Bash's $PWD reads /c/Users/… for C:\Users\…: there the file is always written.
    if (!win) setVar(CWD_START_VAR, input.cwd);
  }

  return { file: shell.path, args: ["-c", input.command], env };
}

/**
 * Commands that can change their shell's directory, or run code in it that a reading of the command
 * does not see (`eval`, `source`, a trap, a callback, a built-in loaded or named indirectly).
 */
const SHELL_STATE_COMMANDS = new Set(["cd", "pushd", "popd", ".", "source", "eval", "exec", "builtin", "command", "trap", "enable", "alias", "mapfile", "readarray", "fc", "bind", "complete"]);

/**
 * Whether a command whose command names are these (the permission check's Decision.commandNames;
 * undefined when they are not all known) needs the start-up file: to follow a `cd`, or for a
 * search shim. A name with a slash is a program's path: neither a built-in nor a shim function.
 */
export function needsStartupFile(commandNames: readonly string[] | undefined): boolean {
  return commandNames === undefined || commandNames.some((name) => SHELL_STATE_COMMANDS.has(name) || (SHIM_TOOLS as readonly string[]).includes(name));
}

/**
 * `inv` without the start-up file: a plain `<bash> -c <command>`, in the same environment minus the
 * variables only that file reads, so bash reads nothing before the command and can run its last
 * command in place of itself. Undefined where leaving the file out would change what runs: zsh
 * (ZDOTDIR also keeps the user's zsh files away), a BASH_ENV of the user's (the file runs it, and
 * its functions could be the command's names), exported functions (likewise).
 */
export function withoutStartupFile(inv: Invocation, shell: ResolvedShell): Invocation | undefined {
  if (shell.kind !== "bash" || inv.env[USER_BASH_ENV_VAR] !== undefined) return undefined;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inv.env)) {
    if (name.startsWith("BASH_FUNC_")) return undefined;
    if (!STARTUP_FILE_VARIABLES.includes(name)) env[name] = value;
  }
  return { file: inv.file, args: inv.args, env };
}

/** Whether a shell started with this environment writes the directory it ends in to its cwd file. */
export function tracksCwd(env: Readonly<Record<string, string>>): boolean {
  return env[CWD_FILE_VAR] !== undefined;
}

/** Whether a command is killed instead of backgrounded when it exceeds its timeout (BASH-TO-5). */
export function startsWithSleep(command: string): boolean {
  return /^\s*sleep(\s|$)/.test(command);
}

/**
 * The longest command a shell can be given as its `-c` argument: Linux refuses any single argument
 * over MAX_ARG_STRLEN (32 pages, 131,072 bytes with its final NUL), Windows a command line over
 * 32,767 characters (the shell's path and `-c` take some of it). macOS limits only all arguments and
 * the environment together (ARG_MAX, 1 MiB), which the environment decides; there the spawn's own
 * E2BIG speaks.
 */
const COMMAND_LIMITS: Partial<Record<PlatformName, { max: number; unit: "bytes" | "characters" }>> = {
  linux: { max: 131_071, unit: "bytes" },
  win32: { max: 32_000, unit: "characters" },
};

/** Why a command is too long to start on this platform, or undefined when it fits. */
export function commandLengthProblem(command: string, platform: PlatformName): string | undefined {
  const limit = COMMAND_LIMITS[platform];
  if (!limit) return undefined;
  const size = limit.unit === "bytes" ? Buffer.byteLength(command, "utf8") : command.length;
  if (size <= limit.max) return undefined;
  const system = platform === "win32" ? "Windows" : "Linux";
  return `is ${size.toLocaleString("en-US")} ${limit.unit} long; ${system} passes at most ${limit.max.toLocaleString("en-US")} ${limit.unit} to a shell as one command. Write the script to a file with the Write tool and run that file (bash ./script.sh), or split the work into several commands.`;
}
