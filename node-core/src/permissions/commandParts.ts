// Splits a shell command into the simple commands ("parts") that will actually run, using a real
// Bash parser (unbash). Every part is judged on its own: `git status && rm -rf ~` is two parts,
// and so are the commands inside `$(…)`, backticks, `<(…)`, subshells, functions, `bash -c '…'`,
// `eval '…'`, `trap '…'`, `find -exec …`, `xargs …`, `flock -c '…'`, `watch '…'` and a shell fed a
// heredoc. `[[ … ]]` and `(( … ))` are parts too: they evaluate expressions.
//
// The reading is conservative: what a static reading cannot know (code hidden in expansions,
// start-up files, variables set by earlier statements) is recorded on the parts, so the
// decision can ask instead of guessing.
//
// The walk is in modules of its own, each about one kind of thing it reads:
//   walk.ts             its memory and the steps every node shares (scripts, substitutions,
//                       command strings, making parts)
//   compoundCommands.ts lists, pipelines, groups, functions, loops and branches
//   simpleCommand.ts    a simple command as a part, and the `cd`s that move the later ones
//   redirections.ts     what a redirection is, and the words it expands
//   changes.ts          what a command changes for the commands after it
//   nestedPrograms.ts   the programs a command runs itself (`bash -c`, `eval`, `find -exec`,
//                       `xargs`, …), and a shell's start-up files
//   evaluation.ts       `[[ … ]]`, `(( … ))` and the operands built-ins evaluate as arithmetic
//   finish.ts           what only the whole command tells (which variables can hold code)
// words.ts, expansions.ts and wrappers.ts read single words, their expansions and wrapper commands.
import type { SyntaxLibraries } from "../util/bashSyntax.js";
import type { HiddenCode } from "./expansions.js";
import { finish } from "./finish.js";
import { Walk } from "./walk.js";
import type { ShellRedirect, ShellWord } from "./words.js";

export type { HiddenCode } from "./expansions.js";
export * from "./words.js";
export * from "./wrappers.js";

export interface CommandPart {
  /** The part as written (for `find -exec` and `xargs`: the command they run). */
  readonly text: string;
  /** `NAME=value` words before the command name. */
  readonly assignments: readonly ShellWord[];
  /** The command name and its arguments; empty for a line of assignments or redirections only. */
  readonly words: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  /** The directory it is expected to run in; undefined when an earlier `cd` makes it unknowable. */
  readonly cwd: string | undefined;
  /** How the part was reached, outermost first: `$(…)`, `bash -c`, `find -exec`, … */
  readonly via: readonly string[];
  /** Commands whose output reaches this one's input through a pipe. */
  readonly pipedFrom: readonly CommandPart[];
  /** Commands run by substitutions in this part's words: `$(…)`, backticks, `<(…)`. */
  readonly substitutions: readonly CommandPart[];
  /** Code the shell evaluates from this part's expansions when it runs (see expansions.ts). */
  readonly hiddenCode: readonly HiddenCode[];
  /** `[[ … ]]` or `(( … ))` (also `for ((…))`): not a simple command, no rule can name it. */
  readonly compound?: "[[" | "((";
  /** For `[[ … ]]`: nothing in it is evaluated as code (no arithmetic on variables, no `-v` subscripts). */
  readonly inertTest?: boolean;
  /** Why this shell runs files or functions before its command (start-up files, BASH_ENV, …). */
  readonly startupFiles?: string;
  /** Runs code given as a string this reading could not see (`trap "$x"`, `watch "$cmd"`, …). */
  readonly dynamicCode?: string;
  /**
   * A word of it sits where bash or zsh evaluate it as arithmetic: an assignment's subscript
   * (`a[i]=1`, `a=([k]=v)`), other than a literal number. Such a part is never a harmless built-in.
   */
  readonly evaluates?: string;
}

/** Something a statement changes for the commands after it: a variable, an alias, a function, an option. */
export interface EnvironmentChange {
  /** As written: `PATH=/x`, `export PATH`, `alias ll=…`, `set -k`. */
  readonly text: string;
  /** The variable it sets, exports or unsets. */
  readonly name?: string;
  /** `NAME=value` when the value is known (a rule can name it as a prefix). */
  readonly assignment?: string;
  /** Exports the variable to the programs started after it (export, declare -x, …). */
  readonly exports?: boolean;
  /** Changes more than one variable's value (alias, hash -p, enable, trap, source, set -k, …). */
  readonly opaque?: boolean;
  /** The part that makes the change (it is not changed by it itself). */
  readonly part?: CommandPart;
}

export interface SplitCommand {
  parts: CommandPart[];
  /** Syntax errors; a command with errors is never allowed by rules alone. */
  errors: string[];
  /** Functions that start copies of themselves in the background or in a pipe (fork bombs). */
  selfSpawningFunctions: string[];
  /** What statements change for later ones, in any order (loops can run a later statement first). */
  changes: EnvironmentChange[];
  /** `set -a` / `set -o allexport`: every variable set afterwards is exported. */
  exportsAll: boolean;
  /** Functions the command defines: calling one runs its body, not the program of that name. */
  functions: string[];
  /** Code hidden in expansions outside any simple command (`case $((x)) in`, `for i in ${!x}`). */
  hiddenCode: HiddenCode[];
}

export interface SplitOptions {
  cwd: string | undefined;
  home: string;
}

export { STARTUP_VARIABLE } from "./nestedPrograms.js";

export function splitCommand(source: string, lib: SyntaxLibraries, opts: SplitOptions): SplitCommand {
  const out: SplitCommand = { parts: [], errors: [], selfSpawningFunctions: [], changes: [], exportsAll: false, functions: [], hiddenCode: [] };
  const walk = new Walk(lib, opts, out);
  walk.script(lib.parse(source), { cwd: opts.cwd, via: [], pipedFrom: [], depth: 0, src: source, spawning: false }, "");
  finish(walk);
  return out;
}
