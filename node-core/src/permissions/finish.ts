// What the walk can tell only once it has seen the whole command (walk.ts): which variables can
// hold code (so which hidden arithmetic really can run some), which assignments feed integer
// variables, prompt strings set with substitutions, and which shells run start-up files an earlier
// statement pointed at (those no longer stand for their inner parts).
import { isPositional, valueRunsCode, type HiddenCode } from "./expansions.js";
import { SHELLS, STARTUP_VARIABLE } from "./nestedPrograms.js";
import type { CommandPart } from "./commandParts.js";
import type { MutablePart, Walk } from "./walk.js";
import { baseName, type ShellWord } from "./words.js";
import { unwrap } from "./wrappers.js";

/**
 * Variables that evaluate what they are given as arithmetic (so a subscript in the value runs its
 * command substitutions), proved in bash 5.2 and zsh 5.9: bash's RANDOM, SRANDOM, SECONDS, OPTIND,
 * HISTCMD; zsh's RANDOM, SECONDS, OPTIND, COLUMNS, LINES, HISTSIZE, SAVEHIST, SHLVL, MAILCHECK,
 * KEYTIMEOUT, LISTMAX, ZLE_RPROMPT_INDENT, TRY_BLOCK_ERROR, TRY_BLOCK_INTERRUPT, ERRNO.
 */
const INTEGER_VARIABLES = new Set([
  "RANDOM",
  "SRANDOM",
  "SECONDS",
  "OPTIND",
  "HISTCMD",
  "COLUMNS",
  "LINES",
  "HISTSIZE",
  "SAVEHIST",
  "SHLVL",
  "MAILCHECK",
  "KEYTIMEOUT",
  "LISTMAX",
  "ZLE_RPROMPT_INDENT",
  "TRY_BLOCK_ERROR",
  "TRY_BLOCK_INTERRUPT",
  "ERRNO",
]);
/** Prompt strings: bash (and zsh with PROMPT_SUBST) runs their command substitutions when it shows them. */
const PROMPT_VARIABLE = /^(PS[0-4]|PROMPT[0-9]?|RPROMPT[0-9]?|RPS[12]|SPROMPT|PROMPT_COMMAND)$/;

/**
 * Settles what needed the whole command: which variables can hold code (so which arithmetic
 * really can run it), and which shells run start-up files an earlier statement pointed at.
 */
export function finish(walk: Walk): void {
  const dangerous = dangerousVariables(walk);
  const settle = (list: readonly HiddenCode[]) =>
    list.flatMap((h): HiddenCode[] => {
      if (!h.names) return [h];
      const bad = h.names.filter(dangerous);
      if (bad.length === 0) return [];
      return [{ text: h.text, reason: `${h.reason}, and ${bad.map(describeSource(walk.values)).join("; ")}` }];
    });
  for (const p of walk.out.parts as MutablePart[]) p.hiddenCode = settle(p.hiddenCode);
  walk.out.hiddenCode = settle(walk.partsOutside);
  // An assignment whose value runs code when evaluated as arithmetic: integer variables
  // (RANDOM, OPTIND, SECONDS, COLUMNS in zsh, `declare -i`, `integer`, `float`) evaluate what
  // they are given, also when `read`, `printf -v`, `for` or `select` give it.
  for (const w of walk.writes) {
    const integer = walk.anyInteger || walk.integerNames.has(w.name) || INTEGER_VARIABLES.has(w.name);
    const maybe = integer || /[A-Z]/.test(w.name) || walk.integers;
    let reason: string | undefined;
    if (maybe && w.values.some((v) => v !== undefined && valueRunsCode(v, dangerous))) {
      reason = `assigns ${w.name} a value with an array subscript, which the shell evaluates (running its commands) when ${w.name} is an integer variable`;
    } else if (integer && w.values.some((v) => v === undefined)) {
      reason = `assigns the integer variable ${w.name} a value known only when the command runs, which the shell evaluates as arithmetic (a subscript in it runs commands)`;
    }
    if (!reason) continue;
    const hidden = { text: w.text, reason };
    if (w.part) w.part.hiddenCode.push(hidden);
    else walk.out.hiddenCode.push(hidden);
  }
  for (const p of walk.out.parts as MutablePart[]) {
    for (const a of p.assignments) {
      const [name, value] = splitAssignment(a);
      if (!name || value === undefined) continue;
      if (PROMPT_VARIABLE.test(name) && /\$\(|`|\$\{/.test(value)) {
        p.hiddenCode.push({ text: a.text, reason: `${name} is a prompt string: its command substitutions run whenever it is shown (PS4 with set -x)` });
      }
    }
  }
  const startupChanges = walk.out.changes.filter((c) => c.opaque || (c.name !== undefined && STARTUP_VARIABLE.test(c.name)));
  const insertions: { at: number; part: CommandPart }[] = [];
  for (const c of walk.candidates) {
    const own = startupChanges.filter((ch) => ch.part !== c.part);
    if (own.length === 0) continue;
    (c.part as MutablePart).startupFiles = `an earlier statement changes what the shell runs first (${own.map((ch) => ch.text).join("; ")})`;
    insertions.push({ at: c.at, part: c.part });
  }
  for (const p of walk.out.parts as MutablePart[]) {
    const name = unwrap(p.words).inner[0]?.value;
    if (!p.startupFiles && name !== undefined && SHELLS.has(baseName(name))) {
      const own = startupChanges.filter((ch) => ch.part !== p);
      if (own.length) p.startupFiles = `an earlier statement changes what the shell runs first (${own.map((ch) => ch.text).join("; ")})`;
    }
  }
  for (const ins of insertions.reverse()) walk.out.parts.splice(ins.at, 0, ins.part);
}

/** Variables that may hold code for arithmetic: set from run-time data, or to a subscript that runs commands. */
function dangerousVariables(walk: Walk): (name: string) => boolean {
  const memo = new Map<string, boolean>();
  const check = (name: string): boolean => {
    if (isPositional(name)) return true;
    if (walk.anyVariable) return true;
    const known = memo.get(name);
    if (known !== undefined) return known;
    memo.set(name, false); // cycles (`x=y; y=x`) are not code
    const values = walk.values.get(name) ?? [];
    const result = values.some((v) => v === undefined || valueRunsCode(v, check));
    memo.set(name, result);
    return result;
  };
  return check;
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
