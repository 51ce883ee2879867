// The decision: allow, deny or ask, with the reason, for a command (judged part by part) or for a
// file write outside the allowed directories. Pure apart from reading the file system to resolve
// symlinks; the service around it does the asking.
import os from "node:os";
import path from "node:path";
import { splitCommand, unwrap, writesFile, type CommandPart } from "./commandParts.js";
import { dedupeWarnings, globalWarnings, partWarnings, type Warning } from "./danger.js";
import { isInsideAllowed, realPath, type Places } from "./paths.js";
import { isReadOnlyPart } from "./readOnlyCommands.js";
import { commandRuleMatches, pathRuleMatches, suggestRule, type CommandRule, type PathRule, type Rule } from "./rules.js";
import type { SyntaxLibraries } from "./syntax.js";

export const PERMISSION_MODES = ["ask", "allow-all", "deny-all"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

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
  /** The rule that decided it; `(built-in)` for the harmless built-ins (cd, echo, true, …). */
  rule?: string;
  reason: string;
  warnings: Warning[];
  /** For "Always allow": the rule that would cover this part. */
  suggestedRule?: string;
}

export interface Decision {
  outcome: "allow" | "deny" | "ask";
  mode: PermissionMode;
  kind: "command" | "path";
  /** One sentence for people and models. */
  reason: string;
  warnings: Warning[];
  /** Command checks: each part and how it was judged. */
  parts: PartVerdict[];
  /** Rules that "Always allow" would remember (one per part that needs approval). */
  suggestedRules: string[];
  /** Path checks: the canonical path. */
  path?: string;
  /** Every part allowed by a rule or built in, whatever the mode. */
  allowedByRules: boolean;
  /** Commands: it will run inside the OS sandbox. */
  sandboxed: boolean;
  /** Commands that run outside the sandbox: why. */
  outsideSandboxReason?: string;
}

/** How the command will run, for the decision (see sandboxAutoAllow). */
export interface CommandRunContext {
  sandboxed?: boolean;
  outsideSandboxReason?: string;
}

export interface DecideContext extends Places {
  /** Where the command runs, or what a relative path is relative to. */
  readonly cwd: string;
  /** The workspace root (relative path rules are relative to it). */
  readonly root: string;
}

/** Built-ins that only print, test or move the shell around: allowed without a rule. */
const BUILT_IN = new Set(["cd", "pushd", "popd", "pwd", "true", "false", ":", "echo", "printf", "test", "[", "exit"]);

export function defaultPlaces(): Pick<Places, "home" | "tempDir"> {
  return { home: realPath(os.homedir()), tempDir: realPath(os.tmpdir()) };
}

function quote(text: string): string {
  return "`" + (text.length > 200 ? text.slice(0, 197) + "..." : text) + "`";
}

function firstMatch(rules: readonly Rule[], part: CommandPart, layers: (readonly CommandPart["words"][number][])[], kind: "exact" | "prefix" | "any"): CommandRule | undefined {
  for (const r of rules) {
    if (r.type !== "command" || (kind !== "any" && r.match !== kind)) continue;
    if (commandRuleMatches(r, part.assignments, part.words)) return r;
    if (kind === "any" && layers.slice(1).some((l) => commandRuleMatches(r, [], l))) return r;
  }
  return undefined;
}

