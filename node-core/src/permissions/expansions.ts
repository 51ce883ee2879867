// What a word does when bash or zsh expands it, beyond producing text. Some expansions evaluate
// code at run time that no parser can see: arithmetic evaluates the values of the variables it
// names, and an array subscript in such a value runs its command substitutions
// (`x='a[$(id)]'; echo $((x))`); `${x@P}` prompt-expands a value; `${!x}` expands the variable a
// value names, subscript and all; zsh's glob qualifiers `*(e:…:)`, its `${(e)…}` flags and `$~x`
// run code too. This module finds them in the syntax tree, pure and without a shell.
import type * as U from "unbash";

export interface HiddenCode {
  /** The expansion as written. */
  readonly text: string;
  /** Why it can run code, in a sentence fragment ("evaluates x as arithmetic"). */
  readonly reason: string;
  /**
   * It runs code only when one of these variables holds such a value: one set in this command to
   * an array subscript or to something known only at run time (a command's output, input, a
   * positional parameter). Absent: it can run code whatever the variables hold.
   */
  readonly names?: readonly string[];
}

export interface WordAnalysis {
  /** Only literal text, quotes, plain `$NAME`/`${NAME}` expansions and simple globs. */
  plain: boolean;
  hidden: HiddenCode[];
  /** Variables the word assigns: `${NAME:=value}`, arithmetic `x = 1`, `i++`. */
  assigns: { name: string; value?: string }[];
}

/** Parameters that always come from outside the command text: arguments and the last argument. */
const POSITIONAL = /^([0-9]+|[@*_])$/;
/** Parameters that are always numbers or shell flags. */
const NUMERIC_SPECIAL = /^[#?$!-]$/;

export function isPositional(name: string): boolean {
  return POSITIONAL.test(name);
}

export function analyzeWord(word: U.Word | undefined): WordAnalysis {
  const out: WordAnalysis = { plain: true, hidden: [], assigns: [] };
  if (word?.parts) walkParts(word.parts, out);
  return out;
}

function walkParts(parts: readonly (U.WordPart | U.DoubleQuotedChild)[], out: WordAnalysis): void {
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k]!;
    switch (p.type) {
      case "Literal":
        // bash leaves `$~x`, `$=x`, `$^x` alone; zsh expands them (`$~x` as a glob, qualifiers and all).
        if (/(^|[^\\])\$[~=^+]/.test(p.text)) {
          out.plain = false;
          if (/\$~/.test(p.text)) out.hidden.push({ text: p.text, reason: "zsh expands $~NAME as a glob pattern, and glob qualifiers run commands" });
        }
        break;
      case "SingleQuoted":
      case "AnsiCQuoted":
        break;
      case "DoubleQuoted":
      case "LocaleString":
        walkParts(p.parts, out);
        break;
      case "SimpleExpansion": {
        // zsh reads `$a[…]` as a subscript, evaluated as arithmetic.
        const next = parts[k + 1];
        if (next && (next.type === "Literal" || next.type === "Glob") && next.text.startsWith("[")) {
          out.plain = false;
          const rest = parts
            .slice(k + 1)
            .map((x) => x.text)
            .join("");
          const close = matchingBracket(rest, 0);
          arithmetic(close < 0 ? rest.slice(1) : rest.slice(1, close), p.text + (close < 0 ? rest : rest.slice(0, close + 1)), out);
        }
        break;
      }
      case "ParameterExpansion":
        parameterExpansion(p, out);
        break;
      case "CommandExpansion":
      case "ProcessSubstitution":
        out.plain = false;
        break;
      case "ArithmeticExpansion": {
        out.plain = false;
        const inner = p.text.startsWith("$((") ? p.text.slice(3, -2) : p.text.slice(2, -1);
        arithmetic(inner, p.text, out);
        break;
      }
      case "Glob":
        if (p.kind === "bracket") walkParts(p.parts, out);
        break;
      case "ExtendedGlob":
        out.plain = false;
        out.hidden.push({ text: p.text, reason: "zsh reads (…) after a pattern as glob qualifiers, which run commands (e:…:, +cmd)" });
        break;
      case "BraceExpansion":
        out.plain = false;
        if (p.parts) walkParts(p.parts, out);
        break;
    }
  }
}

function parameterExpansion(p: U.ParameterExpansionPart, out: WordAnalysis): void {
  if (p.parameter === "") {
    // zsh flags and modifiers: ${(e)x}, ${~x}, ${=x}, ${^x}, …
    out.plain = false;
    out.hidden.push({ text: p.text, reason: "zsh parameter flags and modifiers can evaluate the value as code (${(e)…}, ${~…})" });
    return;
  }
  if (p.prefix || p.index || p.operation) out.plain = false;
  const wholeArray = (w: U.Word | undefined) => w !== undefined && /^[@*]$/.test(w.text);
  if (p.prefix === "!" && p.operation?.type !== "Names" && !wholeArray(p.index)) {
    out.hidden.push({ text: p.text, reason: `expands the variable named by the value of ${p.parameter}, and a subscript in that name runs its command substitutions`, names: [p.parameter] });
  }
  if (p.index && !wholeArray(p.index)) arithmetic(p.index.text, p.text, out);
  const op = p.operation;
  if (!op) return;
  switch (op.type) {
    case "Transform":
      if (op.operand.value === "P") out.hidden.push({ text: p.text, reason: "prompt expansion (@P) runs the command substitutions in the value" });
      return;
    case "Slice":
      arithmetic(op.offset.text, p.text, out);
      if (op.length) arithmetic(op.length.text, p.text, out);
      return;
    case "Default": {
      if (op.operand.parts) walkParts(op.operand.parts, out);
      if (op.operator === "=" || op.operator === ":=") {
        const literal = !op.operand.parts || op.operand.parts.every((x) => x.type === "Literal" || x.type === "SingleQuoted");
        out.assigns.push({ name: p.parameter, ...(literal ? { value: op.operand.value } : {}) });
      }
      return;
    }
    case "Remove":
    case "CaseModification":
      if (op.operand?.parts) walkParts(op.operand.parts, out);
      return;
    case "Replace":
      if (op.pattern.parts) walkParts(op.pattern.parts, out);
      if (op.replacement.parts) walkParts(op.replacement.parts, out);
      return;
    case "Names":
      return;
    default:
      out.hidden.push({ text: p.text, reason: "an expansion this parser does not know, evaluated only when the command runs" });
  }
}

