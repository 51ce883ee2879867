// The shell text that defines the `grep`, `find` and `rg` shims (BASH-SHIM). Pure: a plan of what
// the bundled tools can do goes in, bash or zsh source comes out. The routing rules live here:
//   grep → bundled ugrep only for recursive searches (-r/-R/-d recurse, or a directory operand:
//          BASH-SHIM-9) whose every flag ugrep handles like GNU grep (BASH-SHIM-4); else system grep.
//   find → bundled bfs with the GNU regex dialect (BASH-SHIM-8) unless a flag or regex needs GNU find;
//          on Windows Git Bash, msys GNU find (BASH-SHIM-5).
//   rg   → bundled ripgrep only when the shell finds no `rg` of its own (BASH-SHIM-3).
// Every function re-checks its binary on each call, so a missing one means the system command, silently
// (BASH-SHIM-7). Functions cannot reach xargs/timeout/env/find -exec/nested shells (BASH-SHIM-2).
import type { ShellKind } from "../types.js";

/** Directories excluded by name (never a file of that name: a worktree's `.git` file can match). */
export const VCS_DIRECTORIES = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl", "_darcs", "CVS"] as const;

export interface UgrepPlan {
  /** Path of the bundled ugrep, as the shell should spell it. */
  path: string;
  /** ugrep ≥ 7.2 understands `--grep` (GNU grep compatibility: -Y by default, -Z/-z as GNU). */
  grepMode: boolean;
}

export interface BfsPlan {
  kind: "bfs";
  path: string;
  /** `findutils-default` (bfs ≥ 3.3) or `emacs`: both are GNU find's default regex dialect. */
  regextype: "findutils-default" | "emacs";
  /** bfs < 4.1.4 drops results for two `-size` tests at its default -O3; -O1 is GNU find's level. */
  optimizeO1: boolean;
  /** Dialects this bfs accepts for a caller's own `-regextype`; others go to the system find. */
  regextypes: string[];
}

export interface GnuFindPlan {
  /** Windows Git Bash: msys's GNU find at this path, never C:\Windows\System32\find.exe. */
  kind: "gnu";
  path: string;
}

export interface ShimPlan {
  grep?: UgrepPlan;
  find?: BfsPlan | GnuFindPlan;
  /** Bundled ripgrep; the prelude still defines `rg` only when the shell has no `rg` itself. */
  rg?: { path: string };
}

/** Single-quotes a word for bash and zsh alike. */
export function shQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * First line of every function: silence xtrace inside the function only (the user's own `set -x`
 * still traces the call itself) and, in zsh, run with zsh's own options whatever the user set.
 * bash < 4.4 has no `local -`; there xtrace is left alone rather than switched off for good.
 */
function guard(kind: ShellKind): string {
  return kind === "zsh"
    ? "{ emulate -L zsh; setopt noxtrace; } 2>/dev/null"
    : "{ local - && set +x; } 2>/dev/null";
}

// GNU grep flags whose meaning ugrep shares. Anything else (-b -T -u -U -y -Z -z -NUM, --null,
// --config, --help, abbreviated long options, ...) runs the system grep (BASH-SHIM-4).
const LONG_FLAGS = [
  "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp", "--ignore-case",
  "--no-ignore-case", "--word-regexp", "--line-regexp", "--no-messages", "--invert-match",
  "--line-number", "--line-buffered", "--with-filename", "--no-filename", "--quiet", "--silent",
  "--text", "--files-without-match", "--files-with-matches", "--no-group-separator",
  "--color", "--colour", "--no-ignore-files",
];
// Long options with a value; `--opt=value` and `--opt value` both work in ugrep, except --max-count.
const LONG_VALUED = [
  "--label", "--binary-files", "--devices", "--include", "--exclude", "--exclude-from",
  "--exclude-dir", "--before-context", "--after-context", "--context", "--group-separator",
];

