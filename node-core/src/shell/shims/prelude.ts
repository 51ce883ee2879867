// The shell text that defines the `grep`, `find` and `rg` shims (BASH-SHIM). Pure: a plan of the
// bundled tools goes in, bash or zsh source comes out. The routing rules live here:
//   grep → bundled ugrep for recursive searches (-r/-R/-d recurse, or a directory operand, which
//          then recurses: BASH-SHIM-9) whose every flag ugrep reads like GNU grep (BASH-SHIM-4);
//          anything else (pipes, heredocs, single files, unknown flags) → the system grep.
//   find → bundled bfs with GNU find's regex dialect (BASH-SHIM-8) unless a flag or a regex needs
//          GNU find; on Windows Git Bash, msys's GNU find (BASH-SHIM-5).
//   rg   → bundled ripgrep only when the shell finds no `rg` of its own (BASH-SHIM-3).
// Each function checks its binary on every call, so a missing one means the system command,
// silently (BASH-SHIM-7). Functions cannot reach xargs/timeout/env/find -exec/nested shells, where
// the system commands run (BASH-SHIM-2). The functions keep `$?` and never print anything of their
// own, so pipes, redirections, heredocs and `set -e` behave as with the real commands (BASH-SHIM-6).
import type { ShellKind } from "../types.js";
import { VCS_DIRECTORIES } from "../../util/vcs.js";

/**
 * The flags the grep shim puts before the caller's: GNU grep compatibility (`--grep`: empty
 * patterns match every line, -Z/-z/`)` as GNU), BRE, hidden files searched, stable order, every
 * .gitignore on the way down, binary files skipped, VCS directories skipped, no colour. The
 * caller's own flags come later and win (-E/-F/-P, -a, --color=always, --no-ignore-files).
 */
export const UGREP_FIXED_FLAGS: readonly string[] = [
  "--grep",
  "-G",
  "-.",
  "--sort",
  "--ignore-files",
  "-I",
  "--color=never",
  // Directories only (never a file of that name: a worktree's `.git` file can match).
  ...VCS_DIRECTORIES.map((d) => `--exclude-dir=${d}`),
];

/** How the shell starts a bundled tool, paths spelled as that shell reads them. */
export interface ToolLaunch {
  /** Words that start the tool; the shim appends the arguments. */
  command: string[];
  /** Files the shim checks (`[ -x … ]`) before each use; any missing → the system command. */
  requires: string[];
}

export interface BfsPlan extends ToolLaunch {
  kind: "bfs";
  /** `findutils-default` (bfs ≥ 3.3) or `emacs`: both are GNU find's default regex dialect. */
  regextype: "findutils-default" | "emacs";
  /** Dialects this bfs accepts for a caller's own `-regextype`; others go to the system find. */
  regextypes: string[];
  /** bfs < 4.1.4 drops results for two `-size` tests at its default -O3; -O1 is GNU find's level. */
  optimizeO1: boolean;
}

export interface GnuFindPlan {
  /** Windows Git Bash: msys's GNU find at this path, never C:\Windows\System32\find.exe. */
  kind: "gnu";
  path: string;
}

export interface ShimPlan {
  grep?: ToolLaunch;
  find?: BfsPlan | GnuFindPlan;
  /** Bundled ripgrep; the prelude still defines `rg` only when the shell has no `rg` itself. */
  rg?: ToolLaunch;
}

export function isEmptyPlan(plan: ShimPlan): boolean {
  return !plan.grep && !plan.find && !plan.rg;
}

