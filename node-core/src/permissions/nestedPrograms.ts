// The programs a command runs itself: the script of `bash -c STR` and a shell fed a heredoc (whose
// parts stand for the shell when it is a plain one), `eval`, `trap`, `su -c`, `sg`, `script -c`,
// `watch`, `parallel`, `alias`, `mapfile -C`, `hash -p`, `find -exec`, `fd -x`, `xargs`, and code
// stored in zsh's and bash's tables (`functions[x]=…`). Also why a shell runs start-up files first.
import type * as U from "unbash";
import { CODE_TABLES } from "./changes.js";
import type { Env, MutablePart, Walk } from "./walk.js";
import { baseName, wordInfo, writesFile, type ShellWord } from "./words.js";
import { fdExecCommands, findExecCommands, parallelCommand, shellScriptOperand, unwrap, watchCommand, xargsCommand } from "./wrappers.js";

/** Shells that read their `-c` string or heredoc as bash does: its parts may stand for the shell. */
export const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh", "rbash", "yash", "posh"]);
/** Shells with another syntax: their `-c` string is read as bash for its commands, but never stands for them. */
const OTHER_SHELLS = new Set(["fish", "csh", "tcsh", "elvish", "nu", "xonsh"]);
/** Variables that change what a started shell runs before its command, or which program runs. */
export const STARTUP_VARIABLE = /^(BASH_ENV|ENV|ZDOTDIR|HOME|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|PATH|IFS|BASH_FUNC_.*|LD_PRELOAD|LD_LIBRARY_PATH)$/;

/**
 * Walks what `bash -c STR`, `eval STR`, `trap STR`, `su -c STR`, `flock -c STR`, `watch STR`, a
 * shell reading a heredoc, `find -exec`, `fd -x`, `xargs` and `parallel` run. Returns true when
 * the outer command is only a plain shell around that script (no wrapper, assignment, file
 * redirection or start-up file), so the inner parts stand for it.
 */
