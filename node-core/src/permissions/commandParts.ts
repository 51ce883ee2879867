// Splits a shell command into the simple commands ("parts") that will actually run, using a real
// Bash parser (unbash). Every part is judged on its own: `git status && rm -rf ~` is two parts,
// and so are the commands inside `$(…)`, backticks, `<(…)`, subshells, functions, `bash -c '…'`,
// `eval '…'`, `find -exec …`, `xargs …` and a shell fed a heredoc.
import path from "node:path";
import type * as U from "unbash";
import type { SyntaxLibraries } from "../util/bashSyntax.js";

export interface ShellWord {
  /** As written, quotes included. */
  readonly text: string;
  /** After quote removal, when the word has no expansion (other than $HOME) and no glob. */
  readonly value?: string;
  /** For a glob word without expansions: the literal text before the first glob character. */
  readonly globPrefix?: string;
  /** For a word with an expansion: the first expansion as written (`$DIR`, `$(pwd)`). */
  readonly expansion?: string;
  /** A placeholder for paths somewhere below this word's path (`find DIR -exec … {}`). */
  readonly within?: ShellWord;
}

export interface ShellRedirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `<`, `<&`, `>&`, `<<`, `<<-`, `<<<`. */
  readonly operator: string;
  readonly fd?: number;
  readonly target?: ShellWord;
  /** Heredoc or herestring text, when it is static (a shell reading it runs it as a script). */
  readonly inputText?: string;
}

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
}

export interface SplitCommand {
  parts: CommandPart[];
  /** Syntax errors; a command with errors is never allowed by rules alone. */
  errors: string[];
  /** Functions that start copies of themselves in the background or in a pipe (fork bombs). */
  selfSpawningFunctions: string[];
}

export interface SplitOptions {
  cwd: string | undefined;
  home: string;
}

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh"]);
const MAX_NESTING = 8;

interface Env {
  cwd: string | undefined;
  via: string[];
  pipedFrom: CommandPart[];
  depth: number;
  src: string;
  fn?: string;
  spawning: boolean;
}

export function splitCommand(source: string, lib: SyntaxLibraries, opts: SplitOptions): SplitCommand {
  const out: SplitCommand = { parts: [], errors: [], selfSpawningFunctions: [] };
  const walker = new Walker(lib, opts, out);
  walker.script(lib.parse(source), { cwd: opts.cwd, via: [], pipedFrom: [], depth: 0, src: source, spawning: false }, "");
  return out;
}

