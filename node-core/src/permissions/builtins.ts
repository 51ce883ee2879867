// The built-ins the gate allows without a rule: they only print, test, set shell options or move
// the shell around. Each counts as harmless only when its words are literals or plain `$VAR`
// expansions in positions neither bash nor zsh evaluates as code — `test -v 'a[$(id)]'`,
// `printf -v`, zsh's `exit $x` and `printf %d $x` evaluate their argument as arithmetic, and an
// array subscript there runs commands. A bare assignment's own subscript is such a position too
// (`a['$(id)']=1` runs id): only a literal number passes (CommandPart.evaluates). Anything else is
// judged like an ordinary command.
import type { CommandPart, ShellWord } from "./commandParts.js";

/** The names docs/user/permissions.md, "Rules", lists. */
export const HARMLESS_BUILT_INS = ["cd", "pushd", "popd", "pwd", "true", "false", ":", "echo", "printf", "test", "[", "exit", "set"] as const;

const NAMES = new Set<string>(HARMLESS_BUILT_INS);
const SET_FLAGS = /^[-+][euxvfCBhmbHPTE]+$/;
const SET_OPTIONS = new Set(["pipefail", "errexit", "nounset", "xtrace", "verbose", "noglob", "noclobber", "errtrace", "functrace"]);

/** A literal, or a word made of quotes, plain `$NAME` expansions and simple globs. */
function plain(w: ShellWord): boolean {
  return w.value !== undefined || w.plain === true;
}

function literalName(w: ShellWord | undefined): boolean {
  return w?.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value);
}

/** True when `part` is one of the harmless built-ins, used harmlessly; bare assignments count too. */
export function harmlessBuiltIn(part: CommandPart): boolean {
  if (part.hiddenCode.length > 0 || part.dynamicCode || part.evaluates) return false;
  if (part.compound === "[[") return part.inertTest === true;
  if (part.compound) return false;
  if (!part.assignments.every(plain)) return false;
  const words = part.words;
  if (words.length === 0) return true;
  const name = words[0]!.value;
  if (name === undefined || !NAMES.has(name)) return false;
  // Built-ins run as themselves whatever their prefix assignments say; they may not be any other word.
  const args = words.slice(1);
  if (!args.every(plain)) return false;
  switch (name) {
    case "exit":
      return args.length === 0 || (args.length === 1 && (/^[0-9]+$/.test(args[0]!.value ?? "") || args[0]!.text === "$?"));
    case "printf":
      return harmlessPrintf(args);
    case "test":
    case "[":
      return harmlessTest(args);
    case "set":
      return harmlessSet(args);
    default:
      return true;
  }
}

/** `printf FORMAT ARGS…` without -v; zsh evaluates the arguments of numeric conversions as arithmetic. */
function harmlessPrintf(args: readonly ShellWord[]): boolean {
  let i = 0;
  if (args[0]?.value === "--") i = 1;
  const format = args[i];
  if (!format) return true;
  if (format.value === undefined) return false;
  if (format.value.startsWith("-") && i === 0) return false; // -v NAME, or an option we do not know
  const numeric = /%[-+ #0-9.]*\*|%[-+ #0-9.]*[diouxXeEfFgGaA(]/.test(format.value);
  return !numeric || args.slice(i + 1).every((w) => /^-?[0-9]+(\.[0-9]+)?$/.test(w.value ?? ""));
}

/** `test`/`[`: -v and -R name variables (a subscript is evaluated); zsh evaluates -t's operand. */
function harmlessTest(args: readonly ShellWord[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === "-v" || v === "-R") {
      if (!literalName(args[i + 1])) return false;
    } else if (v === "-t") {
      const next = args[i + 1];
      if (next && next.value !== "]" && !/^[0-9]+$/.test(next.value ?? "")) return false;
    }
  }
  return true;
}

/** `set -e`, `set -euo pipefail`, `set +x`: error and trace options only (not -a, -k or positional parameters). */
function harmlessSet(args: readonly ShellWord[]): boolean {
  if (args.length === 0) return false; // prints every variable: fine, but leave it to the rules
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return false;
    if (v === "-o" || v === "+o") {
      if (!SET_OPTIONS.has(args[++i]?.value ?? "")) return false;
      continue;
    }
    if (/^[-+][a-zA-Z]*o$/.test(v)) {
      if (!SET_FLAGS.test(v.slice(0, -1)) && v.length > 2) return false;
      if (!SET_OPTIONS.has(args[++i]?.value ?? "")) return false;
      continue;
    }
    if (!SET_FLAGS.test(v)) return false;
  }
  return true;
}
