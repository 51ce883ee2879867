// Permission rules: what a user writes with --allow/--deny, in the host's settings, or when
// answering "Always allow". Command rules are one simple command, exact (`git status`) or a prefix
// (`npm run test:*`, `git log *`); path rules (`Write(/tmp/scratch/**)`) cover file writes.
import path from "node:path";
import { isWithin } from "../util/paths.js";
import { singleQuoted } from "../util/text.js";
import { baseName, unwrap, type CommandPart, type ShellWord } from "./commandParts.js";
import { realPath } from "./paths.js";
import type { SyntaxLibraries } from "../util/bashSyntax.js";

export interface CommandRule {
  readonly type: "command";
  /** Canonical text, as listed and persisted. */
  readonly text: string;
  readonly assignments: readonly string[];
  readonly words: readonly string[];
  readonly match: "exact" | "prefix";
  /** `name:*` form: the last word may also continue with `:` (`npm run test:*` covers `test:unit`). */
  readonly colon: boolean;
}

export interface PathRule {
  readonly type: "path";
  readonly text: string;
  /** `Write(…)`/`Edit(…)` cover writes; `Read(…)` (also written `Grep(…)`, `Glob(…)`) covers what the file tools read. */
  readonly access: "write" | "read";
  /** Absolute, `~/…` or relative to the workspace root; may hold globs (`*`, `**`, `?`, `[…]`, `{a,b}`). */
  readonly pattern: string;
}

export type Rule = CommandRule | PathRule;

export class RuleSyntaxError extends Error {
  constructor(
    readonly rule: string,
    reason: string,
  ) {
    super(`Invalid permission rule ${JSON.stringify(rule)}: ${reason}`);
    this.name = "RuleSyntaxError";
  }
}

const RULE_HELP =
  "Write a command rule as one simple command: exact (`git status`), or a prefix with `:*` or ` *` (`npm run test:*`, `git log *`); or a path rule `Write(/abs/dir/**)` or `Read(~/.aws/credentials)`.";
const COMMAND_TOOLS = new Set(["Bash", "Shell", "run_shell_command"]);
const PATH_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const READ_TOOLS = new Set(["Read", "Grep", "Glob"]);

export function parseRule(raw: string, lib: SyntaxLibraries): Rule {
  const text = raw.trim();
  if (!text) throw new RuleSyntaxError(raw, `a rule cannot be empty. ${RULE_HELP}`);
  const scoped = /^([A-Za-z_]+)\(([\s\S]*)\)$/.exec(text);
  if (scoped) {
    const [, tool, inner] = scoped;
    if (PATH_TOOLS.has(tool!)) return parsePathRule(raw, inner!.trim(), "write");
    if (READ_TOOLS.has(tool!)) return parsePathRule(raw, inner!.trim(), "read");
    if (COMMAND_TOOLS.has(tool!)) return parseCommandRule(raw, inner!.trim(), lib);
    throw new RuleSyntaxError(raw, `${tool}(…) is not a rule kind. ${RULE_HELP}`);
  }
  return parseCommandRule(raw, text, lib);
}

function parsePathRule(raw: string, pattern: string, access: PathRule["access"]): PathRule {
  if (!pattern) throw new RuleSyntaxError(raw, "a path rule needs a path, e.g. Write(/tmp/scratch/**), Write(~/notes/*.md) or Read(~/.aws/credentials).");
  if (pattern.includes("\0")) throw new RuleSyntaxError(raw, "a path cannot contain a NUL character.");
  return { type: "path", text: `${access === "read" ? "Read" : "Write"}(${pattern})`, pattern, access };
}