class Walker {
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
        // `{ …; } > file` writes a file of its own: that write is a part to judge.
        if (redirects.some(writesFile)) {
          this.out.parts.push(this.part(env, { text: this.slice(env, node.redirects), assignments: [], words: [], redirects, substitutions: [] }));
        }
        return;
      }
      case "If":
      case "For":
      case "ArithmeticFor":
      case "Select":
      case "While":
      case "Case": {
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

  private command(cmd: U.Command, env: Env): void {
    const start = this.out.parts.length;
    this.lib.forEachChild(cmd, (child) => this.nested(child, this.fork(env)));
    const substitutions = this.out.parts.slice(start);

    const assignments: ShellWord[] = [];
    const redirects: ShellRedirect[] = [];
    const words: ShellWord[] = [];
    for (const p of cmd.prefix) {
      if (p.type === "Assignment") assignments.push(assignmentWord(p, this.opts.home));
      else redirects.push(this.redirect(p));
    }
    if (cmd.name) words.push(wordInfo(cmd.name, this.opts.home));
    for (const s of cmd.suffix) {
      if (s.type === "Word") words.push(wordInfo(s, this.opts.home));
      else if (s.type === "Assignment") words.push(assignmentWord(s, this.opts.home));
      else redirects.push(this.redirect(s));
    }
    const part = this.part(env, { text: env.src.slice(cmd.pos, cmd.end), assignments, words, redirects, substitutions });

    const name = words[0]?.value;
    if (env.fn !== undefined && name === env.fn && env.spawning && !this.out.selfSpawningFunctions.includes(name)) {
      this.out.selfSpawningFunctions.push(name);
    }

    const transparent = this.runsNested(part, env);
    if (!transparent) this.out.parts.push(part);
    this.trackDirectory(part, env);
  }

  private part(env: Env, fields: Pick<CommandPart, "text" | "assignments" | "words" | "redirects" | "substitutions">): CommandPart {
    return { ...fields, cwd: env.cwd, via: env.via, pipedFrom: env.pipedFrom };
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

  /**
   * Walks what `bash -c STR`, `eval STR`, `su -c STR`, a shell reading a heredoc, `find -exec` and
   * `xargs` run. Returns true when the outer command is only a plain shell around that script (no
   * wrapper, assignment or file redirection), so the inner parts stand for it.
   */
  private runsNested(part: CommandPart, env: Env): boolean {
    const { inner, layers } = unwrap(part.words);
    const name = inner[0]?.value;
    if (!name) return false;
    const plain = layers.length === 1 && part.assignments.length === 0 && !part.redirects.some(writesFile);
    const base = baseName(name);

    if (SHELLS.has(base)) {
      const script = shellScriptOperand(inner);
      if (script.kind === "string") {
        if (script.word.value === undefined) return false;
        return this.parseNested(script.word.value, `${base} -c`, env) && plain;
      }
      if (script.kind === "stdin") {
        const input = part.redirects.find((r) => r.inputText !== undefined && (r.fd === undefined || r.fd === 0));
        if (input?.inputText !== undefined) return this.parseNested(input.inputText, `${base} <<`, env) && plain;
      }
      return false;
    }
    if (base === "eval") {
      const args = inner.slice(1);
      if (args.length === 0 || args.some((w) => w.value === undefined)) return false;
      return this.parseNested(args.map((w) => w.value).join(" "), "eval", env) && plain;
    }
    if (base === "su") {
      const i = inner.findIndex((w, k) => k > 0 && (w.value === "-c" || w.value === "--command"));
      const str = i > 0 ? inner[i + 1] : undefined;
      if (str?.value !== undefined) this.parseNested(str.value, "su -c", env);
      return false;
    }
    if (base === "find") {
      for (const run of findExecCommands(inner)) this.synthesized(run, "find -exec", env);
      return false;
    }
    if (base === "xargs") {
      const run = xargsCommand(inner);
      if (run.length > 0) this.synthesized([...run, { text: "(input)", expansion: "(input)" }], "xargs", env);
      return false;
    }
    return false;
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
    const part: CommandPart = {
      text: words.map((w) => w.text).join(" "),
      assignments: [],
      words,
      redirects: [],
      cwd: env.cwd,
      via: [...env.via, label],
      pipedFrom: [],
      substitutions: [],
    };
    this.out.parts.push(part);
    // `find … -exec sh -c '…' {} \;` and `xargs sh -c '…'`: read that script too.
    this.runsNested(part, this.fork(env, { via: part.via as string[] }));
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
}

/** The word's static meaning: quotes removed, `$HOME`/`${HOME}` substituted; or why it has none. */
export function wordInfo(word: U.Word, home: string): ShellWord {
  if (!word.parts) return { text: word.text, value: word.value };
  let value = "";
  let globPrefix: string | undefined;
  let expansion: string | undefined;
  const literal = (p: U.WordPart | U.DoubleQuotedChild, quoted: boolean): void => {
    if (expansion !== undefined) return;
    switch (p.type) {
      case "Literal":
      case "SingleQuoted":
      case "AnsiCQuoted":
        value += p.value;
        return;
      case "DoubleQuoted":
      case "LocaleString":
        for (const c of p.parts) literal(c, true);
        return;
      case "SimpleExpansion":
      case "ParameterExpansion": {
        const plainHome =
          p.type === "SimpleExpansion" ? p.text === "$HOME" : p.parameter === "HOME" && !p.operation && !p.prefix && !p.index;
        if (plainHome) value += home;
        else expansion = p.text;
        return;
      }
      case "Glob":
      case "ExtendedGlob":
        if (!quoted && globPrefix === undefined) globPrefix = value;
        value += p.text;
        return;
      default:
        expansion = p.text;
    }
  };
  for (const p of word.parts) literal(p, false);
  if (expansion !== undefined) return { text: word.text, expansion };
  if (globPrefix !== undefined) return { text: word.text, globPrefix };
  return { text: word.text, value };
}

function assignmentWord(a: U.Assignment, home: string): ShellWord {
  if (a.value.type === "ArrayValue") {
    const dynamic = a.value.elements.map((e) => wordInfo(e, home)).find((w) => w.value === undefined);
    return dynamic ? { text: a.text, expansion: dynamic.expansion ?? dynamic.text } : { text: a.text, value: a.text };
  }
  const v = wordInfo(a.value, home);
  if (v.value === undefined) return { text: a.text, expansion: v.expansion ?? v.text };
  return { text: a.text, value: `${a.name}${a.index ? `[${a.index.text}]` : ""}${a.append ? "+=" : "="}${v.value}` };
}

/** The last path segment of a command name: `/usr/bin/rm` → `rm`. */
export function baseName(name: string): string {
  const slash = name.lastIndexOf("/");
  return slash >= 0 ? name.slice(slash + 1) : name;
}

/** An output redirection that writes a file (not a descriptor copy, not /dev/null or the terminal). */
export function writesFile(r: ShellRedirect): boolean {
  if (!["&>", "&>>", ">", ">>", ">|", "<>"].includes(r.operator)) {
    // `>&word` writes a file when the word is not a descriptor number or `-`.
    if (r.operator !== ">&") return false;
    const t = r.target?.value;
    if (t !== undefined && /^(\d+|-)$/.test(t)) return false;
  }
  const target = r.target?.value;
  if (target === undefined) return true;
  return !HARMLESS_DEVICES.test(normalizedPath(target));
}

/** `/tmp/../dev/null` → `/dev/null`; relative paths stay relative. */
export function normalizedPath(p: string): string {
  return p.startsWith("/") ? path.posix.normalize(p) : p;
}

/** Devices that are safe to write: they store nothing and reach no disk. */
export const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|stdout|stderr|stdin|tty|random|urandom|fd\/\d+|pts\/\d+|shm\/.*)$/;

/** Where a word points on disk. `path` is absolute and normalised; `unknown` says why it cannot be known. */
export function resolveWordPath(
  word: ShellWord,
  cwd: string | undefined,
  home: string,
): { path?: string; glob?: boolean; unknown?: string } {
  let text: string | undefined = word.value;
  let glob = false;
  if (text === undefined && word.globPrefix !== undefined) {
    // `build/*` stands for the contents of `build/`; `*` for the contents of the current directory.
    text = word.globPrefix.includes("/") ? word.globPrefix.slice(0, word.globPrefix.lastIndexOf("/") + 1) || "/" : ".";
    glob = true;
  }
  if (text === undefined) return { unknown: `it depends on ${word.expansion ?? word.text}, known only when the command runs` };
  if (text === "~" || text.startsWith("~/")) text = home + text.slice(1);
  else if (text.startsWith("~")) return { unknown: `${word.text} is another user's home directory` };
  if (!path.isAbsolute(text)) {
    if (cwd === undefined) return { unknown: `${word.text} is relative to a directory that is only known when the command runs` };
    text = path.resolve(cwd, text);
  }
  return { path: path.resolve(text), glob };
}

export interface Unwrapped {
  /** The command that finally runs, after wrappers such as `sudo`, `env`, `nice`, `timeout`. */
  inner: readonly ShellWord[];
  /** Each view of the command: as written, then after each wrapper is removed. */
  layers: (readonly ShellWord[])[];
  /** The wrappers removed, outermost first. */
  wrappers: string[];
}

interface WrapperSpec {
  /** Options that take a separate value (`-u root`). */
  valued: string[];
  /** Positional operands before the command (`timeout 10 cmd`). */
  operands?: number;
  /** Options after which the word is not a command to run at all (`command -v x`). */
  notExec?: string[];
  /** `NAME=value` words are skipped (env, sudo). */
  assignments?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { valued: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type", "--command-timeout", "--other-user", "--close-from"], assignments: true, notExec: ["-l", "--list", "-v", "--validate", "-k", "-K", "-e", "--edit", "-V"] },
  doas: { valued: ["-u", "-C"] },
  pkexec: { valued: ["--user"] },
  run0: { valued: ["-u", "--user", "-g", "--group", "-D", "--chdir", "--setenv", "--unit", "--property", "--slice", "--nice"] },
  env: { valued: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"], assignments: true },
  nohup: { valued: [] },
  setsid: { valued: [] },
  time: { valued: ["-f", "--format", "-o", "--output"] },
  command: { valued: [], notExec: ["-v", "-V"] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  nice: { valued: ["-n", "--adjustment"] },
  ionice: { valued: ["-c", "--class", "-n", "--classdata"], notExec: ["-p", "--pid", "-P", "--pgid", "-u", "--uid"] },
  timeout: { valued: ["-s", "--signal", "-k", "--kill-after"], operands: 1 },
  stdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  unbuffer: { valued: [] },
  chronic: { valued: [] },
};

/** Removes wrapper commands so rules and warnings also see the command that really runs. */
export function unwrap(words: readonly ShellWord[]): Unwrapped {
  const layers: (readonly ShellWord[])[] = [words];
  const wrappers: string[] = [];
  let current = words;
  for (let guard = 0; guard < 16; guard++) {
    const name = current[0]?.value;
    const spec = name !== undefined ? WRAPPERS[baseName(name)] : undefined;
    if (!spec || !name) break;
    let i = 1;
    let stop = false;
    while (i < current.length) {
      const w = current[i]!.value;
      // A word known only at run time: it is the command (`sudo $CMD`), as far as can be told.
      if (w === undefined) break;
      if (w === "--") {
        i++;
        break;
      }
      if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
        i++;
        continue;
      }
      if (!w.startsWith("-") || w === "-") break;
      if (spec.notExec?.some((o) => w === o || (o.length === 2 && !o.startsWith("--") && /^-[A-Za-z]+$/.test(w) && w.includes(o[1]!)))) {
        stop = true;
        break;
      }
      if (/^-[0-9]+$/.test(w) && baseName(name) === "nice") {
        i++;
        continue;
      }
      if (spec.valued.includes(w)) i += 2;
      else if (w.startsWith("--") && w.includes("=")) i++;
      else if (!w.startsWith("--") && w.length > 2 && spec.valued.includes(w.slice(0, 2))) i++;
      else i++;
    }
    if (stop) break;
    i += spec.operands ?? 0;
    const next = current.slice(i);
    if (next.length === 0) {
      wrappers.push(baseName(name));
      current = next;
      layers.push(next);
      break;
    }
    wrappers.push(baseName(name));
    current = next;
    layers.push(next);
  }
  return { inner: current, layers, wrappers };
}

/** What a shell invocation runs: a `-c` string, a script file, or its standard input. */
export function shellScriptOperand(words: readonly ShellWord[]): { kind: "string"; word: ShellWord } | { kind: "file" } | { kind: "stdin" } {
  let wantsString = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!.value;
    if (w === undefined) return wantsString ? { kind: "string", word: words[i]! } : { kind: "file" };
    if (w === "--") {
      const next = words[i + 1];
      if (wantsString && next) return { kind: "string", word: next };
      return next ? { kind: "file" } : { kind: "stdin" };
    }
    if (w === "-o" || w === "+o" || w === "-O" || w === "+O" || w === "--rcfile" || w === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(w)) {
      if (w.startsWith("-") && w.includes("c")) wantsString = true;
      if (w === "-s") return { kind: "stdin" };
      continue;
    }
    if (w.startsWith("--")) continue;
    return wantsString ? { kind: "string", word: words[i]! } : { kind: "file" };
  }
  return { kind: "stdin" };
}

/** The commands `find … -exec CMD … ;` (and -execdir, -ok, -okdir) runs; `{}` stands for each file. */
export function findExecCommands(words: readonly ShellWord[]): ShellWord[][] {
  const runs: ShellWord[][] = [];
  const roots = findRoots(words);
  const each: ShellWord = { text: "{}", expansion: "{} (each file found)", ...(roots.length === 1 ? { within: roots[0] } : {}) };
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!.value;
    if (w !== "-exec" && w !== "-execdir" && w !== "-ok" && w !== "-okdir") continue;
    const run: ShellWord[] = [];
    let j = i + 1;
    for (; j < words.length; j++) {
      const v = words[j]!.value;
      if (v === ";" || v === "+") break;
      run.push(v === "{}" ? each : words[j]!);
    }
    if (run.length > 0) runs.push(run);
    i = j;
  }
  return runs;
}

/** The starting points of a `find` command (`.` when none is given). */
export function findRoots(words: readonly ShellWord[]): ShellWord[] {
  const roots: ShellWord[] = [];
  let i = 1;
  while (i < words.length && /^-(H|L|P|O\d*|D)$/.test(words[i]!.value ?? "")) i += words[i]!.value === "-D" ? 2 : 1;
  for (; i < words.length; i++) {
    const v = words[i]!.value;
    if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!" || v === ")")) break;
    roots.push(words[i]!);
  }
  return roots.length ? roots : [{ text: ".", value: "." }];
}

const XARGS_VALUED = new Set(["-I", "-i", "-n", "-P", "-L", "-l", "-d", "-E", "-e", "-s", "-a", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-lines", "--max-chars", "--replace", "--eof", "--process-slot-var"]);

/** The command `xargs [options] CMD …` runs (without the arguments it reads). */
export function xargsCommand(words: readonly ShellWord[]): ShellWord[] {
  let i = 1;
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === undefined) return words.slice(i);
    if (w === "--") {
      i++;
      break;
    }
    if (!w.startsWith("-")) break;
    if (XARGS_VALUED.has(w)) i += 2;
    else i++;
  }
  return words.slice(i);
}
