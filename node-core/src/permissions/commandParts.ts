// Splits a shell command into the simple commands ("parts") that will actually run, using a real
// Bash parser (unbash). Every part is judged on its own: `git status && rm -rf ~` is two parts,
// and so are the commands inside `$(…)`, backticks, `<(…)`, subshells, functions, `bash -c '…'`,
// `eval '…'`, `trap '…'`, `find -exec …`, `xargs …`, `flock -c '…'`, `watch '…'` and a shell fed a
// heredoc. `[[ … ]]` and `(( … ))` are parts too: they evaluate expressions.
//
// The reading is conservative: what a static reading cannot know (code hidden in expansions,
// start-up files, variables set by earlier statements) is recorded on the parts, so the
// decision can ask instead of guessing.
import type * as U from "unbash";
import { analyzeWord, arithmetic, isPositional, valueRunsCode, type HiddenCode, type WordAnalysis } from "./expansions.js";
import type { SyntaxLibraries } from "../util/bashSyntax.js";
import { findExecCommands, fdExecCommands, parallelCommand, shellScriptOperand, unwrap, watchCommand, xargsCommand } from "./wrappers.js";
import { assignmentWord, baseName, networkPath, resolveWordPath, wordInfo, writesFile, type ShellRedirect, type ShellWord } from "./words.js";

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

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh", "rbash", "yash", "posh"]);
/** Shells with another syntax: their `-c` string is read as bash for its commands, but never stands for them. */
const OTHER_SHELLS = new Set(["fish", "csh", "tcsh", "elvish", "nu", "xonsh"]);
const MAX_NESTING = 8;
const DECLARATIONS = new Set(["export", "declare", "typeset", "local", "readonly", "integer", "float"]);
/**
 * Variables that evaluate what they are given as arithmetic (so a subscript in the value runs its
 * command substitutions), proved in bash 5.2 and zsh 5.9: bash's RANDOM, SRANDOM, SECONDS, OPTIND,
 * HISTCMD; zsh's RANDOM, SECONDS, OPTIND, COLUMNS, LINES, HISTSIZE, SAVEHIST, SHLVL, MAILCHECK,
 * KEYTIMEOUT, LISTMAX, ZLE_RPROMPT_INDENT, TRY_BLOCK_ERROR, TRY_BLOCK_INTERRUPT, ERRNO.
 */
const INTEGER_VARIABLES = new Set(["RANDOM", "SRANDOM", "SECONDS", "OPTIND", "HISTCMD", "COLUMNS", "LINES", "HISTSIZE", "SAVEHIST", "SHLVL", "MAILCHECK", "KEYTIMEOUT", "LISTMAX", "ZLE_RPROMPT_INDENT", "TRY_BLOCK_ERROR", "TRY_BLOCK_INTERRUPT", "ERRNO"]);
/** Declaration options that give a variable the integer or float attribute: what it is given is then evaluated. */
const INTEGER_OPTION = /^-[a-zA-Z0-9]*[iEF]/;
/** Built-ins whose prefix assignments stay set after them (POSIX special built-ins). */
const SPECIAL_BUILTINS = new Set([":", ".", "source", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "times", "trap", "unset", "break", "continue"]);
/** Built-ins that change how later commands are found or run. */
const OPAQUE_CHANGES = new Set(["alias", "unalias", "hash", "enable", "emulate", "zmodload", "autoload", "functions", "disable", "rehash", "bind", "complete", "compdef"]);
/** Variables that change what a started shell runs before its command, or which program runs. */
export const STARTUP_VARIABLE = /^(BASH_ENV|ENV|ZDOTDIR|HOME|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|PATH|IFS|BASH_FUNC_.*|LD_PRELOAD|LD_LIBRARY_PATH)$/;
/**
 * Shell tables whose entries are code or programs: zsh's `functions[x]='…'`, `aliases`, `commands`
 * (the command hash), `options`; bash's `BASH_ALIASES` and `BASH_CMDS`.
 */
const CODE_TABLES = /^(functions|aliases|galiases|saliases|dis_functions|dis_aliases|dis_galiases|dis_saliases|commands|options|BASH_ALIASES|BASH_CMDS)$/;
/** Prompt strings: bash (and zsh with PROMPT_SUBST) runs their command substitutions when it shows them. */
const PROMPT_VARIABLE = /^(PS[0-4]|PROMPT[0-9]?|RPROMPT[0-9]?|RPS[12]|SPROMPT|PROMPT_COMMAND)$/;
const SAFE_SET_FLAGS = /^[-+][euxvfCBhmbHPTE]*o?$/;
const SAFE_SET_OPTIONS = new Set(["pipefail", "errexit", "nounset", "xtrace", "verbose", "noglob", "noclobber", "errtrace", "functrace", "braceexpand", "hashall", "monitor", "notify"]);
const SAFE_SHOPT = new Set(["nullglob", "globstar", "extglob", "dotglob", "failglob", "nocaseglob", "nocasematch", "lastpipe", "inherit_errexit", "globasciiranges", "checkwinsize", "cmdhist", "histappend"]);
const SAFE_SETOPT = /^(no_?)?(nullglob|nomatch|errexit|err_exit|pipefail|pipe_fail|nounset|no_unset|xtrace|globdots|glob_dots|ksharrays|ksh_arrays|shwordsplit|sh_word_split|localoptions|local_options|warncreateglobal)$/i;

interface Env {
  cwd: string | undefined;
  via: string[];
  pipedFrom: CommandPart[];
  depth: number;
  src: string;
  fn?: string;
  spawning: boolean;
}

interface Candidate {
  /** A shell whose inner parts stand for it, unless an earlier statement changed what it runs first. */
  part: CommandPart;
  /** Where in `parts` it goes if it has to stand on its own after all. */
  at: number;
}

export function splitCommand(source: string, lib: SyntaxLibraries, opts: SplitOptions): SplitCommand {
  const out: SplitCommand = { parts: [], errors: [], selfSpawningFunctions: [], changes: [], exportsAll: false, functions: [], hiddenCode: [] };
  const walker = new Walker(lib, opts, out);
  walker.script(lib.parse(source), { cwd: opts.cwd, via: [], pipedFrom: [], depth: 0, src: source, spawning: false }, "");
  walker.finish();
  return out;
}

type MutablePart = { -readonly [K in keyof CommandPart]: CommandPart[K] } & { hiddenCode: HiddenCode[] };