function judgePart(part: CommandPart, warnings: Warning[], rules: RuleSet): PartVerdict {
  const base = { text: part.text, ...(part.via.length ? { via: [...part.via] } : {}), warnings };
  const { layers } = unwrap(part.words);
  // Deny rules also see through wrappers: a deny of `rm:*` catches `sudo rm …` and `nice rm …`.
  const denied = firstMatch(rules.deny, part, layers, "any");
  if (denied) return { ...base, status: "denied", rule: denied.text, reason: `${quote(part.text)} matches the deny rule ${quote(denied.text)}.` };
  const fileRedirect = part.redirects.some(writesFile);
  const name = part.words[0]?.value;
  if (!fileRedirect && warnings.length === 0 && (part.words.length === 0 || (name !== undefined && BUILT_IN.has(name)))) {
    return { ...base, status: "allowed", rule: "(built-in)", reason: `${quote(part.text)} only prints, tests or changes directory.` };
  }
  const exact = fileRedirect ? undefined : firstMatch(rules.allow, part, layers, "exact");
  if (exact) return { ...base, status: "allowed", rule: exact.text, reason: `${quote(part.text)} is allowed by the exact rule ${quote(exact.text)}.` };
  const prefix = firstMatch(rules.allow, part, layers, "prefix");
  const suggestedRule = suggestRule(part, warnings.length > 0, fileRedirect);
  const suggestion = suggestedRule ? { suggestedRule } : {};
  if (prefix && warnings.length === 0) {
    return { ...base, status: "allowed", rule: prefix.text, reason: `${quote(part.text)} is allowed by the rule ${quote(prefix.text)}.` };
  }
  if (prefix) {
    return {
      ...base,
      ...suggestion,
      status: "needs-approval",
      rule: prefix.text,
      reason: `${quote(part.text)} matches the rule ${quote(prefix.text)}, but a prefix rule does not cover a command with warnings: ${warnings.map((w) => w.message).join(" ")}`,
    };
  }
  return { ...base, ...suggestion, status: "needs-approval", reason: `No rule allows ${quote(part.text)}.` };
}

export function decideCommand(command: string, ctx: DecideContext, rules: RuleSet, mode: PermissionMode, lib: SyntaxLibraries, run: CommandRunContext = {}): Decision {
  const split = splitCommand(command, lib, { cwd: ctx.cwd, home: ctx.home });
  const global = globalWarnings(split);
  const parts = split.parts.map((p) => judgePart(p, partWarnings(p, ctx), rules));
  const warnings = dedupeWarnings([...global, ...parts.flatMap((p) => p.warnings)]);
  const suggestedRules = global.length ? [] : [...new Set(parts.flatMap((p) => (p.status === "needs-approval" && p.suggestedRule ? [p.suggestedRule] : [])))];
  const allowedByRules = global.length === 0 && parts.every((p) => p.status === "allowed");
  const decision = (outcome: Decision["outcome"], reason: string): Decision => ({
    outcome,
    mode,
    kind: "command",
    reason,
    warnings,
    parts,
    suggestedRules,
    allowedByRules,
    sandboxed: run.sandboxed === true,
    ...(run.sandboxed !== true && run.outsideSandboxReason ? { outsideSandboxReason: run.outsideSandboxReason } : {}),
  });

  const denied = parts.find((p) => p.status === "denied");
  if (denied) return decision("deny", denied.reason);
  if (mode === "allow-all") {
    return decision("allow", warnings.length ? `The permission mode is allow-all; allowed despite ${warnings.length} warning(s).` : "The permission mode is allow-all.");
  }
  if (allowedByRules) {
    const ruled = parts.filter((p) => p.rule && p.rule !== "(built-in)");
    return decision("allow", parts.length === 0 ? "The command runs nothing." : ruled.length ? `Allowed by ${[...new Set(ruled.map((p) => quote(p.rule!)))].join(", ")}.` : "Only harmless built-ins.");
  }
  const auto = sandboxAutoAllow(mode, run, warnings) ?? readOnlyAutoAllow(mode, run, warnings, split.parts, parts, ctx.home);
  if (auto) return decision("allow", auto);
  const pending = parts.filter((p) => p.status === "needs-approval");
  const why = [...global.map((w) => w.message), ...pending.map((p) => p.reason)].join(" ");
  if (mode === "deny-all") return decision("deny", `The permission mode is deny-all and the command is not allowed by rules: ${why}`);
  return decision("ask", why);
}

/**
 * Friction (issue 12): in `ask` mode a command that runs inside the OS sandbox, has no danger
 * warning and no deny rule runs without a question — the kernel, not this parser, stops what it
 * must not do. Returns the reason when it applies. (Deny rules were checked before this.)
 */