/** The index of the `]` that closes the `[` at `open`, or -1. */
function matchingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return -1;
}

function matchingClose(text: string, from: number, openCh: string, closeCh: string): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === openCh) depth++;
    else if (text[i] === closeCh && --depth === 0) return i;
  }
  return -1;
}

const ASSIGN_AFTER = /^\s*(=(?!=)|[-+*/%&|^]=|<<=|>>=|\+\+|--)/;
const ASSIGN_BEFORE = /(\+\+|--)\s*$/;

/**
 * An arithmetic expression (`$((…))`, `((…))`, a subscript, `[[ a -eq b ]]` operands): the
 * variables it evaluates (their values are evaluated as arithmetic too, subscripts and all),
 * what it assigns, and what in it is not plain arithmetic (a command's output, quotes).
 */
export function arithmetic(expr: string, where: string, out: Pick<WordAnalysis, "hidden" | "assigns">): void {
  const names: string[] = [];
  const other = (why: string): void => {
    out.hidden.push({ text: where, reason: why });
  };
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (/\s/.test(c) || "+-*/%<>=!&|^~?:,()".includes(c)) {
      i++;
      continue;
    }
    if (/[0-9.]/.test(c)) {
      i += /^[0-9.][0-9A-Za-z_#@.]*/.exec(expr.slice(i))![0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(expr.slice(i))![0];
      const before = expr.slice(0, i);
      i += name.length;
      names.push(name);
      if (expr[i] === "[") {
        const close = matchingBracket(expr, i);
        if (close < 0) {
          other("an unclosed array subscript");
          break;
        }
        arithmetic(expr.slice(i + 1, close), where, out);
        i = close + 1;
      }
      if (ASSIGN_AFTER.test(expr.slice(i)) || ASSIGN_BEFORE.test(before)) out.assigns.push({ name, value: "0" });
      continue;
    }
    if (c === "[" && /^\[#+[0-9]*\]/.test(expr.slice(i))) {
      // zsh's output base, `[#16]`.
      i += /^\[#+[0-9]*\]/.exec(expr.slice(i))![0].length;
      continue;
    }
    if (c === "$") {
      const rest = expr.slice(i);
      if (rest.startsWith("$((")) {
        const close = matchingClose(expr, i + 1, "(", ")");
        if (close < 0) return other("an unclosed $((…))");
        arithmetic(expr.slice(i + 3, close - 1), where, out);
        i = close + 1;
        continue;
      }
      if (rest.startsWith("$(") || rest.startsWith("$[")) {
        other("the output of a command substitution is evaluated as arithmetic, and a subscript in it runs commands");
        const close = rest.startsWith("$(") ? matchingClose(expr, i + 1, "(", ")") : matchingBracket(expr, i + 1);
        if (close < 0) return;
        i = close + 1;
        continue;
      }
      if (rest.startsWith("${")) {
        const close = matchingClose(expr, i + 1, "{", "}");
        if (close < 0) return other("an unclosed ${…}");
        const inner = expr.slice(i + 2, close);
        if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(inner) || POSITIONAL.test(inner)) names.push(inner);
        else if (!NUMERIC_SPECIAL.test(inner) && !/^#[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) other(`\${${inner}} is evaluated as arithmetic`);
        i = close + 1;
        continue;
      }
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*_#?$!-])/.exec(rest);
      if (!m) return other("a `$` that is not a plain variable");
      if (!NUMERIC_SPECIAL.test(m[1]!)) names.push(m[1]!);
      i += m[0].length;
      continue;
    }
    other(`${JSON.stringify(c)} is not plain arithmetic (quotes, backslashes and backquotes are expanded first)`);
    return;
  }
  if (names.length > 0) {
    const unique = [...new Set(names)];
    out.hidden.push({ text: where, reason: `evaluates ${unique.join(", ")} as arithmetic`, names: unique });
  }
}

/**
 * Would evaluating this value as arithmetic run code? It does when it holds an array subscript
 * (`a[$(id)]`, `a[x]` with a dangerous `x`) or names a variable that does. `dangerous` answers for
 * the variables it names.
 */
export function valueRunsCode(value: string, dangerous: (name: string) => boolean): boolean {
  if (/[A-Za-z_][A-Za-z0-9_]*\s*\[[^\]]*[$`'"\\]/.test(value)) return true;
  for (const m of value.matchAll(/(?<![0-9A-Za-z_#])[A-Za-z_][A-Za-z0-9_]*/g)) if (dangerous(m[0])) return true;
  return false;
}