export function runsNested(walk: Walk, part: MutablePart, env: Env): boolean {
  const { inner, layers, strings, wrappers } = unwrap(part.words);
  for (const s of strings) {
    if (s.value === undefined) part.dynamicCode = `${wrappers.at(-1)} runs ${s.text}, a command built when it runs`;
    else walk.parseNested(s.value, `${wrappers.at(-1)} -c`, env);
  }
  const name = inner[0]?.value;
  if (!name) return false;
  const plain = layers.length === 1 && part.assignments.length === 0 && !part.redirects.some(writesFile);
  const base = baseName(name);

  if (OTHER_SHELLS.has(base)) {
    const script = shellScriptOperand(inner);
    if (script.kind === "string" && script.word.value !== undefined) walk.parseNested(script.word.value, `${base} -c`, env);
    else if (script.kind === "string") part.dynamicCode = `${base} -c runs ${script.word.text}, known only when the command runs`;
    return false;
  }
  if (SHELLS.has(base)) {
    const startup = startupReason(base, inner, part.assignments, layers);
    if (startup) part.startupFiles = startup;
    const script = shellScriptOperand(inner);
    if (script.kind === "string") {
      if (script.word.value === undefined) return false;
      return walk.parseNested(script.word.value, `${base} -c`, env) && plain && !startup;
    }
    if (script.kind === "stdin") {
      const input = part.redirects.find((r) => r.inputText !== undefined && (r.fd === undefined || r.fd === 0));
      if (input?.inputText !== undefined) return walk.parseNested(input.inputText, `${base} <<`, env) && plain && !startup;
    }
    return false;
  }
  switch (base) {
    case "eval": {
      const args = inner.slice(1);
      if (args.length === 0 || args.some((w) => w.value === undefined)) {
        walk.anyVariable = true;
        if (args.length) walk.change({ text: part.text, opaque: true, part });
        return false;
      }
      return walk.parseNested(args.map((w) => w.value).join(" "), "eval", env) && plain;
    }
    case "trap": {
      const action = inner[1];
      if (!action || action.value === "-p" || action.value === "-l" || action.value === "-") return false;
      if (action.value === undefined) part.dynamicCode = `the trap runs ${action.text}, known only when the command runs`;
      else walk.parseNested(action.value, "trap", env);
      return false;
    }
    case "su":
    case "sg":
    case "script": {
      const i = inner.findIndex((w, k) => k > 0 && (w.value === "-c" || w.value === "--command" || (base === "script" && w.value !== undefined && /^-[a-z]*c$/.test(w.value))));
      // `sg GROUP CMD…` runs the rest of its words through sh -c, like `sg GROUP -c CMD`.
      const words = i > 0 ? inner.slice(i + 1, i + 2) : base === "sg" ? inner.slice(2) : [];
      if (words.length === 0) return false;
      if (words.every((w) => w.value !== undefined)) walk.parseNested(words.map((w) => w.value).join(" "), `${base} -c`, env);
      else part.dynamicCode = `${base} runs ${words.map((w) => w.text).join(" ")}, known only when the command runs`;
      return false;
    }
    case "watch": {
      const cmd = watchCommand(inner);
      if (cmd.shell) {
        if (cmd.words.every((w) => w.value !== undefined)) walk.parseNested(cmd.words.map((w) => w.value).join(" "), "watch", env);
        else part.dynamicCode = `watch runs ${cmd.words.map((w) => w.text).join(" ")}, known only when the command runs`;
      } else if (cmd.words.length) synthesized(walk, cmd.words, "watch -x", env);
      return false;
    }
    case "parallel":
    case "sem": {
      const { command, inputs } = parallelCommand(inner);
      const texts = command.length ? [command] : inputs.map((w) => [w]);
      for (const words of texts) {
        if (words.every((w) => w.value !== undefined)) walk.parseNested(words.map((w) => w.value).join(" "), base, env);
        else part.dynamicCode = `${base} runs ${words.map((w) => w.text).join(" ")}, known only when the command runs`;
      }
      return false;
    }
    case "alias":
      // An alias is code that replaces a command name later (zsh expands aliases in scripts).
      for (const w of inner.slice(1)) {
        const eq = w.value?.indexOf("=") ?? -1;
        if (w.value !== undefined && eq > 0) walk.parseNested(w.value.slice(eq + 1), "alias", env);
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
      if (callback?.value !== undefined) walk.parseNested(callback.value, `${base} -C`, env);
      else if (callback) part.dynamicCode = `${base} -C runs ${callback.text}, known only when the command runs`;
      return false;
    }
    case "hash": {
      // `hash -p PROGRAM NAME`: NAME runs PROGRAM from now on.
      const i = inner.findIndex((w) => w.value === "-p");
      const program = i > 0 ? inner[i + 1] : undefined;
      if (program) synthesized(walk, [program], "hash -p", env);
      return false;
    }
    case "find":
      for (const run of findExecCommands(inner)) synthesized(walk, run, "find -exec", env);
      return false;
    case "fd":
    case "fdfind":
      for (const run of fdExecCommands(inner)) synthesized(walk, run, "fd -x", env);
      return false;
    case "xargs": {
      const run = xargsCommand(inner);
      if (run.length > 0) synthesized(walk, [...run, { text: "(input)", expansion: "(input)" }], "xargs", env);
      return false;
    }
    default:
      return false;
  }
}

/** A part made of words a program runs (`find -exec`, `xargs`, …), walked like a written one. */
function synthesized(walk: Walk, words: ShellWord[], label: string, env: Env): void {
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
  walk.out.parts.push(part);
  // `find … -exec sh -c '…' {} \;` and `xargs sh -c '…'`: read that script too.
  runsNested(walk, part, walk.fork(env, { via: part.via as string[] }));
}

/** `functions[git]='…'`, `aliases[ll]='…'`, `commands[git]=/path`: the code and programs they name run later. */
export function codeInTables(walk: Walk, cmd: U.Command, part: MutablePart, env: Env): void {
  for (const a of cmd.prefix) {
    if (a.type !== "Assignment" || !CODE_TABLES.test(a.name) || a.value.type !== "Word") continue;
    const value = wordInfo(a.value, walk.opts.home).value;
    if (value === undefined) {
      part.dynamicCode = `${a.text} defines code known only when it runs`;
    } else if (a.name === "commands" || a.name === "BASH_CMDS") {
      synthesized(walk, [{ text: value, value }], `${a.name}[…]`, env);
    } else if (a.name !== "options") {
      walk.parseNested(value, `${a.name}[…]`, env);
    }
  }
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
  if (flags.length)
    reasons.push(
      `${base} ${flags.join(" ")} reads start-up files (${base === "zsh" ? "~/.zshrc, ~/.zprofile" : base === "bash" ? "~/.bashrc, ~/.profile or the file given" : "$ENV, ~/.profile"}) before the command`,
    );
  if (names.length) reasons.push(`${names.join(", ")} set for ${base} change${names.length === 1 ? "s" : ""} what it runs before the command`);
  return reasons.length ? reasons.join("; ") : undefined;
}
