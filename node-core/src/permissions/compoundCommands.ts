// The walk through compound commands: lists, `&&`/`||`, pipelines (each element in a subshell,
// fed by the ones before it), subshells, brace groups, functions, coprocesses, redirections of a
// whole group, loops and branches (a `cd` inside a branch or a loop body leaves the directory
// unknown after it). Simple commands, `[[ … ]]` and `(( … ))` are read by their own modules.
import type * as U from "unbash";
import type { CommandPart } from "./commandParts.js";
import { arithmeticPart, testCommand } from "./evaluation.js";
import { redirection, redirectWords } from "./redirections.js";
import { simpleCommand } from "./simpleCommand.js";
import type { Env, Walk } from "./walk.js";
import { networkPath, writesFile, type ShellRedirect } from "./words.js";

/** Walks one node: lists, pipelines, groups, functions, loops and branches here; the rest in the modules they name. */
export function visit(walk: Walk, node: U.SyntaxNode, env: Env): void {
  switch (node.type) {
    case "Script":
      walk.script(node as U.ParsedScript, env, "");
      return;
    case "CompoundList":
      for (const st of node.commands) visit(walk, st, env);
      return;
    case "Statement":
      if (node.background) visit(walk, node.command, walk.fork(env, { spawning: true }));
      else visit(walk, node.command, env);
      return;
    case "AndOr":
      for (const c of node.commands) visit(walk, c, env);
      return;
    case "Pipeline": {
      if (node.commands.length === 1) return visit(walk, node.commands[0]!, env);
      const produced: CommandPart[] = [];
      node.commands.forEach((c, i) => {
        const start = walk.out.parts.length;
        // Each element of a pipeline runs in a subshell: a `cd` there changes nothing after it.
        visit(walk, c, walk.fork(env, { pipedFrom: i === 0 ? env.pipedFrom : [...produced], spawning: true }));
        produced.push(...walk.out.parts.slice(start));
      });
      return;
    }
    case "Command":
      simpleCommand(walk, node, env);
      return;
    case "Subshell":
      visit(walk, node.body, walk.fork(env));
      return;
    case "BraceGroup":
      visit(walk, node.body, env);
      return;
    case "Function": {
      const name = node.name.value ?? node.name.text;
      if (!walk.out.functions.includes(name)) walk.out.functions.push(name);
      visit(walk, node.body, walk.fork(env, { fn: name, spawning: false }));
      return;
    }
    case "Coproc":
      visit(walk, node.body, walk.fork(env, { spawning: true }));
      return;
    case "Redirected": {
      visit(walk, node.command, env);
      const redirects = node.redirects.map((r) => redirection(r, walk.opts.home));
      walk.nestedIn(node.redirects, env);
      const analysis = walk.analyzeAll(node.redirects.flatMap(redirectWords));
      // `{ …; } > file` writes a file of its own, and `< /dev/tcp/…` connects: a part to judge.
      const opens = (r: ShellRedirect) => (r.operator === "<" || r.operator === "<&") && (r.target?.value === undefined || networkPath(r.target.value));
      if (redirects.some((r) => writesFile(r) || opens(r)) || analysis.hidden.length > 0) {
        walk.push(walk.part(env, { text: walk.slice(env, node.redirects), assignments: [], words: [], redirects, substitutions: [] }), analysis.hidden);
      }
      return;
    }
    case "TestCommand":
      testCommand(walk, node, env);
      return;
    case "ArithmeticCommand":
      arithmeticPart(walk, node.body, `((${node.body}))`, env, node);
      return;
    case "ArithmeticFor": {
      const header = /\(\(([\s\S]*)\)\)/.exec(env.src.slice(node.pos, node.body.pos));
      // Its three expressions are read like one joined by commas.
      arithmeticPart(walk, (header?.[1] ?? "").replace(/;/g, ","), `for ((${header?.[1] ?? "…"}))`, env, node);
      const inner = walk.fork(env);
      visit(walk, node.body, inner);
      if (inner.cwd !== env.cwd) env.cwd = undefined;
      return;
    }
    case "For":
    case "Select": {
      const values = (node.wordlist ?? []).map((w) => walk.valueOf(w));
      walk.assign(node.name.value, node.wordlist ? values : [undefined], { text: `${node.type === "For" ? "for" : "select"} ${node.name.value} in …` });
      walk.change({ text: `${node.type === "For" ? "for" : "select"} ${node.name.value} in …`, name: node.name.value });
      walk.outside(node.wordlist ?? []);
      walk.nestedIn(node.wordlist ?? [], env);
      const inner = walk.fork(env);
      visit(walk, node.body, inner);
      if (inner.cwd !== env.cwd) env.cwd = undefined;
      return;
    }
    case "Case": {
      walk.outside([node.word, ...node.items.flatMap((i) => i.pattern)]);
      const inner = walk.fork(env);
      walk.lib.forEachChild(node, (child) => visit(walk, child, inner));
      if (inner.cwd !== env.cwd) env.cwd = undefined;
      return;
    }
    case "If":
    case "While": {
      // Branches and loop bodies may or may not run: a `cd` inside leaves the directory unknown.
      const inner = walk.fork(env);
      walk.lib.forEachChild(node, (child) => visit(walk, child, inner));
      if (inner.cwd !== env.cwd) env.cwd = undefined;
      return;
    }
    case "CaseItem":
    case "Elif":
      walk.lib.forEachChild(node, (child) => visit(walk, child, env));
      return;
    default:
      walk.nested(node, env);
  }
}
