// The decision: allow, deny or ask, with the reason, for a command (judged part by part) or for a
// file write. Pure apart from reading the file system to resolve symlinks; the service around it
// does the asking. The static reading is a courtesy that errs toward asking; where an OS sandbox
// runs the command, the sandbox is the guarantee (docs/user/permissions.md).
import { lstatSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { harmlessBuiltIn } from "./builtins.js";
import { splitCommand, unwrap, writesFile, type CommandPart, type EnvironmentChange, type ShellWord, type SplitCommand } from "./commandParts.js";
import { dedupeWarnings, globalWarnings, opaqueCode, partWarnings, type Warning } from "./danger.js";
import { HARD_LINKED, hardLinkCount, homesOf, isInsideAllowed, realPath, withPathMemo, type Places } from "./paths.js";
import { readOnlyCall, writeFlags } from "./readOnly.js";
import { credentialWithId } from "../base/hardLinks.js";
import { commandRuleMatches, denyRuleCouldMatch, pathRuleMatches, pathRuleNames, suggestRule, type CommandRule, type PathRule, type Rule } from "./rules.js";
import { sensitiveInside, sensitiveOutsidePath, sensitiveReadPath, sensitiveWritePath, type SensitiveRead } from "./sensitive.js";
import { accountHome, waveStateDirectories } from "../base/stateDir.js";
import type { PermissionMode } from "../base/settings.js";
import type { SyntaxLibraries } from "../util/bashSyntax.js";
import { clipText } from "../util/text.js";
import { isWithin } from "../util/paths.js";

export interface RuleSet {
  readonly allow: readonly Rule[];
  readonly deny: readonly Rule[];
}

export interface PartVerdict {
  /** The part as written. */
  text: string;
  /** How it was reached (`$(…)`, `bash -c`, …); absent for a top-level part. */
  via?: string[];
  status: "allowed" | "denied" | "needs-approval";
  /**
   * The rule that decided it; `(built-in)` for the harmless built-ins (cd, echo, true, …),
   * `(read-only)` for the read-only list, `(sandbox)` for a part allowed because the command
   * runs inside the sandbox.
   */
  rule?: string;
  reason: string;
  warnings: Warning[];
  /** For "Always allow": the rule that would cover this part. */
  suggestedRule?: string;
}

export interface Decision {
  outcome: "allow" | "deny" | "ask";
  mode: PermissionMode;
  /** A shell command, a file write (`path`), or what a file tool reads or searches (`read`). */
  kind: "command" | "path" | "read";
  /** One sentence for people and models. */
  reason: string;
  warnings: Warning[];
  /** Command checks: each part and how it was judged. */
  parts: PartVerdict[];
  /** Rules that "Always allow" would remember (one per part that needs approval). */
  suggestedRules: string[];
  /** Path and read checks: the canonical path. */
  path?: string;
  /**
   * Read checks of a search (Grep, Glob): the credential stores and Wave state directories inside
   * the folder. The search goes around them; each can be searched by its own path (and is asked).
   */
  around?: string[];
  /**
   * Read checks: the credential store, state directory or system secret the path was judged to be
   * (or lie in). Absent when it was judged an ordinary file: a file that turns out to be a
   * credential when it is opened (a hard link renamed into place after the check) is not read.
   */
  sensitiveRead?: string;
  /** Read checks of a file: its `dev:ino` when judged, so the tool can tell the file it opens is that one. */
  fileId?: string;
  /** Every part allowed by a rule, a built-in or the read-only list (not by the sandbox or the mode). */
  allowedByRules: boolean;
  /** Command checks: the command will run inside an active OS sandbox. */
  sandboxed?: boolean;
  /** Command checks: why it will not (the agent asked to run it outside, no sandbox is available, …). */
  outsideSandboxReason?: string;
  /**
   * Command checks: the name of every command that would run (in the shell and in whatever it
   * starts: `$(…)`, `bash -c`, `xargs`, …), each a literal word, each once. Absent when
   * the reading cannot name them all: a name that is an expansion, a function the command defines,
   * code hidden in expansions or given as a string, a change to how names are looked up (alias,
   * enable, …), a syntax error.
   */
  commandNames?: string[];
}

export interface DecideContext extends Places {
  /** Where the command runs, or what a relative path is relative to. */
  readonly cwd: string;
  /** The workspace root (relative path rules are relative to it). */
  readonly root: string;
  /**
   * Is this variable exported in the environment commands start with? A lower-case variable set
   * in a command reaches later programs only when it is; without this, every one counts.
   */
  readonly isExported?: (name: string) => boolean;
  /**
   * The directories commands are looked up in (PATH). The read-only list applies only when none
   * of them is relative or inside an allowed directory, where a file tool could put a program.
   */
  readonly searchPath?: readonly string[];
}

export interface CommandOptions {
  /** The command will run inside an active OS sandbox. */
  sandboxed: boolean;
  /** Why it will not, when it will not. */
  outsideSandboxReason?: string;
}

export function defaultPlaces(): Pick<Places, "home" | "homes" | "tempDir" | "stateDirectories"> {
  const home = realPath(os.homedir());
  const account = accountHome();
  return {
    home,
    homes: [...new Set([home, ...(account && path.isAbsolute(account) ? [realPath(account)] : [])])],
    tempDir: realPath(os.tmpdir()),
    stateDirectories: waveStateDirectories().map(realPath),
  };
}

/** Reasons shown in a decision's text; a command of thousands of parts names the first few. */
const LISTED_REASONS = 5;

function listReasons(reasons: string[]): string {
  const shown = reasons.slice(0, LISTED_REASONS).map((r) => clipText(r, 500));
  if (reasons.length > LISTED_REASONS) shown.push(`(${reasons.length - LISTED_REASONS} more parts need approval.)`);
  return shown.join(" ");
}

function quote(text: string): string {
  return "`" + (text.length > 200 ? text.slice(0, 197) + "..." : text) + "`";
}

/** zsh's lower-case variables that are the shell's own (tied to PATH, FPATH, …). */
const SHELL_LOWER = new Set(["path", "fpath", "cdpath", "manpath", "mailpath", "module_path", "psvar", "fignore", "histchars", "watch", "argv", "status", "pipestatus", "signals"]);

/** What the earlier statements of a command change for one of its parts. */
interface Carried {
  /** The changes, in the order written. */
  changes: EnvironmentChange[];
  /** Their `NAME=value` forms, when every one has one (a rule can name them); null when one cannot be named. */
  prefix: string[] | null;
}

function carriedFor(part: CommandPart, split: SplitCommand, ctx: DecideContext): Carried {
  const exportedHere = new Set(split.changes.filter((c) => c.exports && c.name).map((c) => c.name!));
  const reaches = (c: EnvironmentChange) => {
    if (c.part === part) return false;
    if (c.opaque || !c.name) return true;
    // A local lower-case variable only matters through `$name` expansions, which the parts show.
    if (!/^[a-z_][a-z0-9_]*$/.test(c.name) || SHELL_LOWER.has(c.name)) return true;
    return c.exports === true || exportedHere.has(c.name) || split.exportsAll || (ctx.isExported?.(c.name) ?? true);
  };
  const changes = split.changes.filter(reaches);
  const prefix = changes.every((c) => c.assignment !== undefined) ? changes.map((c) => c.assignment!) : null;
  return { changes, prefix };
}

function ruleAssignments(carried: Carried, part: CommandPart): ShellWord[] {
  const words: ShellWord[] = carried.changes.map((c) => (c.assignment !== undefined ? { text: c.text, value: c.assignment } : { text: c.text }));
  return [...words, ...part.assignments];
}

function firstAllow(rules: readonly Rule[], assignments: readonly ShellWord[], part: CommandPart, kind: "exact" | "prefix"): CommandRule | undefined {
  for (const r of rules) if (r.type === "command" && r.match === kind && commandRuleMatches(r, assignments, part.words)) return r;
  return undefined;
}

/**
 * The deny rule this part may match, however it is invoked: through wrappers, path-qualified, with
 * words known only at run time standing for anything; and any command deny rule when the part
 * runs code this reading cannot see (it could be what the rule names).
 */
function firstDeny(rules: readonly Rule[], part: CommandPart, carried: Carried, unknown: readonly string[]): { rule: CommandRule; why: string } | undefined {
  const assignments = [...carried.changes.map((c) => c.assignment), ...part.assignments.map((a) => a.value)];
  const { layers } = unwrap(part.words);
  for (const r of rules) {
    if (r.type !== "command") continue;
    if (layers.some((l) => l.length > 0 && denyRuleCouldMatch(r, assignments, l))) {
      const dynamic = layers.some((l) => l.some((w) => w.value === undefined));
      return { rule: r, why: dynamic ? ` (a word known only when it runs may make it ${quote(r.text)})` : "" };
    }
    if (unknown.length > 0) return { rule: r, why: `: it runs code that cannot be seen beforehand, which may be what the rule names (${unknown[0]!.replace(/\.$/, "")})` };
  }
  return undefined;
}

/** PATH holds no directory a file tool could put a program in. */
function searchPathIsSafe(ctx: DecideContext): boolean {
  if (!ctx.searchPath) return false;
  for (const d of new Set(ctx.searchPath)) {
    if (d === "" || !path.isAbsolute(d)) return false;
    // PATH directories nearly always exist: one realpath each (the C library walks it) is cheaper
    // than a walk in JavaScript; a missing one is resolved as a write would be.
    let real: string;
    try {
      real = realpathSync.native(d);
    } catch {
      real = realPath(d);
    }
    if (ctx.allowedDirectories.some((a) => isWithin(real, a))) return false;
  }
  return true;
}

interface Judging {
  rules: RuleSet;
  mode: PermissionMode;
  split: SplitCommand;
  ctx: DecideContext;
  functions: Set<string>;
  /** searchPathIsSafe, asked once per command. */
  searchPathIsSafe: () => boolean;
  /** The command will run inside the OS sandbox. */
  sandboxed: boolean;
}

function judgePart(part: CommandPart, warnings: Warning[], j: Judging): PartVerdict {
  const base = { text: part.text, ...(part.via.length ? { via: [...part.via] } : {}), warnings };
  const carried = carriedFor(part, j.split, j.ctx);
  const denied = firstDeny(j.rules.deny, part, carried, opaqueCode(part));
  if (denied) return { ...base, status: "denied", rule: denied.rule.text, reason: `${quote(part.text)} matches the deny rule ${quote(denied.rule.text)}${denied.why}.` };
  const fileRedirect = part.redirects.some(writesFile);
  const name = part.words[0]?.value;
  const callsFunction = name !== undefined && j.functions.has(name);
  const opaque = carried.changes.some((c) => c.opaque);
  if (!fileRedirect && warnings.length === 0 && !callsFunction && !opaque && harmlessBuiltIn(part)) {
    return { ...base, status: "allowed", rule: "(built-in)", reason: `${quote(part.text)} only prints, tests, sets options or changes directory.` };
  }
  if (callsFunction) {
    return { ...base, status: "needs-approval", reason: `${quote(part.text)} runs the function ${name} this command defines, not the program a rule would name.` };
  }
  const assignments = ruleAssignments(carried, part);
  const writes = writeFlags(part);
  const suggestion = ((r) => (r ? { suggestedRule: r } : {}))(suggestRule(part, { warnings: warnings.length > 0, fileRedirect, writes: writes.length > 0, prefix: carried.prefix }));
  const exact = fileRedirect ? undefined : firstAllow(j.rules.allow, assignments, part, "exact");
  if (exact) return { ...base, status: "allowed", rule: exact.text, reason: `${quote(part.text)} is allowed by the exact rule ${quote(exact.text)}.` };
  const prefix = firstAllow(j.rules.allow, assignments, part, "prefix");
  if (prefix && warnings.length === 0 && writes.length === 0) {
    return { ...base, status: "allowed", rule: prefix.text, reason: `${quote(part.text)} is allowed by the rule ${quote(prefix.text)}.` };
  }
  if (prefix) {
    const why = warnings.length
      ? `a prefix rule does not cover a command with warnings: ${warnings.map((w) => w.message).join(" ")}`
      : `a prefix rule does not cover what it writes or runs: ${writes.join("; ")}.`;
    return { ...base, ...suggestion, status: "needs-approval", rule: prefix.text, reason: `${quote(part.text)} matches the rule ${quote(prefix.text)}, but ${why}` };
  }
  // PATH matters only where no sandbox runs: inside one, a program planted in the workspace under
  // a read-only name runs sandboxed too.
  if (j.mode === "ask" && !fileRedirect && warnings.length === 0 && carried.changes.length === 0 && readOnlyCall(part, j.ctx) && (j.sandboxed || j.searchPathIsSafe())) {
    return { ...base, status: "allowed", rule: "(read-only)", reason: `${quote(part.text)} only reads (the read-only list).` };
  }
  const changed = carried.changes.length
    ? ` Earlier statements change what it runs (${carried.changes
        .map((c) => c.text)
        .slice(0, 3)
        .join("; ")}), so a rule must name them too.`
    : "";
  return { ...base, ...suggestion, status: "needs-approval", reason: `No rule allows ${quote(part.text)}.${changed}` };
}

/** Every command name of a split command when each is a literal word and nothing runs unseen (Decision.commandNames). */
function commandNames(split: SplitCommand): string[] | undefined {
  if (split.errors.length > 0 || split.functions.length > 0 || split.hiddenCode.length > 0 || split.changes.some((c) => c.opaque)) return undefined;
  const names = new Set<string>();
  for (const part of split.parts) {
    if (part.hiddenCode.length > 0 || part.dynamicCode !== undefined) return undefined;
    const first = part.words[0];
    if (!first) continue;
    if (first.value === undefined || first.globPrefix !== undefined || first.value === "") return undefined;
    names.add(first.value);
  }
  return [...names];
}

export function decideCommand(command: string, ctx: DecideContext, rules: RuleSet, mode: PermissionMode, lib: SyntaxLibraries, opts: CommandOptions = { sandboxed: false }): Decision {
  return withPathMemo(() => judgeCommand(command, ctx, rules, mode, lib, opts));
}

function judgeCommand(command: string, ctx: DecideContext, rules: RuleSet, mode: PermissionMode, lib: SyntaxLibraries, opts: CommandOptions): Decision {
  const split = splitCommand(command, lib, { cwd: ctx.cwd, home: ctx.home });
  const global = globalWarnings(split);
  let safePath: boolean | undefined;
  const judging: Judging = { rules, mode, split, ctx, functions: new Set(split.functions), searchPathIsSafe: () => (safePath ??= searchPathIsSafe(ctx)), sandboxed: opts.sandboxed };
  let parts = split.parts.map((p) => judgePart(p, partWarnings(p, ctx), judging));
  const warnings = dedupeWarnings([...global, ...parts.flatMap((p) => p.warnings)]);
  const suggestedRules = global.length ? [] : [...new Set(parts.flatMap((p) => (p.status === "needs-approval" && p.suggestedRule ? [p.suggestedRule] : [])))];
  const allowedByRules = global.length === 0 && parts.every((p) => p.status === "allowed");
  const sandbox = { sandboxed: opts.sandboxed, ...(!opts.sandboxed && opts.outsideSandboxReason ? { outsideSandboxReason: opts.outsideSandboxReason } : {}) };
  const names = commandNames(split);
  const decision = (outcome: Decision["outcome"], reason: string): Decision => ({
    outcome,
    mode,
    kind: "command",
    reason,
    warnings,
    parts,
    suggestedRules,
    allowedByRules,
    ...sandbox,
    ...(names ? { commandNames: names } : {}),
  });

  const denied = parts.find((p) => p.status === "denied");
  if (denied) return decision("deny", denied.reason);
  // Code hidden outside any simple command (`case $((x)) in`) could be what a deny rule names.
  const denyRule = rules.deny.find((r) => r.type === "command");
  if (split.hiddenCode.length > 0 && denyRule) {
    return decision("deny", `${quote(split.hiddenCode[0]!.text)} runs code that cannot be seen beforehand, which may be what the deny rule ${quote(denyRule.text)} names.`);
  }
  if (mode === "allow-all") {
    return decision("allow", warnings.length ? `The permission mode is allow-all; allowed despite ${warnings.length} warning(s).` : "The permission mode is allow-all.");
  }
  if (allowedByRules) {
    const ruled = parts.filter((p) => p.rule && !p.rule.startsWith("("));
    const readOnly = parts.some((p) => p.rule === "(read-only)");
    return decision(
      "allow",
      parts.length === 0
        ? "The command runs nothing."
        : ruled.length
          ? `Allowed by ${[...new Set(ruled.map((p) => quote(p.rule!)))].join(", ")}.`
          : readOnly
            ? "Only read-only commands and harmless built-ins."
            : "Only harmless built-ins.",
    );
  }
  const pending = parts.filter((p) => p.status === "needs-approval");
  // Inside the sandbox the kernel holds the boundary: what has no warning runs without a question.
  if (mode === "ask" && opts.sandboxed && warnings.length === 0) {
    parts = parts.map((p) => (p.status === "needs-approval" ? { ...p, status: "allowed", rule: "(sandbox)", reason: `${quote(p.text)} runs inside the sandbox.` } : p));
    return { ...decision("allow", "Runs inside the sandbox, with no warning and no deny rule."), parts };
  }
  const why = listReasons([...global.map((w) => w.message), ...pending.map((p) => p.reason)]);
  if (mode === "deny-all") return decision("deny", `The permission mode is deny-all and the command is not allowed by rules: ${why}`);
  return decision("ask", why);
}

function outsideWarning(target: string): Warning {
  return { id: "outside-workspace", message: `${target} is outside the workspace and the allowed directories.`, part: target };
}

export function pathWarnings(target: string, places: Places): Warning[] {
  const warnings: Warning[] = [outsideWarning(target)];
  if (sensitiveOutsidePath(target, homesOf(places))) {
    warnings.push({ id: "sensitive-path", message: `${target} is a system, shell start-up or credentials file: changing it affects more than this project.`, part: target });
  }
  return warnings;
}

export function decidePath(target: string, ctx: DecideContext, rules: RuleSet, mode: PermissionMode, lib: SyntaxLibraries): Decision {
  let p = target;
  if (p === "~" || p.startsWith("~/")) p = ctx.home + p.slice(1);
  const abs = realPath(path.resolve(ctx.cwd, p));
  const pctx = { root: ctx.root, home: ctx.home };
  const matching = (list: readonly Rule[]) => list.find((r): r is PathRule => r.type === "path" && r.access === "write" && pathRuleMatches(r, abs, pctx, lib));
  const decision = (outcome: Decision["outcome"], reason: string, warnings: Warning[] = [], suggestedRules: string[] = [], allowedByRules = outcome === "allow"): Decision => ({
    outcome,
    mode,
    kind: "path",
    reason,
    warnings,
    parts: [],
    suggestedRules,
    path: abs,
    allowedByRules,
  });
  const denied = matching(rules.deny);
  if (denied) return decision("deny", `${abs} matches the deny rule ${quote(denied.text)}.`, [], [], false);
  const inside = isInsideAllowed(abs, ctx);
  // Inside the workspace, files that run code or grant permissions later are asked for: only a
  // rule that names them (not `Write(**)`) allows them without a question.
  // Wave's state directory counts wherever it is: a broad rule (`Write(~/**)`) must not cover it.
  const sensitive = sensitiveWritePath(abs, inside ? ctx.allowedDirectories : [], ctx.stateDirectories);
  // A file with several names changes under all of them, and the others may be anywhere (another
  // checkout, a package store, a home directory file linked in): it counts as outside.
  const links = hardLinkCount(abs);
  const linked: Warning[] =
    links > 1
      ? [{ id: HARD_LINKED, message: `${abs} has ${links} hard links: writing it changes the file under all its names, and the others may lie outside the allowed directories.`, part: abs }]
      : [];
  if (inside && !sensitive && links <= 1) return decision("allow", `${abs} is inside the allowed directories.`);
  const allowed = sensitive
    ? rules.allow.find((r): r is PathRule => r.type === "path" && r.access === "write" && pathRuleMatches(r, abs, pctx, lib) && pathRuleNames(r, abs, sensitive.anchor, pctx))
    : matching(rules.allow);
  // The hard-link warning travels with an approval: the writer then keeps every name (fileChange.ts).
  if (allowed) return decision("allow", `${abs} is allowed by the rule ${quote(allowed.text)}.`, linked);
  const linkNote = `${links} hard links (its other names may lie outside the allowed directories)`;
  if (sensitive) {
    const warnings: Warning[] = [
      ...(inside ? [] : [outsideWarning(abs)]),
      { id: "sensitive-path", message: inside ? `${abs} is inside the workspace, but ${sensitive.what}: changing it can run code later.` : `${abs} is ${sensitive.what}.`, part: abs },
      ...linked,
    ];
    const alsoLinked = links > 1 ? `; it has ${linkNote}` : "";
    if (mode === "allow-all") return decision("allow", `The permission mode is allow-all; ${abs} runs code or grants permissions later (${sensitive.what})${alsoLinked}.`, warnings, [], false);
    const why = `${abs} is a file that runs code or grants permissions later (${sensitive.what})${alsoLinked}, and no rule names it`;
    if (mode === "deny-all") return decision("deny", `The permission mode is deny-all; ${why}.`, warnings, [`Write(${abs})`], false);
    return decision("ask", `${why}.`, warnings, [`Write(${abs})`], false);
  }
  const warnings = [...(inside ? [] : pathWarnings(abs, ctx)), ...linked];
  const where = inside ? `${abs} has ${linkNote}` : `${abs} is outside the allowed directories`;
  const exactOnly = links > 1 || warnings.some((w) => w.id === "sensitive-path");
  const suggestion = exactOnly ? `Write(${abs})` : `Write(${path.join(path.dirname(abs), "**")})`;
  if (mode === "allow-all") return decision("allow", `The permission mode is allow-all; ${where}.`, warnings, [], false);
  if (mode === "deny-all") return decision("deny", `The permission mode is deny-all and no rule allows writing ${abs}: ${where}.`, warnings, [suggestion], false);
  return decision("ask", `${where} and no rule allows writing it.`, warnings, [suggestion], false);
}

/** A regular file's `dev:ino` and number of names (undefined for anything else). */
function fileIdentity(p: string): { id: string; nlink: number } | undefined {
  try {
    const st = lstatSync(p, { bigint: true, throwIfNoEntry: false });
    return st?.isFile() ? { id: `${st.dev}:${st.ino}`, nlink: Number(st.nlink) } : undefined;
  } catch {
    return undefined;
  }
}

/** Where a file tool's path really leads (symlinks and /proc links resolved), and what sensitive place it is in. */
export function readPlace(target: string, ctx: Pick<DecideContext, "cwd" | "home" | "homes" | "stateDirectories">): { path: string; sensitive?: SensitiveRead } {
  let p = target;
  if (p === "~" || p.startsWith("~/")) p = ctx.home + p.slice(1);
  const abs = realPath(path.resolve(ctx.cwd, p));
  const sensitive = sensitiveReadPath(abs, { homes: homesOf(ctx), stateDirectories: ctx.stateDirectories });
  return { path: abs, ...(sensitive ? { sensitive } : {}) };
}

/**
 * What a file tool (Read, Grep, Glob) may read: everything, except what the sandbox hides from
 * commands — credential stores in the home directory and the account's, system files with
 * secrets, Wave's state directories (base/credentials.ts, permissions/sensitive.ts). Those are
 * asked (denied in deny-all and when nobody can be asked) unless a `Read(…)` rule names them, the
 * way a sensitive workspace file needs a rule that names it (`Read(~/**)` does not). A deny rule
 * `Read(…)` denies them in every mode. Symlinks and /proc links are resolved first.
 */
export function decideRead(target: string, ctx: DecideContext, rules: RuleSet, mode: PermissionMode, lib: SyntaxLibraries, opts: { below?: boolean } = {}): Decision {
  const { path: abs, sensitive: named } = readPlace(target, ctx);
  const pctx = { root: ctx.root, home: ctx.home };
  let inside = opts.below && !named ? sensitiveInside(abs, { homes: homesOf(ctx), stateDirectories: ctx.stateDirectories }) : [];
  // A folder too large to look through for the other names of a hard-linked credential (base/hardLinks.ts) is asked whole.
  const tooLarge = inside.length === 1 && inside[0] === abs;
  if (tooLarge) inside = [];
  // The file judged is the one this stat saw: the tool compares what it opens with it (tools/readGuard.ts).
  const file = fileIdentity(abs);
  const fileId = file?.id;
  const linked = !named && file && file.nlink > 1 ? credentialWithId(file.id, abs, { homes: homesOf(ctx), stateDirectories: ctx.stateDirectories }, file.nlink) : undefined;
  const sensitive = named ?? linked ?? (tooLarge ? { anchor: abs, what: "a folder too large to look through for the other names (hard links) of a credential file that has several" } : undefined);
  const decision = (outcome: Decision["outcome"], reason: string, warnings: Warning[] = [], suggestedRules: string[] = [], allowedByRules = outcome === "allow"): Decision => ({
    outcome,
    mode,
    kind: "read",
    reason,
    warnings,
    parts: [],
    suggestedRules,
    path: abs,
    ...(inside.length ? { around: inside } : {}),
    ...(sensitive ? { sensitiveRead: sensitive.anchor } : {}),
    ...(fileId ? { fileId } : {}),
    allowedByRules,
  });
  if (!sensitive) return decision("allow", `${abs} is not a credential store, a system secret or Wave's state.`);
  const readRules = (list: readonly Rule[]) => list.filter((r): r is PathRule => r.type === "path" && r.access === "read" && pathRuleMatches(r, abs, pctx, lib));
  const denied = readRules(rules.deny)[0];
  if (denied) return decision("deny", `${abs} matches the deny rule ${quote(denied.text)}.`, [], [], false);
  const allowed = readRules(rules.allow).find((r) => pathRuleNames(r, abs, sensitive.anchor, pctx));
  if (allowed) return decision("allow", `${abs} is allowed by the rule ${quote(allowed.text)}.`);
  const warnings: Warning[] = [{ id: "sensitive-path", message: `${abs} is ${sensitive.what}: the sandbox hides it from commands, and reading it hands its content to the model.`, part: abs }];
  const why = `${abs} is ${sensitive.what}, and no rule names it`;
  const suggestion = [`Read(${abs})`];
  if (mode === "allow-all") return decision("allow", `The permission mode is allow-all; ${abs} is ${sensitive.what}.`, warnings, [], false);
  if (mode === "deny-all") return decision("deny", `The permission mode is deny-all; ${why}.`, warnings, suggestion, false);
  return decision("ask", `${why}.`, warnings, suggestion, false);
}