class Walker {
  /** Every value a variable is given in this command (undefined: known only at run time). */
  private readonly values = new Map<string, (string | undefined)[]>();
  /** A name set or referenced at run time (`declare -n`, `printf -v "$n"`, `source`): any variable may hold anything. */
  private anyVariable = false;
  /** `declare -i`, `typeset -i`, `integer`: some variable evaluates what it is given as arithmetic. */
  private integers = false;
  /** The variables declared integer or float in this command (`declare -i x`, `integer x`, `float x`). */
  private readonly integerNames = new Set<string>();
  /** An integer declaration of a name known only at run time: any variable may be one. */
  private anyInteger = false;
  /** Every assignment with the part that makes it (undefined: a `for`/`select` header), settled in finish(). */
  private readonly writes: { name: string; values: (string | undefined)[]; text: string; part?: MutablePart }[] = [];
  private readonly candidates: Candidate[] = [];
  private readonly partsOutside: HiddenCode[] = [];

  constructor(
    private readonly lib: SyntaxLibraries,
    private readonly opts: SplitOptions,
    private readonly out: SplitCommand,
  ) {}

  script(script: U.ParsedScript, env: Env, where: string): void {
    for (const e of script.errors ?? []) this.out.errors.push(where ? `${where}: ${e.message}` : e.message);
    const scoped = script.source !== undefined ? { ...env, src: script.source } : env;
    for (const st of script.commands) this.visit(st, scoped);
    if (scoped !== env) env.cwd = scoped.cwd;
  }

  private fork(env: Env, patch: Partial<Env> = {}): Env {
    return { ...env, ...patch };
  }

  private visit(node: U.SyntaxNode, env: Env): void {
    switch (node.type) {
      case "Script":
        this.script(node as U.ParsedScript, env, "");
        return;
      case "CompoundList":
        for (const st of node.commands) this.visit(st, env);
        return;
      case "Statement":
        if (node.background) this.visit(node.command, this.fork(env, { spawning: true }));
        else this.visit(node.command, env);
        return;
      case "AndOr":
        for (const c of node.commands) this.visit(c, env);
        return;
      case "Pipeline": {
        if (node.commands.length === 1) return this.visit(node.commands[0]!, env);
        const produced: CommandPart[] = [];
        node.commands.forEach((c, i) => {
          const start = this.out.parts.length;
          // Each element of a pipeline runs in a subshell: a `cd` there changes nothing after it.
          this.visit(c, this.fork(env, { pipedFrom: i === 0 ? env.pipedFrom : [...produced], spawning: true }));
          produced.push(...this.out.parts.slice(start));
        });
        return;
      }
      case "Command":
        this.command(node, env);
        return;
      case "Subshell":
        this.visit(node.body, this.fork(env));
        return;
      case "BraceGroup":
        this.visit(node.body, env);
        return;
      case "Function": {
        const name = node.name.value ?? node.name.text;
        if (!this.out.functions.includes(name)) this.out.functions.push(name);
        this.visit(node.body, this.fork(env, { fn: name, spawning: false }));
        return;
      }
      case "Coproc":
        this.visit(node.body, this.fork(env, { spawning: true }));
        return;
      case "Redirected": {
        this.visit(node.command, env);
        const redirects = node.redirects.map((r) => this.redirect(r));
        this.nestedIn(node.redirects, env);
        const analysis = this.analyzeAll(node.redirects.flatMap(redirectWords));
        // `{ …; } > file` writes a file of its own, and `< /dev/tcp/…` connects: a part to judge.
        const opens = (r: ShellRedirect) => (r.operator === "<" || r.operator === "<&") && (r.target?.value === undefined || networkPath(r.target.value));
        if (redirects.some((r) => writesFile(r) || opens(r)) || analysis.hidden.length > 0) {
          this.push(this.part(env, { text: this.slice(env, node.redirects), assignments: [], words: [], redirects, substitutions: [] }), analysis.hidden);
        }
        return;
      }
      case "TestCommand":
        this.testCommand(node, env);
        return;
      case "ArithmeticCommand":
        this.arithmeticPart(node.body, `((${node.body}))`, env, node);
        return;
      case "ArithmeticFor": {
        const header = /\(\(([\s\S]*)\)\)/.exec(env.src.slice(node.pos, node.body.pos));
        // Its three expressions are read like one joined by commas.
        this.arithmeticPart((header?.[1] ?? "").replace(/;/g, ","), `for ((${header?.[1] ?? "…"}))`, env, node);
        const inner = this.fork(env);
        this.visit(node.body, inner);
        if (inner.cwd !== env.cwd) env.cwd = undefined;
        return;
      }
      case "For":
      case "Select": {
        const values = (node.wordlist ?? []).map((w) => this.valueOf(w));
        this.assign(node.name.value, node.wordlist ? values : [undefined], { text: `${node.type === "For" ? "for" : "select"} ${node.name.value} in …` });
        this.change({ text: `${node.type === "For" ? "for" : "select"} ${node.name.value} in …`, name: node.name.value });
        this.outside(node.wordlist ?? []);
        this.nestedIn(node.wordlist ?? [], env);
        const inner = this.fork(env);
        this.visit(node.body, inner);
        if (inner.cwd !== env.cwd) env.cwd = undefined;
        return;
      }
      case "Case": {
        this.outside([node.word, ...node.items.flatMap((i) => i.pattern)]);
        const inner = this.fork(env);
        this.lib.forEachChild(node, (child) => this.visit(child, inner));
        if (inner.cwd !== env.cwd) env.cwd = undefined;
        return;
      }
      case "If":
      case "While": {
        // Branches and loop bodies may or may not run: a `cd` inside leaves the directory unknown.
        const inner = this.fork(env);
        this.lib.forEachChild(node, (child) => this.visit(child, inner));
        if (inner.cwd !== env.cwd) env.cwd = undefined;
        return;
      }
      case "CaseItem":
      case "Elif":
        this.lib.forEachChild(node, (child) => this.visit(child, env));
        return;
      default:
        this.nested(node, env);
    }
  }

  /** Finds the scripts of substitutions inside words and walks them as parts of their own. */
  private nested(node: U.SyntaxNode, env: Env): void {
    if (node.type === "CommandExpansion" || node.type === "ProcessSubstitution" || node.type === "ArithmeticCommandExpansion") {
      const label = node.type === "ProcessSubstitution" ? `${node.operator}(…)` : node.text.startsWith("`") ? "`…`" : "$(…)";
      const script = node.script;
      if (!script) return;
      if (env.depth >= MAX_NESTING) {
        this.out.errors.push(`substitutions nested more than ${MAX_NESTING} deep were not checked`);
        return;
      }
      this.script(script, this.fork(env, { via: [...env.via, label], pipedFrom: [], depth: env.depth + 1 }), label);
      return;
    }
    this.lib.forEachChild(node, (child) => this.nested(child, env));
  }

  private nestedIn(nodes: readonly U.SyntaxNode[], env: Env): void {
    for (const n of nodes) this.nested(n, this.fork(env));
  }

  private slice(env: Env, nodes: readonly { pos: number; end: number }[]): string {
    if (nodes.length === 0) return "";
    return env.src.slice(nodes[0]!.pos, nodes[nodes.length - 1]!.end);
  }

