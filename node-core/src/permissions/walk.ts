// The walk behind splitCommand (commandParts.ts): its memory (the values variables are given, the
// shells whose inner parts stand for them, code hidden outside any part) and the steps every kind
// of node shares: walking a script, finding the substitutions inside words, parsing a command
// given as a string, making and adding parts, recording assignments and changes.
import type * as U from "unbash";
import { analyzeWord, type HiddenCode, type WordAnalysis } from "./expansions.js";
import type { SyntaxLibraries } from "../util/bashSyntax.js";
import { wordInfo } from "./words.js";
import type { CommandPart, EnvironmentChange, SplitCommand, SplitOptions } from "./commandParts.js";
import { visit } from "./compoundCommands.js";

/** How deep substitutions and command strings inside command strings are followed. */
export const MAX_NESTING = 8;

/** Where the walk is: what holds for the commands at this place of the command. */
export interface Env {
  /** The directory they run in; undefined when an earlier `cd` makes it unknowable. */
  cwd: string | undefined;
  /** How this place was reached, outermost first (`$(…)`, `bash -c`, …). */
  via: string[];
  /** The parts whose output reaches the next command through a pipe. */
  pipedFrom: CommandPart[];
  /** How many substitutions and command strings deep this is. */
  depth: number;
  /** The text the nodes' positions refer to. */
  src: string;
  /** The function whose body this is. */
  fn?: string;
  /** Runs in the background or in a pipe: a function that calls itself here spawns copies of itself. */
  spawning: boolean;
}

export interface Candidate {
  /** A shell whose inner parts stand for it, unless an earlier statement changed what it runs first. */
  part: CommandPart;
  /** Where in `parts` it goes if it has to stand on its own after all. */
  at: number;
}

export type MutablePart = { -readonly [K in keyof CommandPart]: CommandPart[K] } & { hiddenCode: HiddenCode[] };

/**
 * One reading of one command: what the walk has found so far and the few steps every kind of node
 * uses. The kinds of node themselves are read by the modules beside this one (compound commands,
 * simple commands, the programs a command runs, [[ ]] and (( ))); each takes the walk as its first
 * argument. Its fields are the walk's memory across statements, read once more at the end
 * (finish.ts).
 */
export class Walk {
  /** Every value a variable is given in this command (undefined: known only at run time). */
  readonly values = new Map<string, (string | undefined)[]>();
  /** A name set or referenced at run time (`declare -n`, `printf -v "$n"`, `source`): any variable may hold anything. */
  anyVariable = false;
  /** `declare -i`, `typeset -i`, `integer`: some variable evaluates what it is given as arithmetic. */
  integers = false;
  /** The variables declared integer or float in this command (`declare -i x`, `integer x`, `float x`). */
  readonly integerNames = new Set<string>();
  /** An integer declaration of a name known only at run time: any variable may be one. */
  anyInteger = false;
  /** Every assignment with the part that makes it (undefined: a `for`/`select` header), settled in finish() (finish.ts). */
  readonly writes: { name: string; values: (string | undefined)[]; text: string; part?: MutablePart }[] = [];
  /** Shells whose inner parts stand for them (held back from `out.parts`), settled in finish(). */
  readonly candidates: Candidate[] = [];
  /** Code hidden in words outside any simple command (for, select and case headers). */
  readonly partsOutside: HiddenCode[] = [];

  constructor(
    readonly lib: SyntaxLibraries,
    readonly opts: SplitOptions,
    readonly out: SplitCommand,
  ) {}

  /** Walks a parsed script (the command, or a string it runs); `where` labels its syntax errors. */
  script(script: U.ParsedScript, env: Env, where: string): void {
    for (const e of script.errors ?? []) this.out.errors.push(where ? `${where}: ${e.message}` : e.message);
    const scoped = script.source !== undefined ? { ...env, src: script.source } : env;
    for (const st of script.commands) visit(this, st, scoped);
    if (scoped !== env) env.cwd = scoped.cwd;
  }

  /** A copy of `env` for a part of the command whose `cd` must not leak out (a subshell, a branch). */
  fork(env: Env, patch: Partial<Env> = {}): Env {
    return { ...env, ...patch };
  }

  /** Finds the scripts of substitutions inside words and walks them as parts of their own. */
  nested(node: U.SyntaxNode, env: Env): void {
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

  /** `nested` for each node, none of whose `cd`s leaks out. */
  nestedIn(nodes: readonly U.SyntaxNode[], env: Env): void {
    for (const n of nodes) this.nested(n, this.fork(env));
  }

  /** The source text from the first node to the end of the last. */
  slice(env: Env, nodes: readonly { pos: number; end: number }[]): string {
    if (nodes.length === 0) return "";
    return env.src.slice(nodes[0]!.pos, nodes[nodes.length - 1]!.end);
  }

  /** Words outside any simple command (for, select and case headers): their hidden code counts for the whole command. */
  outside(words: readonly U.Word[]): void {
    const a = this.analyzeAll(words);
    this.partsOutside.push(...a.hidden);
  }

  /** The expansions of the words: whether all are plain, the code they hide, the variables they assign (`${x:=v}`). */
  analyzeAll(words: readonly (U.Word | undefined)[]): WordAnalysis {
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

  /** Adds a part with the code its expansions hide. */
  push(part: MutablePart, hidden: readonly HiddenCode[]): void {
    part.hiddenCode.push(...hidden);
    this.out.parts.push(part);
  }

  /** A new part where `env` says it runs. */
  part(env: Env, fields: Pick<CommandPart, "text" | "assignments" | "words" | "redirects" | "substitutions">): MutablePart {
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

  /** A word's static value, undefined when it is known only at run time. */
  valueOf(w: U.Word): string | undefined {
    return wordInfo(w, this.opts.home).value;
  }

  /** Records a value a variable is given (and, with `at`, the assignment, for finish()). */
  assign(name: string, values: (string | undefined)[], at?: { text: string; part?: MutablePart }): void {
    const list = this.values.get(name);
    if (list) list.push(...values);
    else this.values.set(name, [...values]);
    if (at) this.writes.push({ name, values, ...at });
  }

  /** Records what a statement changes for the commands after it. */
  change(c: EnvironmentChange): void {
    this.out.changes.push(c);
  }

  /** Parses and walks a command given as a string (`bash -c`, `eval`, `trap`, …); false when it had syntax errors. */
  parseNested(text: string, label: string, env: Env): boolean {
    if (env.depth >= MAX_NESTING) {
      this.out.errors.push(`${label}: commands nested more than ${MAX_NESTING} deep were not checked`);
      return false;
    }
    const before = this.out.errors.length;
    const inner = this.fork(env, { via: [...env.via, label], pipedFrom: [], depth: env.depth + 1, src: text });
    this.script(this.lib.parse(text), inner, label);
    return this.out.errors.length === before;
  }
}
