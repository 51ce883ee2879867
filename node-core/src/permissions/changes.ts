// What a simple command changes for the commands after it: the variables it sets (with every
// value they are given, for finish.ts), exports and declarations, `read`/`printf -v`/`let`
// targets, `set` and `shopt` options, aliases, traps and sourced files (opaque: they may change
// anything). Along the way it finds the subscripts and declaration operands bash and zsh evaluate
// as arithmetic.
import type * as U from "unbash";
import { arithmetic, type WordAnalysis } from "./expansions.js";
import type { MutablePart, Walk } from "./walk.js";
import { assignmentWord, wordInfo, type ShellWord } from "./words.js";

const DECLARATIONS = new Set(["export", "declare", "typeset", "local", "readonly", "integer", "float"]);
/** Declaration options that give a variable the integer or float attribute: what it is given is then evaluated. */
const INTEGER_OPTION = /^-[a-zA-Z0-9]*[iEF]/;
/** Built-ins whose prefix assignments stay set after them (POSIX special built-ins). */
const SPECIAL_BUILTINS = new Set([":", ".", "source", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "times", "trap", "unset", "break", "continue"]);
/** Built-ins that change how later commands are found or run. */
const OPAQUE_CHANGES = new Set(["alias", "unalias", "hash", "enable", "emulate", "zmodload", "autoload", "functions", "disable", "rehash", "bind", "complete", "compdef"]);
/**
 * Shell tables whose entries are code or programs: zsh's `functions[x]='…'`, `aliases`, `commands`
 * (the command hash), `options`; bash's `BASH_ALIASES` and `BASH_CMDS`.
 */
export const CODE_TABLES = /^(functions|aliases|galiases|saliases|dis_functions|dis_aliases|dis_galiases|dis_saliases|commands|options|BASH_ALIASES|BASH_CMDS)$/;
const SAFE_SET_FLAGS = /^[-+][euxvfCBhmbHPTE]*o?$/;
const SAFE_SET_OPTIONS = new Set(["pipefail", "errexit", "nounset", "xtrace", "verbose", "noglob", "noclobber", "errtrace", "functrace", "braceexpand", "hashall", "monitor", "notify"]);
const SAFE_SHOPT = new Set([
  "nullglob",
  "globstar",
  "extglob",
  "dotglob",
  "failglob",
  "nocaseglob",
  "nocasematch",
  "lastpipe",
  "inherit_errexit",
  "globasciiranges",
  "checkwinsize",
  "cmdhist",
  "histappend",
]);
const SAFE_SETOPT =
  /^(no_?)?(nullglob|nomatch|errexit|err_exit|pipefail|pipe_fail|nounset|no_unset|xtrace|globdots|glob_dots|ksharrays|ksh_arrays|shwordsplit|sh_word_split|localoptions|local_options|warncreateglobal)$/i;