function grepFunction(kind: ShellKind, plan: UgrepPlan): string {
  const ug = shQuote(plan.path);
  const fixed = [
    ...(plan.grepMode ? ["--grep"] : []),
    "-G", "-.", "--sort", "--ignore-files", "-I", "--color=never",
    ...VCS_DIRECTORIES.map((d) => `--exclude-dir=${d}`),
  ].join(" ");
  // Without --grep, an empty-matching pattern needs -Y to match every line, except with -o.
  const emptyMatch = plan.grepMode ? "" : `\n    [ -z "$o" ] && set -- -Y "$@"`;
  const sys = "command grep \"$@\"; return";
  const nocase = kind === "bash" ? `\n  case $BASHOPTS in *nocasematch*) ${sys} ;; esac` : "";
  return `function grep {
  ${guard(kind)}
  if [ ! -x ${ug} ]; then ${sys}; fi${nocase}
  local a= s= ch= k= e= p= r= d= n=0 o= c= da=
  for a in "$@"; do
    case $a in *\\\\[1-9]*) ${sys} ;; esac
    if [ -n "$k" ]; then
      [ "$k" = d ] && da=$a
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
        --regexp=*|--file=*) p=1; continue ;;
        --regexp|--file) p=1; k=x; continue ;;
        --max-count=*|${LONG_VALUED.map((f) => `${f}=*`).join("|")}|--color=*|--colour=*) continue ;;
        ${LONG_VALUED.join("|")}) k=x; continue ;;
        ${LONG_FLAGS.join("|")}) continue ;;
        --*) ${sys} ;;
        -?*)
          s=\${a#-}
          while [ -n "$s" ]; do
            ch=\${s%"\${s#?}"}; s=\${s#?}
            case $ch in
              [rR]) r=1 ;;
              o) o=1 ;;
              c) c=1 ;;
              [EFGPiwxsvnlLqHhaI]) ;;
              [ef]) p=1; [ -z "$s" ] && k=x; break ;;
              d) if [ -z "$s" ]; then k=d; else da=$s; fi; break ;;
              [ABCmD]) [ -z "$s" ] && k=x; break ;;
              *) ${sys} ;;
            esac
          done
          continue ;;
      esac
    fi
    if [ -z "$p" ]; then p=1; continue; fi
    [ "$a" = - ] && { ${sys}; }
    n=$((n + 1))
    [ -d "$a" ] && d=1
  done
  [ -n "$k" ] || [ -z "$p" ] && { ${sys}; }
  case $da in '') ;; recurse) r=1 ;; *) ${sys} ;; esac
  if [ -n "$r" ] && [ "$n" -gt 0 ] && [ -z "$d" ]; then ${sys}; fi
  if [ -n "$r" ] || [ -n "$d" ]; then
    [ -n "$o" ] && [ -n "$c" ] && { ${sys}; }
    [ -z "$r" ] && set -- -r "$@"
    [ "$n" = 0 ] && set -- "$@" .${emptyMatch}
    ${ug} ${fixed} "$@"
    return
  fi
  ${sys}
}`;
}

// Regex escapes GNU find's emacs dialect knows and bfs's Oniguruma silently never matches.
const BFS_UNSUPPORTED_ESCAPES = "*\\\\[wWbBsS\\<\\>\\`\\']*";

function bfsFunction(kind: ShellKind, plan: BfsPlan): string {
  const bfs = shQuote(plan.path);
  const fixed = ["-S", "dfs", "-nocolor", ...(plan.optimizeO1 ? ["-O1"] : []), "-regextype", plan.regextype].join(" ");
  const types = plan.regextypes.length > 0 ? plan.regextypes.join("|") : plan.regextype;
  const sys = "command find \"$@\"; return";
  return `function find {
  ${guard(kind)}
  if [ ! -x ${bfs} ]; then ${sys}; fi
  local a= v=
  for a in "$@"; do
    case $v in
      -regextype) case $a in ${types}) ;; *) ${sys} ;; esac ;;
      -regex|-iregex) case $a in ${BFS_UNSUPPORTED_ESCAPES}) ${sys} ;; esac ;;
    esac
    case $a in
      -D|-files0-from|-context|-xautofs|-used|-ok|-okdir|-help|--help|-version|--version) ${sys} ;;
    esac
    v=$a
  done
  ${bfs} ${fixed} "$@"
}`;
}