  /** Words outside any simple command (for, select and case headers): their hidden code counts for the whole command. */
  private outside(words: readonly U.Word[]): void {
    const a = this.analyzeAll(words);
    this.partsOutside.push(...a.hidden);
  }

  private analyzeAll(words: readonly (U.Word | undefined)[]): WordAnalysis {
    const all: WordAnalysis = { plain: true, hidden: [], assigns: [] };
    for (const w of words) {
      const a = analyzeWord(w);
      all.plain &&= a.plain;
      all.hidden.push(...a.hidden);
      all.assigns.push(...a.assigns);
    }
    for (const { name, value } of all.assigns) {
      this.assign(name, [value]);
      this.change({ text: `${name}=${value ?? "…"}`, name, ...(value !== undefined ? { assignment: `${name}=${value}` } : {}) });
    }
    return all;
  }

  private command(cmd: U.Command, env: Env): void {
    const start = this.out.parts.length;
    this.lib.forEachChild(cmd, (child) => this.nested(child, this.fork(env)));
    const substitutions = this.out.parts.slice(start);

    const assignments: ShellWord[] = [];
    const redirects: ShellRedirect[] = [];
    const words: ShellWord[] = [];
    const analyzed: (U.Word | undefined)[] = [];
    for (const p of cmd.prefix) {
      if (p.type === "Assignment") {
        assignments.push(assignmentWord(p, this.opts.home));
        analyzed.push(...assignmentParts(p));
      } else {
        redirects.push(this.redirect(p));
        analyzed.push(...redirectWords(p));
      }
    }
    if (cmd.name) {
      words.push(wordInfo(cmd.name, this.opts.home));
      analyzed.push(cmd.name);
    }
    for (const s of cmd.suffix) {
      if (s.type === "Word") {
        words.push(wordInfo(s, this.opts.home));
        analyzed.push(s);
      } else if (s.type === "Assignment") {
        words.push(assignmentWord(s, this.opts.home));
        analyzed.push(...assignmentParts(s));
      } else {
        redirects.push(this.redirect(s));
        analyzed.push(...redirectWords(s));
      }
    }
    const analysis = this.analyzeAll(analyzed);
    const part = this.part(env, { text: env.src.slice(cmd.pos, cmd.end), assignments, words, redirects, substitutions });

    const name = words[0]?.value;
    if (env.fn !== undefined && name === env.fn && env.spawning && !this.out.selfSpawningFunctions.includes(name)) {
      this.out.selfSpawningFunctions.push(name);
    }

    this.recordChanges(cmd, part, words, analysis);
    this.codeInTables(cmd, part, env);
    if (name !== undefined) numericOperands(name, words.slice(1), analysis);
    const transparent = this.runsNested(part, env);
    if (transparent) this.candidates.push({ part, at: this.out.parts.length });
    else this.push(part, analysis.hidden);
    this.trackDirectory(part, env);
  }

  private push(part: MutablePart, hidden: readonly HiddenCode[]): void {
    part.hiddenCode.push(...hidden);
    this.out.parts.push(part);
  }

  private part(env: Env, fields: Pick<CommandPart, "text" | "assignments" | "words" | "redirects" | "substitutions">): MutablePart {
    // Every field written out, in one order: parts then share one shape (a spread of `fields`,
    // whose shapes differ, cost ~10 µs a part).
    return {
      text: fields.text,
      assignments: fields.assignments,
      words: fields.words,
      redirects: fields.redirects,
      substitutions: fields.substitutions,
      cwd: env.cwd,
      via: env.via,
      pipedFrom: env.pipedFrom,
      hiddenCode: [],
    };
  }

  private redirect(r: U.Redirection): ShellRedirect {
    const fd = r.descriptor?.type === "FileDescriptor" ? r.descriptor.value : undefined;
    if (r.type === "HereDoc") {
      const staticBody = r.delimiter?.quoted || !r.body.parts || r.body.parts.every((p) => p.type === "Literal");
      return { operator: r.operator, fd, inputText: staticBody ? r.body.text : undefined };
    }
    const target = r.target ? wordInfo(r.target, this.opts.home) : undefined;
    if (r.type === "HereString") return { operator: r.operator, fd, target, inputText: target?.value };
    return { operator: r.operator, fd, target };
  }

  private valueOf(w: U.Word): string | undefined {
    return wordInfo(w, this.opts.home).value;
  }

  private assign(name: string, values: (string | undefined)[], at?: { text: string; part?: MutablePart }): void {
    const list = this.values.get(name);
    if (list) list.push(...values);
    else this.values.set(name, [...values]);
    if (at) this.writes.push({ name, values, ...at });
  }

  private change(c: EnvironmentChange): void {
    this.out.changes.push(c);
  }