/** What this simple command changes for later ones: variables, exports, aliases, options, traps. */
export function recordChanges(walk: Walk, cmd: U.Command, part: MutablePart, words: ShellWord[], analysis: WordAnalysis): void {
  const name = words[0]?.value;
  const ownAssignments = cmd.prefix.filter((p): p is U.Assignment => p.type === "Assignment");
  for (const a of ownAssignments) {
    walk.assign(a.name, assignedValues(a, walk.opts.home), { text: a.text, part });
    subscripts(a, part, analysis, walk.opts.home);
  }
  // A line of assignments sets them for everything after it; so do assignments before a special built-in.
  if (words.length === 0 || (name !== undefined && SPECIAL_BUILTINS.has(name))) {
    ownAssignments.forEach((a, i) => {
      const w = part.assignments[i]!;
      walk.change({ text: a.text, name: a.name, ...(w.value !== undefined ? { assignment: w.value } : {}), ...(CODE_TABLES.test(a.name) ? { opaque: true } : {}), part });
    });
  }
  if (name === undefined) {
    if (words.length > 0) {
      // A command whose name is known only at run time may be any of the built-ins below.
      walk.anyVariable = true;
      walk.change({ text: part.text, opaque: true, part });
    }
    return;
  }
  const args = words.slice(1);
  const rawArgs = cmd.suffix;
  if (DECLARATIONS.has(name)) {
    const options = args.filter((w) => w.value?.startsWith("-") || w.value?.startsWith("+")).map((w) => w.value!);
    const exports = name === "export" || options.some((o) => /^-[a-zA-Z]*x/.test(o));
    const integer = name === "integer" || name === "float" || options.some((o) => INTEGER_OPTION.test(o));
    if (integer) walk.integers = true;
    const nameref = options.some((o) => /^-[a-zA-Z]*n/.test(o));
    declarationOperands(walk, name, args, rawArgs, analysis, { integer, nameref });
    if (options.some((o) => /^-[a-zA-Z]*[nTf]/.test(o)) || args.some((w) => w.value === undefined && !w.text.includes("="))) {
      // Name references, tied arrays, exported functions, names known only at run time.
      walk.anyVariable = true;
      walk.change({ text: part.text, opaque: true, exports, part });
    }
    for (const s of rawArgs) {
      if (s.type === "Assignment") {
        const w = assignmentWord(s, walk.opts.home);
        walk.assign(s.name, assignedValues(s, walk.opts.home), { text: `${name} ${s.text}`, part });
        subscripts(s, part, analysis, walk.opts.home);
        walk.change({ text: `${name} ${s.text}`, name: s.name, exports, ...(w.value !== undefined ? { assignment: w.value } : {}), part });
      } else if (s.type === "Word" && s.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?=/.test(s.value)) {
        // `declare 'a[$(id)]=1'`: quoted, so not an assignment to the parser, but one to the shell.
        const n = s.value.slice(0, s.value.search(/[[=]/));
        const v = s.value.slice(s.value.indexOf("=") + 1);
        walk.assign(n, [v], { text: `${name} ${s.text}`, part });
        const subscript = /^[^=[]*\[(.*?)\]=/.exec(s.value)?.[1];
        if (subscript !== undefined) arithmetic(subscript, s.text, analysis);
        walk.change({ text: `${name} ${s.text}`, name: n, exports, assignment: `${n}=${v}`, part });
      } else if (s.type === "Word" && s.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(s.value)) {
        walk.change({ text: `${name} ${s.value}`, name: s.value, exports, part });
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
      targetChanges(walk, name, args, part, analysis);
      return;
    case "set":
      setChanges(walk, args, part);
      return;
    case "shopt":
      if (!args.every((w) => w.value !== undefined && (/^-[supqo]+$/.test(w.value) || SAFE_SHOPT.has(w.value)))) walk.change({ text: part.text, opaque: true, part });
      return;
    case "setopt":
    case "unsetopt":
      if (!args.every((w) => w.value !== undefined && SAFE_SETOPT.test(w.value))) walk.change({ text: part.text, opaque: true, part });
      return;
    case "source":
    case ".":
      walk.anyVariable = true;
      walk.change({ text: part.text, opaque: true, part });
      return;
    case "trap":
      if (args.length > 0 && !(args[0]!.value === "-p" || args[0]!.value === "-l")) walk.change({ text: part.text, opaque: true, part });
      return;
    case "cd":
    case "pushd":
    case "popd":
      return;
    default:
      if (OPAQUE_CHANGES.has(name)) walk.change({ text: part.text, opaque: true, part });
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
function declarationOperands(
  walk: Walk,
  name: string,
  args: readonly ShellWord[],
  raw: readonly (U.Word | U.Assignment | U.Redirection)[],
  analysis: WordAnalysis,
  how: { integer: boolean; nameref: boolean },
): void {
  let afterOption = false;
  args.forEach((w, i) => {
    const node = raw[i];
    const v = w.value;
    const option = v !== undefined && /^[-+]/.test(v);
    const after = afterOption;
    afterOption = option && /[ZLRiEF]$/.test(v!);
    if (option) return;
    const target = node?.type === "Assignment" ? node.name : v !== undefined ? /^[A-Za-z_][A-Za-z0-9_]*/.exec(v)?.[0] : undefined;
    if (how.integer && target !== undefined) walk.integerNames.add(target);
    if (node?.type === "Assignment") {
      if (how.nameref && node.value.type === "Word") {
        const ref = wordInfo(node.value, walk.opts.home);
        if (ref.value === undefined)
          analysis.hidden.push({ text: node.text, reason: "makes a name reference to a name known only when the command runs, and a subscript in that name is evaluated at every use" });
        else {
          const sub = /^[A-Za-z_][A-Za-z0-9_]*\[([\s\S]*)\]$/.exec(ref.value)?.[1];
          if (sub !== undefined) arithmetic(sub, node.text, analysis);
        }
      }
      return;
    }
    if (v === undefined) {
      if (!w.text.includes("=")) {
        if (how.integer) walk.anyInteger = true;
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

/** Variables `read`, `mapfile`, `getopts`, `printf -v`, `wait -p`, `unset` and `let` set. */
function targetChanges(walk: Walk, name: string, args: ShellWord[], part: MutablePart, analysis: WordAnalysis): void {
  const targets: ShellWord[] = [];
  const valued: Record<string, string[]> = {
    read: ["-a", "-A", "-d", "-i", "-n", "-N", "-p", "-t", "-u", "-k", "-q"],
    mapfile: ["-d", "-n", "-O", "-s", "-u", "-C", "-c"],
    readarray: ["-d", "-n", "-O", "-s", "-u", "-C", "-c"],
  };
  if (name === "let") {
    for (const w of args) {
      if (w.value === undefined) walk.anyVariable = true;
      else arithmetic(w.value, w.text, analysis);
    }
    for (const { name: n } of analysis.assigns) walk.change({ text: part.text, name: n, part });
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
      if (v?.startsWith("-") && name !== "unset") {
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
      walk.anyVariable = true;
      walk.change({ text: part.text, opaque: true, part });
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/.exec(t.value);
    if (!m) continue;
    // `printf -v 'a[$(id)]'`, `read 'a[$(id)]'`: the subscript is evaluated.
    if (m[2] !== undefined) arithmetic(m[2], t.text, analysis);
    if (name !== "unset") walk.assign(m[1]!, [undefined], { text: part.text, part });
    walk.change({ text: part.text, name: m[1]!, part });
  }
}

/** `set`: `-a`/`-o allexport` exports everything after it; any flag but the harmless ones changes what later commands do. */
function setChanges(walk: Walk, args: ShellWord[], part: MutablePart): void {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined || v === "--" || v === "-") return; // the rest are positional parameters
    if (!v.startsWith("-") && !v.startsWith("+")) return;
    if (/^-[a-zA-Z]*a/.test(v) || (/o$/.test(v) && args[i + 1]?.value === "allexport" && v.startsWith("-"))) walk.out.exportsAll = true;
    const safe = SAFE_SET_FLAGS.test(v) && (!v.endsWith("o") || SAFE_SET_OPTIONS.has(args[i + 1]?.value ?? ""));
    if (!safe && !(v.startsWith("-") && /o$/.test(v) && args[i + 1]?.value === "allexport")) walk.change({ text: part.text, opaque: true, part });
    if (v.endsWith("o")) i++;
  }
}

/** The values an assignment gives (each element of an array; undefined: known only at run time). */
function assignedValues(a: U.Assignment, home: string): (string | undefined)[] {
  if (a.value.type === "ArrayValue") return a.value.elements.map((e) => wordInfo(e, home).value);
  return [wordInfo(a.value, home).value];
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