function parseCommandRule(raw: string, spec: string, lib: SyntaxLibraries): CommandRule {
  let base = spec;
  let match: CommandRule["match"] = "exact";
  let colon = false;
  if (base.endsWith(":*")) {
    base = base.slice(0, -2).trimEnd();
    match = "prefix";
    colon = true;
  } else if (base === "*" || /\s\*$/.test(base)) {
    base = base.slice(0, -1).trimEnd();
    match = "prefix";
  }
  if (!base) {
    throw new RuleSyntaxError(raw, "a rule that matches every command is not a rule; use --permission-mode allow-all (or permissions/setMode) for that.");
  }
  const script = lib.parse(base);
  if (script.errors?.length) throw new RuleSyntaxError(raw, `${script.errors[0]!.message}. ${RULE_HELP}`);
  const st = script.commands;
  const cmd = st.length === 1 && !st[0]!.background ? st[0]!.command : undefined;
  if (cmd?.type !== "Command" || !cmd.name) {
    throw new RuleSyntaxError(raw, `a rule is one simple command, without &&, ||, ;, |, & or compound commands (write one rule per command). ${RULE_HELP}`);
  }
  if (cmd.redirects.length > 0) throw new RuleSyntaxError(raw, "a rule cannot contain redirections; they are checked separately.");
  const words: string[] = [];
  const assignments: string[] = [];
  const dynamic = (t: string) => new RuleSyntaxError(raw, `${t} is not a plain word: rules cannot contain variables, substitutions or globs (a trailing :* or * is the only wildcard).`);
  for (const p of cmd.prefix) {
    if (p.type !== "Assignment") continue;
    if (p.value.type !== "Word" || p.value.parts?.some((x) => x.type !== "Literal" && x.type !== "SingleQuoted" && x.type !== "DoubleQuoted")) throw dynamic(p.text);
    assignments.push(`${p.name}=${p.value.value}`);
  }
  for (const w of [cmd.name, ...cmd.args]) {
    if (w.type === "Assignment") {
      words.push(w.text);
      continue;
    }
    if (w.parts && !w.parts.every((p) => p.type === "Literal" || p.type === "SingleQuoted" || p.type === "AnsiCQuoted" || (p.type === "DoubleQuoted" && p.parts.every((c) => c.type === "Literal")))) {
      throw dynamic(w.text);
    }
    words.push(w.value);
  }
  const canonical = [...assignments.map(quoteAssignment), ...words.map(quoteWord)].join(" ") + (match === "prefix" ? (colon ? ":*" : " *") : "");
  return { type: "command", text: canonical, assignments, words, match, colon };
}

/** Quotes a word for a shell only when it needs it. */
export function quoteWord(word: string): string {
  if (word === "{}" || (word !== "" && /^[A-Za-z0-9_@%+=:,./~-]+$/.test(word) && !/^~[^/]/.test(word))) return word;
  return singleQuoted(word);
}

function quoteAssignment(a: string): string {
  const eq = a.indexOf("=");
  return a.slice(0, eq + 1) + quoteWord(a.slice(eq + 1));
}

/**
 * Could this deny rule name these words, whatever the words known only at run time turn out to
 * be? A command name is compared by its last path segment (`/bin/rm`, `./rm` are `rm`); a word
 * known only at run time stands for any one word when quoted, and for any number of words
 * (none included) when the shell splits it. `NAME=value` prefixes are ignored unless the rule
 * names some, and then they must be among `assignments`.
 */
export function denyRuleCouldMatch(rule: CommandRule, assignments: readonly (string | undefined)[], words: readonly ShellWord[]): boolean {
  if (rule.assignments.some((a) => !assignments.includes(a)) && !assignments.includes(undefined)) return false;
  const R = rule.words.length;
  const W = words.length;
  const same = (i: number, v: string) => {
    if (i === 0) return baseName(v) === baseName(rule.words[0]!) || (R === 1 && rule.colon && baseName(v).startsWith(`${baseName(rule.words[0]!)}:`));
    if (i < R - 1) return v === rule.words[i];
    return v === rule.words[i] || (rule.colon && v.startsWith(`${rule.words[i]}:`));
  };
  const emptyable = (j: number) => words.slice(j).every((w) => w.value === undefined && !w.oneWord);
  const seen = new Set<number>();
  const match = (i: number, j: number): boolean => {
    const key = i * (W + 1) + j;
    if (seen.has(key)) return false;
    seen.add(key);
    if (i === R) return rule.match === "prefix" || j === W || emptyable(j);
    if (j === W) return false;
    const w = words[j]!;
    if (w.value !== undefined) return same(i, w.value) && match(i + 1, j + 1);
    if (w.oneWord) return match(i + 1, j + 1);
    // Split by the shell: it may be no word at all, or stand for any number of them.
    if (match(i, j + 1)) return true;
    for (let k = i + 1; k <= R; k++) if (match(k, j + 1)) return true;
    return false;
  };
  return match(0, 0);
}