function gnuFindFunction(kind: ShellKind, plan: GnuFindPlan): string {
  const find = shQuote(plan.path);
  return `function find {
  ${guard(kind)}
  if [ -x ${find} ]; then ${find} "$@"; else command find "$@"; fi
}`;
}

function rgFunction(kind: ShellKind, plan: { path: string }): string {
  const rg = shQuote(plan.path);
  return `if [ -x ${rg} ] && ! command -v rg >/dev/null 2>&1; then
function rg {
  ${guard(kind)}
  if [ -x ${rg} ]; then ${rg} "$@"; else command rg "$@"; fi
}
fi`;
}

/** The function definitions for one shell, or "" when there is nothing to shim. */
export function renderShimFunctions(kind: ShellKind, plan: ShimPlan): string {
  const parts: string[] = [];
  if (plan.grep) parts.push(grepFunction(kind, plan.grep));
  if (plan.find) parts.push(plan.find.kind === "bfs" ? bfsFunction(kind, plan.find) : gnuFindFunction(kind, plan.find));
  if (plan.rg) parts.push(rgFunction(kind, plan.rg));
  return parts.join("\n");
}

/** Name of the variable that carries a user's own BASH_ENV / ZDOTDIR past the injection. */
export const SAVED_BASH_ENV = "__WAVE_SHIM_BASH_ENV";
export const SAVED_ZDOTDIR = "__WAVE_SHIM_ZDOTDIR";

/**
 * The file bash sources through BASH_ENV before the command: it puts BASH_ENV back as the user had
 * it (so nested shells behave as without shims), sources the user's own BASH_ENV like bash would,
 * then defines the functions with alias expansion off so a user's aliases cannot reshape them.
 */
export function renderBashEnvFile(plan: ShimPlan): string {
  return `# Wave Tools search shims (README "Search shims"), sourced through BASH_ENV by the Bash tool.
if [ -n "\${${SAVED_BASH_ENV}+x}" ]; then BASH_ENV=$${SAVED_BASH_ENV}; unset ${SAVED_BASH_ENV}; else unset BASH_ENV; fi
if [ -n "\${BASH_ENV:-}" ] && [ -r "$BASH_ENV" ]; then . "$BASH_ENV"; fi
if shopt -q expand_aliases; then shopt -u expand_aliases; __wave_shim_aliases=1; else __wave_shim_aliases=; fi
${renderShimFunctions("bash", plan)}
if [ -n "$__wave_shim_aliases" ]; then shopt -s expand_aliases; fi
unset __wave_shim_aliases
`;
}

/**
 * The `.zshenv` zsh reads from the injected ZDOTDIR: it restores the user's ZDOTDIR, sources the
 * user's own `.zshenv` exactly as zsh would have, then defines the functions with aliases off.
 */
export function renderZshEnvFile(plan: ShimPlan): string {
  return `# Wave Tools search shims (README "Search shims"), read as .zshenv through ZDOTDIR by the Bash tool.
if (( \${+${SAVED_ZDOTDIR}} )); then ZDOTDIR=$${SAVED_ZDOTDIR}; unset ${SAVED_ZDOTDIR}; else unset ZDOTDIR; fi
if [[ -n \${ZDOTDIR:-\${HOME:-}} && -r \${ZDOTDIR:-\${HOME:-}}/.zshenv ]]; then source "\${ZDOTDIR:-\${HOME:-}}/.zshenv"; fi
if [[ -o aliases ]]; then unsetopt aliases; __wave_shim_aliases=1; else __wave_shim_aliases=; fi
${renderShimFunctions("zsh", plan)}
if [[ -n $__wave_shim_aliases ]]; then setopt aliases; fi
unset __wave_shim_aliases
`;
}
