// Where bash and zsh evaluate words as arithmetic, which can run the commands in a subscript a
// variable holds: `[[ … ]]` (its numeric comparisons, `-v`, `-t`), `(( … ))` and `for (( … ))`,
// and the operands built-ins read as numbers or names (`test -v`, `exit N`, `printf '%d'`).
import type * as U from "unbash";
import { arithmetic, type WordAnalysis } from "./expansions.js";
import type { Env, Walk } from "./walk.js";
import { wordInfo, type ShellWord } from "./words.js";

/** `[[ … ]]`: a part; arithmetic operands and `-v` names evaluate code, the rest only tests. */
export function testCommand(walk: Walk, node: U.TestCommand, env: Env): void {
  const start = walk.out.parts.length;
  walk.lib.forEachChild(node, (child) => walk.nested(child, walk.fork(env)));
  const substitutions = walk.out.parts.slice(start);
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
  const words = operands.map((w) => wordInfo(w, walk.opts.home));
  const words_ = walk.analyzeAll(operands);
  analysis.hidden.push(...words_.hidden);
  const part = walk.part(env, { text: env.src.slice(node.pos, node.end), assignments: [], words: [{ text: "[[", value: "[[" }, ...words, { text: "]]", value: "]]" }], redirects: [], substitutions });
  part.compound = "[[";
  part.inertTest = inert && words_.plain;
  walk.push(part, analysis.hidden);
}

/** `(( … ))` and `for (( … ))`: a part that evaluates arithmetic and may assign variables. */
export function arithmeticPart(walk: Walk, expr: string, text: string, env: Env, node: U.SyntaxNode): void {
  const start = walk.out.parts.length;
  walk.lib.forEachChild(node, (child) => {
    if (child.type !== "CompoundList") walk.nested(child, walk.fork(env));
  });
  const substitutions = walk.out.parts.slice(start);
  const analysis: WordAnalysis = { plain: false, hidden: [], assigns: [] };
  arithmetic(expr, text, analysis);
  for (const { name } of analysis.assigns) {
    walk.assign(name, ["0"]);
    walk.change({ text, name });
  }
  const part = walk.part(env, {
    text,
    assignments: [],
    words: [
      { text: "((", value: "((" },
      { text: expr, value: expr },
      { text: "))", value: "))" },
    ],
    redirects: [],
    substitutions,
  });
  part.compound = "((";
  walk.push(part, analysis.hidden);
}

/**
 * Arguments that built-ins read as numbers or variable names, which bash or zsh evaluate:
 * `test -v NAME`, zsh's `test -t N`, `exit N`/`return N`/`shift N`, zsh's `printf '%d' N`.
 */
export function numericOperands(name: string, args: readonly ShellWord[], analysis: WordAnalysis): void {
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