/** Does the rule cover these words (and these `NAME=value` prefixes) as written? */
export function commandRuleMatches(rule: CommandRule, assignments: readonly ShellWord[], words: readonly ShellWord[]): boolean {
  if (assignments.length !== rule.assignments.length) return false;
  for (let i = 0; i < assignments.length; i++) if (assignments[i]!.value !== rule.assignments[i]) return false;
  const n = rule.words.length;
  if (rule.match === "exact" ? words.length !== n : words.length < n) return false;
  for (let i = 0; i < n - 1; i++) if (words[i]!.value !== rule.words[i]) return false;
  const last = words[n - 1]!.value;
  if (last === undefined) return false;
  return last === rule.words[n - 1] || (rule.colon && last.startsWith(`${rule.words[n - 1]}:`));
}

export interface PathContext {
  root: string;
  home: string;
}

const GLOB_CHARS = /[*?[\]{}]/;

/** Does the path rule cover this (canonical, absolute) path? */
export function pathRuleMatches(rule: PathRule, target: string, ctx: PathContext, lib: SyntaxLibraries): boolean {
  let pattern = rule.pattern;
  if (pattern === "~" || pattern.startsWith("~/")) pattern = ctx.home + pattern.slice(1);
  if (!path.isAbsolute(pattern)) pattern = path.join(ctx.root, pattern);
  if (!GLOB_CHARS.test(pattern)) {
    const dir = pattern.endsWith("/");
    const real = realPath(pattern);
    return target === real || (dir && isWithin(target, real));
  }
  // Resolve symlinks in the literal directories before the first glob, like the target's.
  const segments = pattern.split("/");
  const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
  const literal = segments.slice(0, firstGlob).join("/") || "/";
  const canonical = path.join(realPath(literal), ...segments.slice(firstGlob));
  return lib.picomatch(canonical, { dot: true })(target);
}

/**
 * Does the path rule name this sensitive file on purpose? Its pattern is the file itself, or
 * its literal directories before the first glob lie inside the sensitive folder (`.git/hooks/*`
 * names hooks; `**` or `src/**` names nothing in particular).
 */
export function pathRuleNames(rule: PathRule, target: string, anchor: string, ctx: PathContext): boolean {
  let pattern = rule.pattern;
  if (pattern === "~" || pattern.startsWith("~/")) pattern = ctx.home + pattern.slice(1);
  if (!path.isAbsolute(pattern)) pattern = path.join(ctx.root, pattern);
  if (!GLOB_CHARS.test(pattern)) return realPath(pattern) === target;
  const segments = pattern.split("/");
  const literal =
    segments
      .slice(
        0,
        segments.findIndex((s) => GLOB_CHARS.test(s)),
      )
      .join("/") || "/";
  return isWithin(realPath(literal), anchor);
}

const EXACT_ONLY = new Set([
  "rm",
  "rmdir",
  "dd",
  "shred",
  "chmod",
  "chown",
  "chgrp",
  "kill",
  "pkill",
  "killall",
  "sudo",
  "doas",
  "su",
  "pkexec",
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "eval",
  "exec",
  "source",
  ".",
  "env",
  "xargs",
  "find",
  "mv",
  "truncate",
  "python",
  "python3",
  "node",
  "perl",
  "ruby",
  "php",
  "deno",
  "bun",
  "curl",
  "wget",
  "ssh",
  "scp",
  "rsync",
]);
const PACKAGE_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);