  /** What this simple command changes for later ones: variables, exports, aliases, options, traps. */
  private recordChanges(cmd: U.Command, part: MutablePart, words: ShellWord[], analysis: WordAnalysis): void {
    const name = words[0]?.value;
    const ownAssignments = cmd.prefix.filter((p): p is U.Assignment => p.type === "Assignment");
    for (const a of ownAssignments) {
      this.assign(a.name, assignedValues(a, this.opts.home), { text: a.text, part });
      subscripts(a, part, analysis, this.opts.home);
    }
    // A line of assignments sets them for everything after it; so do assignments before a special built-in.
    if (words.length === 0 || (name !== undefined && SPECIAL_BUILTINS.has(name))) {
      ownAssignments.forEach((a, i) => {
        const w = part.assignments[i]!;
        this.change({ text: a.text, name: a.name, ...(w.value !== undefined ? { assignment: w.value } : {}), ...(CODE_TABLES.test(a.name) ? { opaque: true } : {}), part });
      });
    }
    if (name === undefined) {
      if (words.length > 0) {
        // A command whose name is known only at run time may be any of the built-ins below.
        this.anyVariable = true;
        this.change({ text: part.text, opaque: true, part });
      }
      return;
    }
    const args = words.slice(1);
    const rawArgs = cmd.suffix;
    if (DECLARATIONS.has(name)) {
      const options = args.filter((w) => w.value?.startsWith("-") || w.value?.startsWith("+")).map((w) => w.value!);
      const exports = name === "export" || options.some((o) => /^-[a-zA-Z]*x/.test(o));
      const integer = name === "integer" || name === "float" || options.some((o) => INTEGER_OPTION.test(o));
      if (integer) this.integers = true;
      const nameref = options.some((o) => /^-[a-zA-Z]*n/.test(o));
      this.declarationOperands(name, args, rawArgs, part, analysis, { integer, nameref });
      if (options.some((o) => /^-[a-zA-Z]*[nTf]/.test(o)) || args.some((w) => w.value === undefined && !w.text.includes("="))) {
        // Name references, tied arrays, exported functions, names known only at run time.
        this.anyVariable = true;
        this.change({ text: part.text, opaque: true, exports, part });
      }
      for (const s of rawArgs) {
        if (s.type === "Assignment") {
          const w = assignmentWord(s, this.opts.home);
          this.assign(s.name, assignedValues(s, this.opts.home), { text: `${name} ${s.text}`, part });
          subscripts(s, part, analysis, this.opts.home);
          this.change({ text: `${name} ${s.text}`, name: s.name, exports, ...(w.value !== undefined ? { assignment: w.value } : {}), part });
        } else if (s.type === "Word" && s.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?=/.test(s.value)) {
          // `declare 'a[$(id)]=1'`: quoted, so not an assignment to the parser, but one to the shell.
          const n = s.value.slice(0, s.value.search(/[[=]/));
          const v = s.value.slice(s.value.indexOf("=") + 1);
          this.assign(n, [v], { text: `${name} ${s.text}`, part });
          const subscript = /^[^=[]*\[(.*?)\]=/.exec(s.value)?.[1];
          if (subscript !== undefined) arithmetic(subscript, s.text, analysis);
          this.change({ text: `${name} ${s.text}`, name: n, exports, assignment: `${n}=${v}`, part });
        } else if (s.type === "Word" && s.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(s.value)) {
          this.change({ text: `${name} ${s.value}`, name: s.value, exports, part });
        }
      }
      return;
    }
    switch (name) {
      case "read":
      case "mapfile":
      case "readarray":
      case "getopts":
      case "printf":
      case "wait":
      case "unset":
      case "let":
        this.targetChanges(name, args, part, analysis);
        return;
      case "set":
        this.setChanges(args, part);
        return;
      case "shopt":
        if (!args.every((w) => w.value !== undefined && (/^-[supqo]+$/.test(w.value) || SAFE_SHOPT.has(w.value)))) this.change({ text: part.text, opaque: true, part });
        return;
      case "setopt":
      case "unsetopt":
        if (!args.every((w) => w.value !== undefined && SAFE_SETOPT.test(w.value))) this.change({ text: part.text, opaque: true, part });
        return;
      case "source":
      case ".":
        this.anyVariable = true;
        this.change({ text: part.text, opaque: true, part });
        return;
      case "trap":
        if (args.length > 0 && !(args[0]!.value === "-p" || args[0]!.value === "-l")) this.change({ text: part.text, opaque: true, part });
        return;
      case "cd":
      case "pushd":
      case "popd":
        return;
      default:
        if (OPAQUE_CHANGES.has(name)) this.change({ text: part.text, opaque: true, part });
    }
  }

  /**
   * The operands of `declare`/`typeset`/`local`/`export`/`readonly`/`integer`/`float` that bash or
   * zsh evaluate: the names an integer or float declaration gives that attribute (what they are
   * given is evaluated from then on), zsh's width, precision and base after `-Z`/`-L`/`-R`/`-i`/
   * `-E`/`-F` (any word that is not a name), a quoted `NAME[SUB]` (its subscript), the target of a
   * name reference (`declare -n r='a[…]'`: every use of r evaluates that subscript), and a name
   * known only at run time (it may carry a subscript).
   */
  private declarationOperands(name: string, args: readonly ShellWord[], raw: readonly (U.Word | U.Assignment | U.Redirection)[], part: MutablePart, analysis: WordAnalysis, how: { integer: boolean; nameref: boolean }): void {
    let afterOption = false;
    args.forEach((w, i) => {
      const node = raw[i];
      const v = w.value;
      const option = v !== undefined && /^[-+]/.test(v);
      const after = afterOption;
      afterOption = option && /[ZLRiEF]$/.test(v!);
      if (option) return;
      const target = node?.type === "Assignment" ? node.name : v !== undefined ? /^[A-Za-z_][A-Za-z0-9_]*/.exec(v)?.[0] : undefined;
      if (how.integer && target !== undefined) this.integerNames.add(target);
      if (node?.type === "Assignment") {
        if (how.nameref && node.value.type === "Word") {
          const ref = wordInfo(node.value, this.opts.home);
          if (ref.value === undefined) analysis.hidden.push({ text: node.text, reason: "makes a name reference to a name known only when the command runs, and a subscript in that name is evaluated at every use" });
          else {
            const sub = /^[A-Za-z_][A-Za-z0-9_]*\[([\s\S]*)\]$/.exec(ref.value)?.[1];
            if (sub !== undefined) arithmetic(sub, node.text, analysis);
          }
        }
        return;
      }
      if (v === undefined) {
        if (!w.text.includes("=")) {
          if (how.integer) this.anyInteger = true;
          analysis.hidden.push({ text: w.text, reason: `${name} is given a name known only when the command runs, and a subscript in it is evaluated` });
        }
        return;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) return;
      const sub = /^[A-Za-z_][A-Za-z0-9_]*\[([\s\S]*?)\](\+?=|$)/.exec(v)?.[1];
      if (sub !== undefined) {
        if (!/^\s*[0-9]+\s*$/.test(sub) && !/=/.test(v)) arithmetic(sub, w.text, analysis);
      } else if (after && !/^[0-9]+$/.test(v)) {
        // zsh reads the word after -Z/-L/-R/-i/-E/-F as a number, evaluating it.
        arithmetic(v, w.text, analysis);
      }
    });
  }

  /** `functions[git]='…'`, `aliases[ll]='…'`, `commands[git]=/path`: the code and programs they name run later. */
  private codeInTables(cmd: U.Command, part: MutablePart, env: Env): void {
    for (const a of cmd.prefix) {
      if (a.type !== "Assignment" || !CODE_TABLES.test(a.name) || a.value.type !== "Word") continue;
      const value = wordInfo(a.value, this.opts.home).value;
      if (value === undefined) {
        part.dynamicCode = `${a.text} defines code known only when it runs`;
      } else if (a.name === "commands" || a.name === "BASH_CMDS") {
        this.synthesized([{ text: value, value }], `${a.name}[…]`, env);
      } else if (a.name !== "options") {
        this.parseNested(value, `${a.name}[…]`, env);
      }
    }
  }

  /** Variables `read`, `mapfile`, `getopts`, `printf -v`, `wait -p`, `unset` and `let` set. */
  private targetChanges(name: string, args: ShellWord[], part: MutablePart, analysis: WordAnalysis): void {
    const targets: ShellWord[] = [];
    const valued: Record<string, string[]> = {
      read: ["-a", "-A", "-d", "-i", "-n", "-N", "-p", "-t", "-u", "-k", "-q"],
      mapfile: ["-d", "-n", "-O", "-s", "-u", "-C", "-c"],
      readarray: ["-d", "-n", "-O", "-s", "-u", "-C", "-c"],
    };
    if (name === "let") {
      for (const w of args) {
        if (w.value === undefined) this.anyVariable = true;
        else arithmetic(w.value, w.text, analysis);
      }
      for (const { name: n } of analysis.assigns) this.change({ text: part.text, name: n, part });
      return;
    }
    if (name === "printf" || name === "wait") {
      const flag = name === "printf" ? "-v" : "-p";
      const i = args.findIndex((w) => w.value === flag);
      if (i >= 0 && args[i + 1]) targets.push(args[i + 1]!);
    } else if (name === "getopts") {
      if (args[1]) targets.push(args[1]);
    } else {
      const opts = valued[name] ?? [];
      for (let i = 0; i < args.length; i++) {
        const v = args[i]!.value;
        if (v !== undefined && v.startsWith("-") && name !== "unset") {
          if (opts.includes(v)) {
            if (v === "-a" || v === "-A") targets.push(args[i + 1] ?? { text: "" });
            i++;
          }
          continue;
        }
        if (v !== undefined && name === "unset" && v.startsWith("-")) continue;
        targets.push(args[i]!);
      }
      if (targets.length === 0 && name !== "unset") targets.push({ text: "REPLY", value: name === "read" ? "REPLY" : "MAPFILE" });
    }
    for (const t of targets) {
      if (t.value === undefined) {
        this.anyVariable = true;
        this.change({ text: part.text, opaque: true, part });
        continue;
      }
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/.exec(t.value);
      if (!m) continue;
      // `printf -v 'a[$(id)]'`, `read 'a[$(id)]'`: the subscript is evaluated.
      if (m[2] !== undefined) arithmetic(m[2], t.text, analysis);
      if (name !== "unset") this.assign(m[1]!, [undefined], { text: part.text, part });
      this.change({ text: part.text, name: m[1]!, part });
    }
  }

  private setChanges(args: ShellWord[], part: MutablePart): void {
    for (let i = 0; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined || v === "--" || v === "-") return; // the rest are positional parameters
      if (!v.startsWith("-") && !v.startsWith("+")) return;
      if (/^-[a-zA-Z]*a/.test(v) || (/o$/.test(v) && args[i + 1]?.value === "allexport" && v.startsWith("-"))) this.out.exportsAll = true;
      const safe = SAFE_SET_FLAGS.test(v) && (!v.endsWith("o") || SAFE_SET_OPTIONS.has(args[i + 1]?.value ?? ""));
      if (!safe && !(v.startsWith("-") && /o$/.test(v) && args[i + 1]?.value === "allexport")) this.change({ text: part.text, opaque: true, part });
      if (v.endsWith("o")) i++;
    }
  }

  /**
   * Walks what `bash -c STR`, `eval STR`, `trap STR`, `su -c STR`, `flock -c STR`, `watch STR`, a
   * shell reading a heredoc, `find -exec`, `fd -x`, `xargs` and `parallel` run. Returns true when
   * the outer command is only a plain shell around that script (no wrapper, assignment, file
   * redirection or start-up file), so the inner parts stand for it.
   */
  private runsNested(part: MutablePart, env: Env): boolean {
    const { inner, layers, strings, wrappers } = unwrap(part.words);
    for (const s of strings) {
      if (s.value === undefined) part.dynamicCode = `${wrappers.at(-1)} runs ${s.text}, a command built when it runs`;
      else this.parseNested(s.value, `${wrappers.at(-1)} -c`, env);
    }
    const name = inner[0]?.value;
    if (!name) return false;
    const plain = layers.length === 1 && part.assignments.length === 0 && !part.redirects.some(writesFile);
    const base = baseName(name);

    if (OTHER_SHELLS.has(base)) {
      const script = shellScriptOperand(inner);
      if (script.kind === "string" && script.word.value !== undefined) this.parseNested(script.word.value, `${base} -c`, env);
      else if (script.kind === "string") part.dynamicCode = `${base} -c runs ${script.word.text}, known only when the command runs`;
      return false;
    }
    if (SHELLS.has(base)) {
      const startup = startupReason(base, inner, part.assignments, layers);
      if (startup) part.startupFiles = startup;
      const script = shellScriptOperand(inner);
      if (script.kind === "string") {
        if (script.word.value === undefined) return false;
        return this.parseNested(script.word.value, `${base} -c`, env) && plain && !startup;
      }
      if (script.kind === "stdin") {
        const input = part.redirects.find((r) => r.inputText !== undefined && (r.fd === undefined || r.fd === 0));
        if (input?.inputText !== undefined) return this.parseNested(input.inputText, `${base} <<`, env) && plain && !startup;
      }
      return false;
    }
    switch (base) {
      case "eval": {
        const args = inner.slice(1);
        if (args.length === 0 || args.some((w) => w.value === undefined)) {
          this.anyVariable = true;
          if (args.length) this.change({ text: part.text, opaque: true, part });
          return false;
        }
        return this.parseNested(args.map((w) => w.value).join(" "), "eval", env) && plain;
      }
      case "trap": {
        const action = inner[1];
        if (!action || action.value === "-p" || action.value === "-l" || action.value === "-") return false;
        if (action.value === undefined) part.dynamicCode = `the trap runs ${action.text}, known only when the command runs`;
        else this.parseNested(action.value, "trap", env);
        return false;
      }
      case "su":
      case "sg":
      case "script": {
        const i = inner.findIndex((w, k) => k > 0 && (w.value === "-c" || w.value === "--command" || (base === "script" && w.value !== undefined && /^-[a-z]*c$/.test(w.value))));
        // `sg GROUP CMD…` runs the rest of its words through sh -c, like `sg GROUP -c CMD`.
        const words = i > 0 ? inner.slice(i + 1, i + 2) : base === "sg" ? inner.slice(2) : [];
        if (words.length === 0) return false;
        if (words.every((w) => w.value !== undefined)) this.parseNested(words.map((w) => w.value).join(" "), `${base} -c`, env);
        else part.dynamicCode = `${base} runs ${words.map((w) => w.text).join(" ")}, known only when the command runs`;
        return false;
      }
      case "watch": {
        const cmd = watchCommand(inner);
        if (cmd.shell) {
          if (cmd.words.every((w) => w.value !== undefined)) this.parseNested(cmd.words.map((w) => w.value).join(" "), "watch", env);
          else part.dynamicCode = `watch runs ${cmd.words.map((w) => w.text).join(" ")}, known only when the command runs`;
        } else if (cmd.words.length) this.synthesized(cmd.words, "watch -x", env);
        return false;
      }
      case "parallel":
      case "sem": {
        const { command, inputs } = parallelCommand(inner);
        const texts = command.length ? [command] : inputs.map((w) => [w]);
        for (const words of texts) {
          if (words.every((w) => w.value !== undefined)) this.parseNested(words.map((w) => w.value).join(" "), base, env);
          else part.dynamicCode = `${base} runs ${words.map((w) => w.text).join(" ")}, known only when the command runs`;
        }
        return false;
      }
      case "alias":
        // An alias is code that replaces a command name later (zsh expands aliases in scripts).
        for (const w of inner.slice(1)) {
          const eq = w.value?.indexOf("=") ?? -1;
          if (w.value !== undefined && eq > 0) this.parseNested(w.value.slice(eq + 1), "alias", env);
          else if (w.value === undefined) part.dynamicCode = `alias ${w.text} defines code known only when it runs`;
        }
        return false;
      case "mapfile":
      case "readarray": {
        // `mapfile -C CALLBACK`: bash runs the callback (code) every -c lines.
        const i = inner.findIndex((w, k) => k > 0 && (w.value === "-C" || (w.value !== undefined && /^-C./.test(w.value))));
        if (i < 0) return false;
        const v = inner[i]!.value!;
        const callback: ShellWord | undefined = v.length > 2 ? { text: v.slice(2), value: v.slice(2) } : inner[i + 1];
        if (callback?.value !== undefined) this.parseNested(callback.value, `${base} -C`, env);
        else if (callback) part.dynamicCode = `${base} -C runs ${callback.text}, known only when the command runs`;
        return false;
      }
      case "hash": {
        // `hash -p PROGRAM NAME`: NAME runs PROGRAM from now on.
        const i = inner.findIndex((w) => w.value === "-p");
        const program = i > 0 ? inner[i + 1] : undefined;
        if (program) this.synthesized([program], "hash -p", env);
        return false;
      }
      case "find":
        for (const run of findExecCommands(inner)) this.synthesized(run, "find -exec", env);
        return false;
      case "fd":
      case "fdfind":
        for (const run of fdExecCommands(inner)) this.synthesized(run, "fd -x", env);
        return false;
      case "xargs": {
        const run = xargsCommand(inner);
        if (run.length > 0) this.synthesized([...run, { text: "(input)", expansion: "(input)" }], "xargs", env);
        return false;
      }
      default:
        return false;
    }
  }

  private parseNested(text: string, label: string, env: Env): boolean {
    if (env.depth >= MAX_NESTING) {
      this.out.errors.push(`${label}: commands nested more than ${MAX_NESTING} deep were not checked`);
      return false;
    }
    const before = this.out.errors.length;
    const inner = this.fork(env, { via: [...env.via, label], pipedFrom: [], depth: env.depth + 1, src: text });
    this.script(this.lib.parse(text), inner, label);
    return this.out.errors.length === before;
  }

  private synthesized(words: ShellWord[], label: string, env: Env): void {
    const part: MutablePart = {
      text: words.map((w) => w.text).join(" "),
      assignments: [],
      words,
      redirects: [],
      cwd: env.cwd,
      via: [...env.via, label],
      pipedFrom: [],
      substitutions: [],
      hiddenCode: [],
    };
    this.out.parts.push(part);
    // `find … -exec sh -c '…' {} \;` and `xargs sh -c '…'`: read that script too.
    this.runsNested(part, this.fork(env, { via: part.via as string[] }));
  }

  /** `[[ … ]]`: a part; arithmetic operands and `-v` names evaluate code, the rest only tests. */
  private testCommand(node: U.TestCommand, env: Env): void {
    const start = this.out.parts.length;
    this.lib.forEachChild(node, (child) => this.nested(child, this.fork(env)));
    const substitutions = this.out.parts.slice(start);
    const operands: U.Word[] = [];
    const analysis: WordAnalysis = { plain: true, hidden: [], assigns: [] };
    let inert = true;
    const visitTest = (e: U.TestExpression): void => {
      switch (e.type) {
        case "TestUnary":
          operands.push(e.operand);
          if (e.operator === "-v" || e.operator === "-R") inert = nameOperand(e.operand, analysis) && inert;
          else if (e.operator === "-t") inert = numericOperand(e.operand, analysis) && inert;
          return;
        case "TestBinary":
          operands.push(e.left, e.right);
          if (/^-(eq|ne|lt|le|gt|ge)$/.test(e.operator)) {
            inert = numericOperand(e.left, analysis) && inert;
            inert = numericOperand(e.right, analysis) && inert;
          }
          return;
        case "TestLogical":
          e.operands.forEach(visitTest);
          return;
        case "TestNot":
          visitTest(e.operand);
          return;
        case "TestGroup":
          visitTest(e.expression);
      }
    };
    visitTest(node.expression);
    const words = operands.map((w) => wordInfo(w, this.opts.home));
    const words_ = this.analyzeAll(operands);
    analysis.hidden.push(...words_.hidden);
    const part = this.part(env, { text: env.src.slice(node.pos, node.end), assignments: [], words: [{ text: "[[", value: "[[" }, ...words, { text: "]]", value: "]]" }], redirects: [], substitutions });
    part.compound = "[[";
    part.inertTest = inert && words_.plain;
    this.push(part, analysis.hidden);
  }

  /** `(( … ))` and `for (( … ))`: a part that evaluates arithmetic and may assign variables. */
  private arithmeticPart(expr: string, text: string, env: Env, node: U.SyntaxNode): void {
    const start = this.out.parts.length;
    this.lib.forEachChild(node, (child) => {
      if (child.type !== "CompoundList") this.nested(child, this.fork(env));
    });
    const substitutions = this.out.parts.slice(start);
    const analysis: WordAnalysis = { plain: false, hidden: [], assigns: [] };
    arithmetic(expr, text, analysis);
    for (const { name } of analysis.assigns) {
      this.assign(name, ["0"]);
      this.change({ text, name });
    }
    const part = this.part(env, { text, assignments: [], words: [{ text: "((", value: "((" }, { text: expr, value: expr }, { text: "))", value: "))" }], redirects: [], substitutions });
    part.compound = "((";
    this.push(part, analysis.hidden);
  }

  /** Follows `cd`, `pushd` and `popd` so later relative paths resolve where they will run. */
  private trackDirectory(part: CommandPart, env: Env): void {
    const name = part.words[0]?.value;
    if (name === "popd") {
      env.cwd = undefined;
      return;
    }
    if (name !== "cd" && name !== "pushd") return;
    const args = part.words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.value ?? ""));
    const target = args[0];
    if (!target) {
      env.cwd = this.opts.home;
      return;
    }
    env.cwd = target.value === "-" ? undefined : resolveWordPath(target, env.cwd, this.opts.home).path;
  }

  /**
   * Settles what needed the whole command: which variables can hold code (so which arithmetic
   * really can run it), and which shells run start-up files an earlier statement pointed at.
   */
  finish(): void {
    const dangerous = this.dangerousVariables();
    const settle = (list: readonly HiddenCode[]) =>
      list.flatMap((h): HiddenCode[] => {
        if (!h.names) return [h];
        const bad = h.names.filter(dangerous);
        if (bad.length === 0) return [];
        return [{ text: h.text, reason: `${h.reason}, and ${bad.map(describeSource(this.values)).join("; ")}` }];
      });
    for (const p of this.out.parts as MutablePart[]) p.hiddenCode = settle(p.hiddenCode);
    this.out.hiddenCode = settle(this.partsOutside);
    // An assignment whose value runs code when evaluated as arithmetic: integer variables
    // (RANDOM, OPTIND, SECONDS, COLUMNS in zsh, `declare -i`, `integer`, `float`) evaluate what
    // they are given, also when `read`, `printf -v`, `for` or `select` give it.
    for (const w of this.writes) {
      const integer = this.anyInteger || this.integerNames.has(w.name) || INTEGER_VARIABLES.has(w.name);
      const maybe = integer || /[A-Z]/.test(w.name) || this.integers;
      let reason: string | undefined;
      if (maybe && w.values.some((v) => v !== undefined && valueRunsCode(v, dangerous))) {
        reason = `assigns ${w.name} a value with an array subscript, which the shell evaluates (running its commands) when ${w.name} is an integer variable`;
      } else if (integer && w.values.some((v) => v === undefined)) {
        reason = `assigns the integer variable ${w.name} a value known only when the command runs, which the shell evaluates as arithmetic (a subscript in it runs commands)`;
      }
      if (!reason) continue;
      const hidden = { text: w.text, reason };
      if (w.part) w.part.hiddenCode.push(hidden);
      else this.out.hiddenCode.push(hidden);
    }
    for (const p of this.out.parts as MutablePart[]) {
      for (const a of p.assignments) {
        const [name, value] = splitAssignment(a);
        if (!name || value === undefined) continue;
        if (PROMPT_VARIABLE.test(name) && /\$\(|`|\$\{/.test(value)) {
          p.hiddenCode.push({ text: a.text, reason: `${name} is a prompt string: its command substitutions run whenever it is shown (PS4 with set -x)` });
        }
      }
    }
    const startupChanges = this.out.changes.filter((c) => c.opaque || (c.name !== undefined && STARTUP_VARIABLE.test(c.name)));
    const insertions: { at: number; part: CommandPart }[] = [];
    for (const c of this.candidates) {
      const own = startupChanges.filter((ch) => ch.part !== c.part);
      if (own.length === 0) continue;
      (c.part as MutablePart).startupFiles = `an earlier statement changes what the shell runs first (${own.map((ch) => ch.text).join("; ")})`;
      insertions.push({ at: c.at, part: c.part });
    }
    for (const p of this.out.parts as MutablePart[]) {
      const name = unwrap(p.words).inner[0]?.value;
      if (!p.startupFiles && name !== undefined && SHELLS.has(baseName(name))) {
        const own = startupChanges.filter((ch) => ch.part !== p);
        if (own.length) p.startupFiles = `an earlier statement changes what the shell runs first (${own.map((ch) => ch.text).join("; ")})`;
      }
    }
    for (const ins of insertions.reverse()) this.out.parts.splice(ins.at, 0, ins.part);
  }

  /** Variables that may hold code for arithmetic: set from run-time data, or to a subscript that runs commands. */
  private dangerousVariables(): (name: string) => boolean {
    const memo = new Map<string, boolean>();
    const check = (name: string): boolean => {
      if (isPositional(name)) return true;
      if (this.anyVariable) return true;
      const known = memo.get(name);
      if (known !== undefined) return known;
      memo.set(name, false); // cycles (`x=y; y=x`) are not code
      const values = this.values.get(name) ?? [];
      const result = values.some((v) => v === undefined || valueRunsCode(v, check));
      memo.set(name, result);
      return result;
    };
    return check;
  }
}

function describeSource(values: Map<string, (string | undefined)[]>): (name: string) => string {
  return (name) => {
    if (isPositional(name)) return `$${name} is an argument, known only when the command runs`;
    const list = values.get(name) ?? [];
    const literal = list.find((v) => v !== undefined && /\[/.test(v));
    if (literal !== undefined) return `${name} is set in this command to ${JSON.stringify(literal)}, whose subscript runs commands`;
    if (list.some((v) => v === undefined)) return `${name} is set in this command to a value known only when it runs`;
    return `${name} can hold anything (a name or file read at run time sets variables)`;
  };
}

/** `NAME=value` → [NAME, value] when the value is static. */
function splitAssignment(w: ShellWord): [string | undefined, string | undefined] {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=([\s\S]*)$/.exec(w.value ?? w.text);
  if (!m) return [undefined, undefined];
  return [m[1], w.value !== undefined ? m[3] : undefined];
}

function assignedValues(a: U.Assignment, home: string): (string | undefined)[] {
  if (a.value.type === "ArrayValue") return a.value.elements.map((e) => wordInfo(e, home).value);
  return [wordInfo(a.value, home).value];
}

function assignmentParts(a: U.Assignment): U.Word[] {
  const out: U.Word[] = [];
  if (a.value.type === "ArrayValue") out.push(...a.value.elements);
  else out.push(a.value);
  return out;
}

/** A subscript that is a literal number evaluates to itself; any other is code to bash or zsh. */
const LITERAL_INDEX = /^\s*[0-9]+\s*$/;

/**
 * The subscripts of an assignment, which bash and zsh evaluate as arithmetic before assigning
 * (for an indexed array; an associative one expands them as a word, and which it is cannot be
 * told from the text): `a[SUB]=…`, `a[SUB]+=…` and the `[SUB]=…` elements of `a=(…)`/`a+=(…)`.
 * Quoted text there is evaluated too (`a['$(id)']=1` runs id). Each becomes hidden code when it
 * can run commands, and marks the part as evaluating (never a harmless built-in) unless it is a
 * literal number.
 */
function subscripts(a: U.Assignment, part: MutablePart, analysis: WordAnalysis, home: string): void {
  const evaluate = (value: string | undefined, raw: string) => {
    const sub = value ?? raw;
    if (value !== undefined && LITERAL_INDEX.test(value)) return;
    part.evaluates ??= `${a.text} evaluates the subscript [${sub}] as arithmetic`;
    arithmetic(sub, a.text, analysis);
  };
  if (a.index) evaluate(wordInfo(a.index, home).value, a.index.text);
  if (a.value.type !== "ArrayValue") return;
  for (const e of a.value.elements) {
    const static_ = wordInfo(e, home).value;
    const text = static_ ?? e.text;
    if (!text.startsWith("[")) continue;
    const close = closingBracket(text);
    if (close < 0 || !/^\+?=/.test(text.slice(close + 1))) continue;
    evaluate(static_ === undefined ? undefined : text.slice(1, close), e.text.slice(1, closingBracket(e.text) >= 0 ? closingBracket(e.text) : undefined));
  }
}

/** The index of the `]` that closes the `[` at 0, or -1. */
function closingBracket(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return -1;
}

function redirectWords(r: U.Redirection): U.Word[] {
  if (r.type === "HereDoc") {
    if (r.delimiter?.quoted || !r.body.parts) return [];
    return [{ type: "Word", text: r.body.text, value: r.body.text, pos: r.body.pos, end: r.body.end, parts: r.body.parts }];
  }
  return r.target ? [r.target] : [];
}

/**
 * Arguments that built-ins read as numbers or variable names, which bash or zsh evaluate:
 * `test -v NAME`, zsh's `test -t N`, `exit N`/`return N`/`shift N`, zsh's `printf '%d' N`.
 */
function numericOperands(name: string, args: readonly ShellWord[], analysis: WordAnalysis): void {
  const evaluate = (w: ShellWord | undefined) => {
    if (!w) return;
    if (w.value !== undefined) {
      if (!/^-?[0-9]+$/.test(w.value)) arithmetic(w.value, w.text, analysis);
      return;
    }
    const m = /^"?\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])\}?"?$/.exec(w.text);
    if (m) analysis.hidden.push({ text: w.text, reason: `evaluates ${m[1]} as arithmetic`, names: [m[1]!] });
  };
  if (name === "test" || name === "[") {
    args.forEach((w, i) => {
      if (w.value === "-v" || w.value === "-R" || w.value === "-t") evaluate(args[i + 1]);
    });
  } else if (name === "exit" || name === "return" || name === "shift" || name === "break" || name === "continue" || name === "repeat") {
    // zsh's `repeat N cmd` evaluates its count.
    evaluate(args[0]);
  } else if (name === "printf" || name === "print") {
    // zsh's `print -f FORMAT ARGS…` formats like printf, evaluating numeric arguments too.
    const f = name === "print" ? args.findIndex((w) => w.value === "-f") : -1;
    if (name === "print" && f < 0) return;
    const from = name === "print" ? f + 1 : args[0]?.value === "-v" ? 2 : 0;
    const format = args[from]?.value === "--" ? args[from + 1] : args[from];
    if (format?.value !== undefined && /%[-+ #0-9.]*\*|%[-+ #0-9.]*[diouxXeEfFgGaA]/.test(format.value)) {
      for (const w of args.slice(args.indexOf(format) + 1)) evaluate(w);
    }
  }
}

/** `[[ -v NAME ]]`: a literal name, or a subscript that is plain arithmetic; a plain `$x` names whatever x holds. */
function nameOperand(w: U.Word, analysis: WordAnalysis): boolean {
  const m = /^[A-Za-z_][A-Za-z0-9_]*(?:\[(.*)\])?$/.exec(w.value);
  if (!w.parts || w.parts.every((p) => p.type === "Literal" || p.type === "Glob" || p.type === "SingleQuoted")) {
    if (!m) return false;
    if (m[1] !== undefined && !/^[0-9]+$/.test(m[1])) {
      arithmetic(m[1], w.text, analysis);
      return false;
    }
    return true;
  }
  const name = plainVariable(w);
  if (name) analysis.hidden.push({ text: w.text, reason: `tests the variable named by ${name}'s value, and a subscript in it is evaluated`, names: [name] });
  return false;
}

/** An arithmetic operand (`[[ a -eq b ]]`, `-t`): inert when it is a number or `$?`-like. */
function numericOperand(w: U.Word, analysis: WordAnalysis): boolean {
  if (/^-?[0-9]+$/.test(w.value) && (!w.parts || w.parts.every((p) => p.type === "Literal" || p.type === "SingleQuoted"))) return true;
  if (/^"?\$\{?[#?$!]\}?"?$/.test(w.text)) return true;
  const name = plainVariable(w);
  if (name) analysis.hidden.push({ text: w.text, reason: `evaluates ${name} as arithmetic`, names: [name] });
  else arithmetic(w.value, w.text, analysis);
  return false;
}

/** The variable of a word that is exactly `$NAME`, `${NAME}` or `"$NAME"`. */
function plainVariable(w: U.Word): string | undefined {
  const m = /^"?\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])\}|([A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*]))"?$/.exec(w.text);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** Why a shell runs code before its command: start-up files, or an environment that points at some. */
function startupReason(base: string, inner: readonly ShellWord[], assignments: readonly ShellWord[], layers: readonly (readonly ShellWord[])[]): string | undefined {
  const flags: string[] = [];
  for (let i = 1; i < inner.length; i++) {
    const v = inner[i]!.value;
    if (v === undefined || v === "--") break;
    if (v === "-c") break;
    if (v === "--rcfile" || v === "--init-file") {
      flags.push(`${v} ${inner[i + 1]?.text ?? ""}`.trim());
      i++;
      continue;
    }
    if (v === "--login" || v === "--interactive" || v === "-i" || v === "-l") flags.push(v);
    else if (/^-[A-Za-z]+$/.test(v) && /[il]/.test(v.slice(1))) flags.push(v);
    else if (v === "-o" || v === "+o" || v === "-O" || v === "+O") {
      if (v === "-o" && /^(login|interactive)$/.test(inner[i + 1]?.value ?? "")) flags.push(`-o ${inner[i + 1]!.value}`);
      i++;
    } else if (!v.startsWith("-") && !v.startsWith("+")) break;
  }
  // `exec -l bash` and `exec -a -bash bash` start a login shell.
  const launcher = layers.at(-2);
  if (launcher && baseName(launcher[0]?.value ?? "") === "exec") {
    const login = launcher.some((w, k) => w.value === "-l" || (launcher[k - 1]?.value === "-a" && (w.value ?? "").startsWith("-")));
    if (login) flags.push("(started by exec as a login shell)");
  }
  // Assignments that reach the shell: its own prefix, and env's NAME=value words before it.
  const envWords = [...assignments, ...layers.slice(0, -1).flatMap((l) => l.filter((w) => /^[A-Za-z_][A-Za-z0-9_]*(%%)?=/.test(w.value ?? w.text)))];
  const names = envWords.map((w) => /^([A-Za-z_][A-Za-z0-9_]*(%%)?)=/.exec(w.value ?? w.text)?.[1]).filter((n): n is string => n !== undefined && STARTUP_VARIABLE.test(n.replace(/%%$/, "")));
  const reasons: string[] = [];
  if (flags.length) reasons.push(`${base} ${flags.join(" ")} reads start-up files (${base === "zsh" ? "~/.zshrc, ~/.zprofile" : base === "bash" ? "~/.bashrc, ~/.profile or the file given" : "$ENV, ~/.profile"}) before the command`);
  if (names.length) reasons.push(`${names.join(", ")} set for ${base} change${names.length === 1 ? "s" : ""} what it runs before the command`);
  return reasons.length ? reasons.join("; ") : undefined;
}