/** Single-quotes a word for bash and zsh alike. */
export function shQuote(word: string): string {
  // Unquoted only when no character is special to either shell (zsh expands a leading `=`).
  return /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const words = (list: readonly string[]) => list.map(shQuote).join(" ");
const present = (launch: ToolLaunch) => launch.requires.map((f) => `[ -x ${shQuote(f)} ]`).join(" && ");

/**
 * First line of every function: xtrace off inside the function only (a user's `set -x` still
 * traces the call itself, once) and, in zsh, zsh's own options whatever the user set. bash < 4.4
 * has no `local -`: there the `&&` leaves xtrace alone rather than switching it off for good.
 */
function guard(kind: ShellKind): string {
  return kind === "zsh" ? "{ emulate -L zsh; setopt noxtrace; } 2>/dev/null" : "{ local - && set +x; } 2>/dev/null";
}

const SYS_GREP = `command grep "$@"; return`;
/** A BRE starting with `*` is literal to GNU grep and an error to ugrep. */
const LEADING_STAR = `'*'*|'^*'*`;

// GNU grep long options without a value that ugrep reads the same way.
const LONG_FLAGS = [
  "--extended-regexp",
  "--fixed-strings",
  "--basic-regexp",
  "--perl-regexp",
  "--ignore-case",
  "--no-ignore-case",
  "--word-regexp",
  "--line-regexp",
  "--no-messages",
  "--invert-match",
  "--line-number",
  "--line-buffered",
  "--with-filename",
  "--no-filename",
  "--quiet",
  "--silent",
  "--text",
  "--files-without-match",
  "--files-with-matches",
  "--no-group-separator",
  "--color",
  "--colour",
  "--no-ignore-files",
];
// Long options whose value may be the next word in both GNU grep and ugrep. (--max-count and
// --group-separator take it only after `=` in ugrep, so those spelled with a space fall back.)
const LONG_VALUED = ["--label", "--binary-files", "--devices", "--include", "--exclude", "--exclude-from", "--exclude-dir", "--before-context", "--after-context", "--context"];
const LONG_WITH_VALUE = [...LONG_VALUED, "--max-count", "--group-separator", "--color", "--colour"].map((f) => `${f}=*`);

function grepFunction(kind: ShellKind, ug: ToolLaunch): string {
  // bash's nocasematch would make `case` read -e as -E; such a shell gets the system grep.
  const nocase = kind === "bash" ? `\n  case \${BASHOPTS-} in *nocasematch*) ${SYS_GREP} ;; esac` : "";
  return `function grep {
  ${guard(kind)}
  if ! { ${present(ug)}; }; then ${SYS_GREP}; fi${nocase}
  local a= s= ch= k= e= p= r= d= n=0 o= c= da=
  for a in "$@"; do
    case $a in *\\\\[1-9]*) ${SYS_GREP} ;; esac
    if [ -n "$k" ]; then
      case $k in d) da=$a ;; e) case $a in ${LEADING_STAR}) ${SYS_GREP} ;; esac ;; esac
      k=; continue
    fi
    if [ -z "$e" ]; then
      case $a in
        --) e=1; continue ;;
        --recursive|--dereference-recursive) r=1; continue ;;
        --directories=*) da=\${a#*=}; continue ;;
        --directories) k=d; continue ;;
        --only-matching) o=1; continue ;;
        --count) c=1; continue ;;
        --regexp=*) p=1; case \${a#*=} in ${LEADING_STAR}) ${SYS_GREP} ;; esac; continue ;;
        --regexp) p=1; k=e; continue ;;
        --file=*) p=1; continue ;;
        --file) p=1; k=x; continue ;;
        ${LONG_WITH_VALUE.join("|")}) continue ;;
        ${LONG_VALUED.join("|")}) k=x; continue ;;
        ${LONG_FLAGS.join("|")}) continue ;;
        --*) ${SYS_GREP} ;;
        -?*)
          s=\${a#-}
          while [ -n "$s" ]; do
            ch=\${s%"\${s#?}"}; s=\${s#?}
            case $ch in
              [rR]) r=1 ;;
              o) o=1 ;;
              c) c=1 ;;
              [EFGPiwxsvnlLqHhaI]) ;;
              e) p=1; if [ -z "$s" ]; then k=e; else case $s in ${LEADING_STAR}) ${SYS_GREP} ;; esac; fi; break ;;
              f) p=1; [ -z "$s" ] && k=x; break ;;
              d) if [ -z "$s" ]; then k=d; else da=$s; fi; break ;;
              [ABCmD]) [ -z "$s" ] && k=x; break ;;
              *) ${SYS_GREP} ;;
            esac
          done
          continue ;;
      esac
    fi
    if [ -z "$p" ]; then
      p=1
      case $a in ${LEADING_STAR}) ${SYS_GREP} ;; esac
      continue
    fi
    if [ "$a" = - ]; then ${SYS_GREP}; fi
    n=$((n + 1))
    if [ -d "$a" ]; then d=1; fi
  done
  if [ -n "$k" ] || [ -z "$p" ]; then ${SYS_GREP}; fi
  case $da in '') ;; recurse) r=1 ;; *) ${SYS_GREP} ;; esac
  if [ -z "$d" ] && { [ -z "$r" ] || [ "$n" -gt 0 ]; }; then ${SYS_GREP}; fi
  if [ -n "$o" ] && [ -n "$c" ]; then ${SYS_GREP}; fi
  if [ -z "$r" ]; then set -- -r "$@"; fi
  if [ "$n" = 0 ]; then set -- "$@" .; fi
  ${words(ug.command)} ${words(UGREP_FIXED_FLAGS)} "$@"
}`;
}

// Regex escapes GNU find's emacs dialect knows and bfs's Oniguruma silently never matches.
const BFS_UNSUPPORTED_ESCAPES = "*\\\\[wWbBsS\\<\\>\\`\\']*";
// GNU find options bfs lacks or reads differently; -ok/-okdir prompt on a stdin nobody answers.
const BFS_FALLBACK_WORDS = ["-D", "-files0-from", "-context", "-xautofs", "-used", "-ok", "-okdir", "-help", "--help", "-version", "--version"];

function bfsFunction(kind: ShellKind, plan: BfsPlan): string {
  const sys = `command find "$@"; return`;
  const fixed = ["-S", "dfs", "-nocolor", ...(plan.optimizeO1 ? ["-O1"] : []), "-regextype", plan.regextype];
  const types = (plan.regextypes.length > 0 ? plan.regextypes : [plan.regextype]).map(shQuote).join("|");
  return `function find {
  ${guard(kind)}
  if ! { ${present(plan)}; }; then ${sys}; fi
  local a= v=
  for a in "$@"; do
    case $v in
      -regextype) case $a in ${types}) ;; *) ${sys} ;; esac ;;
      -regex|-iregex) case $a in ${BFS_UNSUPPORTED_ESCAPES}) ${sys} ;; esac ;;
    esac
    case $a in ${BFS_FALLBACK_WORDS.join("|")}) ${sys} ;; esac
    v=$a
  done
  ${words(plan.command)} ${words(fixed)} "$@"
}`;
}

function gnuFindFunction(kind: ShellKind, plan: GnuFindPlan): string {
  const find = shQuote(plan.path);
  return `function find {
  ${guard(kind)}
  if [ -x ${find} ]; then ${find} "$@"; else command find "$@"; fi
}`;
}

function rgFunction(kind: ShellKind, rg: ToolLaunch): string {
  return `function rg {
  ${guard(kind)}
  if ${present(rg)}; then ${words(rg.command)} "$@"; else command rg "$@"; fi
}`;
}

export type ShimTool = "grep" | "find" | "rg";

/** The commands a shim can stand for (as shell functions of these names). */
export const SHIM_TOOLS: readonly ShimTool[] = ["grep", "find", "rg"];

/** The full definition of one shim, or undefined when the plan has no such tool. */
export function renderShimFunction(kind: ShellKind, tool: ShimTool, plan: ShimPlan): string | undefined {
  if (tool === "grep") return plan.grep && grepFunction(kind, plan.grep);
  if (tool === "find") return plan.find && (plan.find.kind === "bfs" ? bfsFunction(kind, plan.find) : gnuFindFunction(kind, plan.find));
  return plan.rg && rgFunction(kind, plan.rg);
}

export function shimTools(plan: ShimPlan): ShimTool[] {
  return SHIM_TOOLS.filter((t) => plan[t] !== undefined);
}

/**
 * A stub that, on the first call, replaces itself with the full function from `file` and calls
 * it: a shell start then parses one line per tool, not the whole argument scanner. The stub
 * removes itself first, so a file gone missing (a tmp cleaner) leaves the system command
 * (BASH-SHIM-7), never a loop.
 */
function stub(kind: ShellKind, tool: ShimTool, file: string): string {
  const f = shQuote(file);
  const load = kind === "zsh" ? `if [[ -r ${f} ]]; then { . ${f}; } 2>/dev/null || :; fi` : `if [ -r ${f} ]; then { . ${f}; } 2>/dev/null || :; fi`;
  const quiet = kind === "zsh" ? "{ emulate -L zsh; setopt noxtrace noaliases; } 2>/dev/null" : guard(kind);
  return `function ${tool} { ${quiet}; unset -f ${tool}; ${load}; ${tool} "$@"; }`;
}

/**
 * One tool's file: its full function, parsed with alias expansion off so a user's aliases cannot
 * reshape it (zsh's stub already turned aliases off while it sources the file).
 */
function toolFileText(kind: ShellKind, tool: ShimTool, plan: ShimPlan): string {
  const fn = renderShimFunction(kind, tool, plan)!;
  if (kind === "zsh") return `${fn}\n`;
  return `if shopt -q expand_aliases; then shopt -u expand_aliases; __wave_shim_a=1; else __wave_shim_a=; fi
${fn}
if [ -n "$__wave_shim_a" ]; then shopt -s expand_aliases; fi; unset __wave_shim_a
`;
}

function stubs(kind: ShellKind, plan: ShimPlan, toolFile: (tool: ShimTool) => string): string {
  return shimTools(plan)
    .map((tool) => {
      const s = stub(kind, tool, toolFile(tool));
      // rg only when the shell has none of its own (BASH-SHIM-3), decided as the shell starts.
      return tool === "rg" ? `if ${present(plan.rg!)} && ! command -v rg >/dev/null 2>&1; then\n${s}\nfi` : s;
    })
    .join("\n");
}

/**
 * The prelude: the file the Bash runner's start-up file sources (shell/invocation.ts), after the
 * user's own BASH_ENV in bash, before the command. It only defines the stubs — putting
 * BASH_ENV/ZDOTDIR back, cwd tracking and xtrace silence are the start-up file's — and parses them
 * with alias expansion off, so aliases a user's BASH_ENV defined cannot reshape them.
 */
export function renderPrelude(kind: ShellKind, plan: ShimPlan, toolFile: (tool: ShimTool) => string): string {
  const header = "# Wave Tools search shims (docs/user/shims.md), sourced by the Bash tool's start-up file.";
  if (kind === "zsh") {
    return `${header}
if [[ -o aliases ]]; then unsetopt aliases; __wave_shim_a=1; else __wave_shim_a=; fi
${stubs("zsh", plan, toolFile)}
if [[ -n $__wave_shim_a ]]; then setopt aliases; fi; unset __wave_shim_a
`;
  }
  return `${header}
if shopt -q expand_aliases; then shopt -u expand_aliases; __wave_shim_a=1; else __wave_shim_a=; fi
${stubs("bash", plan, toolFile)}
if [ -n "$__wave_shim_a" ]; then shopt -s expand_aliases; fi; unset __wave_shim_a
`;
}

/**
 * Every file one shell needs, by name inside its own directory: the prelude (`prelude.bash` or
 * `prelude.zsh`) and one full definition per tool. `spell` turns a native path into the shell's
 * spelling (Git Bash: `C:/…`).
 */
export function renderInjectionFiles(kind: ShellKind, plan: ShimPlan, dir: string, join: (dir: string, name: string) => string, spell: (file: string) => string): Record<string, string> {
  const ext = kind === "zsh" ? "zsh" : "bash";
  const toolFile = (tool: ShimTool) => spell(join(dir, `${tool}.${ext}`));
  const files: Record<string, string> = {};
  for (const tool of shimTools(plan)) files[`${tool}.${ext}`] = toolFileText(kind, tool, plan);
  files[preludeFileName(kind)] = renderPrelude(kind, plan, toolFile);
  return files;
}

export function preludeFileName(kind: ShellKind): string {
  return `prelude.${kind === "zsh" ? "zsh" : "bash"}`;
}