export interface SuggestOptions {
  /** The part has danger warnings. */
  warnings: boolean;
  /** It writes a file through a redirection. */
  fileRedirect: boolean;
  /** It has write flags a prefix rule does not cover (readOnly.ts). */
  writes?: boolean;
  /** `NAME=value` changes earlier statements make, which a rule must name first; null: none can be named. */
  prefix?: readonly string[] | null;
}

/**
 * The rule to offer for "Always allow" on a part: a prefix rule for ordinary commands
 * (`git status:*`, `npm run test:*`), the exact command when it carries warnings or write flags,
 * runs code or deletes things; undefined when no rule can cover it (its name is only known at
 * run time, it is `[[ … ]]` or `(( … ))`, or an earlier statement changed more than a variable).
 */
export function suggestRule(part: CommandPart, opts: SuggestOptions): string | undefined {
  const words = part.words;
  const hasWarnings = opts.warnings || opts.writes === true;
  const fileRedirect = opts.fileRedirect;
  if (words.length === 0 || words[0]!.value === undefined || part.compound || opts.prefix === null) return undefined;
  if (part.assignments.some((a) => a.value === undefined)) return undefined;
  const firstDynamic = words.findIndex((w) => w.value === undefined);
  const staticWords = (firstDynamic < 0 ? words : words.slice(0, firstDynamic)).map((w) => w.value!);
  const assignments = [...(opts.prefix ?? []), ...part.assignments.map((a) => a.value!)].map(quoteAssignment);
  const render = (ws: string[], suffix: string) => [...assignments, ...ws.map(quoteWord)].join(" ") + suffix;
  const name = baseName(unwrap(words).inner[0]?.value ?? staticWords[0]!);
  const wrapped = unwrap(words).wrappers.length > 0;
  if (hasWarnings || EXACT_ONLY.has(name) || wrapped) {
    // An exact rule never matches a command with an output file or a dynamic word. A prefix of
    // its words does (and warnings still make that prefix ask), but for commands that delete or
    // run code a prefix before an unknown word would cover far too much: offer nothing then.
    if (firstDynamic < 0 && !fileRedirect) return render(staticWords, "");
    return EXACT_ONLY.has(name) || wrapped || firstDynamic >= 0 ? undefined : render(staticWords, " *");
  }
  const n = prefixLength(staticWords);
  return render(staticWords.slice(0, n), ":*");
}

const SUBCOMMAND_TOOLS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "npx",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "helm",
  "gh",
  "pip",
  "pip3",
  "poetry",
  "uv",
  "pipenv",
  "conda",
  "gradle",
  "./gradlew",
  "mvn",
  "./mvnw",
  "dotnet",
  "rustup",
  "brew",
  "apt",
  "apt-get",
  "systemctl",
  "terraform",
  "deno",
  "composer",
  "bundle",
  "rake",
  "rails",
  "mix",
  "swift",
  "flutter",
  "dart",
  "nx",
  "turbo",
]);

/** How many leading words name the action: `git status`, `npm run build`, `ls`. */
function prefixLength(words: string[]): number {
  const isSub = (w: string | undefined) => w !== undefined && /^[A-Za-z][A-Za-z0-9_-]*(:[A-Za-z0-9_:-]+)?$/.test(w);
  if (!SUBCOMMAND_TOOLS.has(words[0]!) || !isSub(words[1])) return 1;
  if (PACKAGE_RUNNERS.has(words[0]!) && (words[1] === "run" || words[1] === "run-script" || words[1] === "exec" || words[1] === "x" || words[1] === "dlx")) {
    return isSub(words[2]) ? 3 : 2;
  }
  return 2;
}
