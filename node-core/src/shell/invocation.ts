// How a Bash-tool command becomes a process: `<shell> -c <shim prefix><command>` with an
// environment built from childEnvironment(), the non-interactive defaults, the run markers, the
// shim injection and the cwd-tracking hooks.
//
// CWD tracking adds no text to the command. Bash reads a small file named by BASH_ENV before the
// `-c` string runs, zsh reads `$ZDOTDIR/.zshenv`; ours set an EXIT trap that writes `pwd -P` to
// the run's cwd file, then put BASH_ENV/ZDOTDIR back as the user had them. So `$LINENO`, syntax
// error line numbers and `$?` are the user's own, the trap runs after `exit N` and failures, and
// nested shells do not inherit it. (A shim prelude given as `scriptPrefix` still shifts line
// numbers by its own line count; one given as BASH_ENV/ZDOTDIR in the shim `env` is chained from
// our files and shifts nothing.)
import { CORE_PID_VAR, RUN_MARKER_VAR } from "./processTable.js";
import { envValue } from "./platform.js";
import type { ShimInjection } from "./shims/index.js";
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

/** Variables the rc files consume (and remove) before the command runs. */
export const CWD_FILE_VAR = "WAVE_CWD_FILE";
const USER_BASH_ENV_VAR = "WAVE_USER_BASH_ENV";
const NEXT_BASH_ENV_VAR = "WAVE_NEXT_BASH_ENV";
const USER_ZDOTDIR_VAR = "WAVE_USER_ZDOTDIR";
const NEXT_ZDOTDIR_VAR = "WAVE_NEXT_ZDOTDIR";

export const BASH_RC_FILE = "rc/bash_env.sh";
export const ZSH_RC_DIR = "rc/zsh";

/** Sourced by bash through BASH_ENV. Ends with a command that succeeds, so `$?` starts at 0. */
export const BASH_RC = `# wave-core: read by bash through BASH_ENV before the command runs.
__wave_cwd_file=\${${CWD_FILE_VAR}-}
__wave_user=\${${USER_BASH_ENV_VAR}-}
__wave_user_set=\${${USER_BASH_ENV_VAR}+x}
__wave_next=\${${NEXT_BASH_ENV_VAR}-}
unset ${CWD_FILE_VAR} ${USER_BASH_ENV_VAR} ${NEXT_BASH_ENV_VAR} BASH_ENV
[ -n "$__wave_cwd_file" ] && trap 'builtin pwd -P >| "$__wave_cwd_file" 2>/dev/null' EXIT
[ -n "$__wave_user" ] && [ -r "$__wave_user" ] && . "$__wave_user"
[ -n "$__wave_next" ] && [ -r "$__wave_next" ] && . "$__wave_next"
[ -n "$__wave_user_set" ] && export BASH_ENV="$__wave_user"
unset __wave_user __wave_user_set __wave_next
`;

/**
 * Sourced by zsh as `$ZDOTDIR/.zshenv`. The user's own ~/.zshenv is deliberately not read:
 * commands never run the user's rc files (BASH-SH-5).
 */
export const ZSH_RC = `# wave-core: read by zsh as $ZDOTDIR/.zshenv before the command runs.
__wave_cwd_file=\${${CWD_FILE_VAR}-}
__wave_user=\${${USER_ZDOTDIR_VAR}-}
__wave_user_set=\${${USER_ZDOTDIR_VAR}+x}
__wave_next=\${${NEXT_ZDOTDIR_VAR}-}
unset ${CWD_FILE_VAR} ${USER_ZDOTDIR_VAR} ${NEXT_ZDOTDIR_VAR} ZDOTDIR
[[ -n $__wave_cwd_file ]] && trap 'builtin pwd -P >| "$__wave_cwd_file" 2>/dev/null' EXIT
[[ -n $__wave_next && -r $__wave_next/.zshenv ]] && ZDOTDIR=$__wave_next && . "$__wave_next/.zshenv"
unset ZDOTDIR
[[ -n $__wave_user_set ]] && export ZDOTDIR=$__wave_user
unset __wave_user __wave_user_set __wave_next
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

  const shimEnv = { ...input.shims.env };
  if (shell.kind === "bash") {
    const userBashEnv = envValue(input.baseEnv, "BASH_ENV", shell.platform);
    if (userBashEnv !== undefined) setVar(USER_BASH_ENV_VAR, userBashEnv);
    if (shimEnv.BASH_ENV) setVar(NEXT_BASH_ENV_VAR, toShell(shimEnv.BASH_ENV));
    delete shimEnv.BASH_ENV;
    setVar("BASH_ENV", toShell(input.bashRcFile));
  } else {
    const userZdotdir = envValue(input.baseEnv, "ZDOTDIR", shell.platform);
    if (userZdotdir !== undefined) setVar(USER_ZDOTDIR_VAR, userZdotdir);
    if (shimEnv.ZDOTDIR) setVar(NEXT_ZDOTDIR_VAR, shimEnv.ZDOTDIR);
    delete shimEnv.ZDOTDIR;
    setVar("ZDOTDIR", input.zshRcDir);
  }
  for (const [k, v] of Object.entries(shimEnv)) setVar(k, v);
  if (input.cwdFile) setVar(CWD_FILE_VAR, toShell(input.cwdFile));

  return { file: shell.path, args: ["-c", input.shims.scriptPrefix + input.command], env };
}

/** Whether a command is killed instead of backgrounded when it exceeds its timeout (BASH-TO-5). */
export function startsWithSleep(command: string): boolean {
  return /^\s*sleep(\s|$)/.test(command);
}