export function sandboxAutoAllow(mode: PermissionMode, run: CommandRunContext, warnings: readonly Warning[]): string | undefined {
  if (mode !== "ask" || run.sandboxed !== true || warnings.length > 0) return undefined;
  return "It runs inside the sandbox (it can write only the allowed directories) and has no danger warning.";
}

/**
 * Friction without a sandbox (issue 12): in `ask` mode a command that runs outside the sandbox
 * and has no warning runs without a question when each part is allowed already or is a read-only
 * command with plain literal words (readOnlyCommands.ts). Returns the reason when it applies.
 */
export function readOnlyAutoAllow(mode: PermissionMode, run: CommandRunContext, warnings: readonly Warning[], split: readonly CommandPart[], verdicts: readonly PartVerdict[], home: string): string | undefined {
  // Only for callers that say the command runs outside the sandbox (the shell tools always say).
  if (mode !== "ask" || run.sandboxed !== false || warnings.length > 0 || split.length === 0 || split.length !== verdicts.length) return undefined;
  const readOnly = (p: CommandPart, i: number) => verdicts[i]!.status === "allowed" || isReadOnlyPart(p, home);
  return split.every(readOnly) ? "It only reads: read-only commands with plain literal arguments, none naming a credential store." : undefined;
}

const SENSITIVE_HOME = /^(\.ssh|\.gnupg|\.aws|\.azure|\.kube|\.docker|\.config\/gcloud|\.password-store)(\/|$)|^(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zshenv|\.zprofile|\.zlogin|\.zlogout|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.gitconfig|\.config\/fish\/config\.fish|\.pam_environment|\.xprofile)$/;
const SENSITIVE_SYSTEM = /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|root|sys|proc|dev|var\/lib|opt|System|Library|private\/etc)(\/|$)/;

export function pathWarnings(target: string, places: Places): Warning[] {
  const warnings: Warning[] = [{ id: "outside-workspace", message: `${target} is outside the workspace and the allowed directories.`, part: target }];
  const relHome = path.relative(places.home, target);
  if ((!relHome.startsWith("..") && !path.isAbsolute(relHome) && SENSITIVE_HOME.test(relHome)) || SENSITIVE_SYSTEM.test(target)) {
    warnings.push({ id: "sensitive-path", message: `${target} is a system, shell start-up or credentials file: changing it affects more than this project.`, part: target });
  }
  return warnings;
}

export function decidePath(target: string, ctx: DecideContext, rules: RuleSet, mode: PermissionMode, lib: SyntaxLibraries): Decision {
  let p = target;
  if (p === "~" || p.startsWith("~/")) p = ctx.home + p.slice(1);
  const abs = realPath(path.resolve(ctx.cwd, p));
  const pctx = { root: ctx.root, home: ctx.home };
  const matching = (list: readonly Rule[]) => list.find((r): r is PathRule => r.type === "path" && pathRuleMatches(r, abs, pctx, lib));
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
    sandboxed: false,
  });
  const denied = matching(rules.deny);
  if (denied) return decision("deny", `${abs} matches the deny rule ${quote(denied.text)}.`, [], [], false);
  if (isInsideAllowed(abs, ctx)) return decision("allow", `${abs} is inside the allowed directories.`);
  const allowed = matching(rules.allow);
  if (allowed) return decision("allow", `${abs} is allowed by the rule ${quote(allowed.text)}.`);
  const warnings = pathWarnings(abs, ctx);
  const sensitive = warnings.some((w) => w.id === "sensitive-path");
  const suggestion = sensitive ? `Write(${abs})` : `Write(${path.join(path.dirname(abs), "**")})`;
  if (mode === "allow-all") return decision("allow", `The permission mode is allow-all; ${abs} is outside the allowed directories.`, warnings, [], false);
  if (mode === "deny-all") return decision("deny", `The permission mode is deny-all and no rule allows writing ${abs}, outside the allowed directories.`, warnings, [suggestion], false);
  return decision("ask", `${abs} is outside the allowed directories and no rule allows writing it.`, warnings, [suggestion], false);
}
