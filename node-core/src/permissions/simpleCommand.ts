// A simple command (`NAME=v cmd args > file`) as a part: its words, assignments and redirections,
// the substitutions in them, what it changes for later commands (changes.ts), the programs it
// runs itself (nestedPrograms.ts), and the directory it moves the commands after it to.
import type * as U from "unbash";
import type { CommandPart } from "./commandParts.js";
import { recordChanges } from "./changes.js";
import { numericOperands } from "./evaluation.js";
import { codeInTables, runsNested } from "./nestedPrograms.js";
import { redirection, redirectWords } from "./redirections.js";
import type { Env, Walk } from "./walk.js";
import { assignmentWord, resolveWordPath, wordInfo, type ShellRedirect, type ShellWord } from "./words.js";

/** A simple command: its words, assignments and redirections become a part (or, for a plain shell around a script, the script's parts stand for it). */
export function simpleCommand(walk: Walk, cmd: U.Command, env: Env): void {
  const start = walk.out.parts.length;
  walk.lib.forEachChild(cmd, (child) => walk.nested(child, walk.fork(env)));
  const substitutions = walk.out.parts.slice(start);

  const assignments: ShellWord[] = [];
  const redirects: ShellRedirect[] = [];
  const words: ShellWord[] = [];
  const analyzed: (U.Word | undefined)[] = [];
  for (const p of cmd.prefix) {
    if (p.type === "Assignment") {
      assignments.push(assignmentWord(p, walk.opts.home));
      analyzed.push(...assignmentParts(p));
    } else {
      redirects.push(redirection(p, walk.opts.home));
      analyzed.push(...redirectWords(p));
    }
  }
  if (cmd.name) {
    words.push(wordInfo(cmd.name, walk.opts.home));
    analyzed.push(cmd.name);
  }
  for (const s of cmd.suffix) {
    if (s.type === "Word") {
      words.push(wordInfo(s, walk.opts.home));
      analyzed.push(s);
    } else if (s.type === "Assignment") {
      words.push(assignmentWord(s, walk.opts.home));
      analyzed.push(...assignmentParts(s));
    } else {
      redirects.push(redirection(s, walk.opts.home));
      analyzed.push(...redirectWords(s));
    }
  }
  const analysis = walk.analyzeAll(analyzed);
  const part = walk.part(env, { text: env.src.slice(cmd.pos, cmd.end), assignments, words, redirects, substitutions });

  const name = words[0]?.value;
  if (env.fn !== undefined && name === env.fn && env.spawning && !walk.out.selfSpawningFunctions.includes(name)) {
    walk.out.selfSpawningFunctions.push(name);
  }

  recordChanges(walk, cmd, part, words, analysis);
  codeInTables(walk, cmd, part, env);
  if (name !== undefined) numericOperands(name, words.slice(1), analysis);
  const transparent = runsNested(walk, part, env);
  if (transparent) walk.candidates.push({ part, at: walk.out.parts.length });
  else walk.push(part, analysis.hidden);
  trackDirectory(walk, part, env);
}

/** Follows `cd`, `pushd` and `popd` so later relative paths resolve where they will run. */
function trackDirectory(walk: Walk, part: CommandPart, env: Env): void {
  const name = part.words[0]?.value;
  if (name === "popd") {
    env.cwd = undefined;
    return;
  }
  if (name !== "cd" && name !== "pushd") return;
  const args = part.words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.value ?? ""));
  const target = args[0];
  if (!target) {
    env.cwd = walk.opts.home;
    return;
  }
  env.cwd = target.value === "-" ? undefined : resolveWordPath(target, env.cwd, walk.opts.home).path;
}

/** The words of an assignment's value (each element of an array). */
function assignmentParts(a: U.Assignment): U.Word[] {
  const out: U.Word[] = [];
  if (a.value.type === "ArrayValue") out.push(...a.value.elements);
  else out.push(a.value);
  return out;
}
