// The permission service: one per core. It holds the mode and the rules (from the command line,
// from the host's settings and methods, and from "Always allow" answers), decides each check,
// and asks the caller's channel when the decision is "ask".
import path from "node:path";
import { z } from "zod";
import type { CoreEventMap, EventBus } from "../base/events.js";
import type { SessionManager } from "../base/session.js";
import type { CallOrigin } from "../base/origin.js";
import type { Workspace } from "../base/workspace.js";
import { createLogger } from "../util/log.js";
import { clipText, singleQuoted } from "../util/text.js";
import { PERMISSION_MODES, type PermissionMode, type SettingEntry } from "../base/settings.js";
import { decideCommand, decidePath, decideRead, defaultPlaces, readPlace, type Decision, type DecideContext, type RuleSet } from "./decide.js";
import { parseRule, RuleSyntaxError, type Rule } from "./rules.js";
import type { Warning } from "./danger.js";
import { loadSyntax, type SyntaxLibraries } from "../util/bashSyntax.js";
import { AskTimeout, InvalidAnswer, permissionAnswerSchema, type PermissionAnswer, type PermissionAsker, type PermissionCheck, type PermissionOutcome, type PermissionPrompt } from "./types.js";

const log = createLogger("permissions");

/** How long the core waits for a person to answer before it denies (10 minutes). */
export const DEFAULT_ASK_TIMEOUT_MS = 600_000;

export type RuleKind = "allow" | "deny";
/** `session`: an agent's own "Always allow" answer, for that session only (`sessionId` says which). */
export type RuleSource = "command-line" | "host" | "session";

/** The policy given on the command line (--permission-mode, --allow, --deny), already parsed. */
export interface ParsedPolicy {
  mode?: PermissionMode;
  allow: Rule[];
  deny: Rule[];
}

export class PolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PolicyError";
  }
}

export function parseMode(mode: string): PermissionMode {
  if ((PERMISSION_MODES as readonly string[]).includes(mode)) return mode as PermissionMode;
  throw new PolicyError(`Unknown permission mode ${JSON.stringify(mode)}; use one of ${PERMISSION_MODES.join(", ")}.`);
}

/** Parses --permission-mode/--allow/--deny; throws PolicyError or RuleSyntaxError with what to fix. */
export async function parsePolicy(opts: { mode?: string; allow?: readonly string[]; deny?: readonly string[] }): Promise<ParsedPolicy> {
  const mode = opts.mode !== undefined ? { mode: parseMode(opts.mode) } : {};
  const allow = opts.allow ?? [];
  const deny = opts.deny ?? [];
  // The parser loads only when there are rules to read: start-up without rules stays lean.
  if (allow.length === 0 && deny.length === 0) return { ...mode, allow: [], deny: [] };
  const lib = await loadSyntax();
  return { ...mode, allow: allow.map((r) => parseRule(r, lib)), deny: deny.map((r) => parseRule(r, lib)) };
}

export interface RejectedRule {
  rule: string;
  kind: RuleKind;
  reason: string;
}

export interface PermissionState {
  /** The mode in force. */
  mode: PermissionMode;
  /** Where it comes from: the host (settings or permissions/setMode), the command line, or the default. */
  modeSource: "host" | "command-line" | "default";
  allow: { rule: string; source: RuleSource; sessionId?: string }[];
  deny: { rule: string; source: RuleSource }[];
  /** Rules from the host's settings that could not be parsed (they are ignored). */
  rejected: RejectedRule[];
  askTimeoutMs: number;
}

export interface CheckOptions {
  signal?: AbortSignal;
  /** The caller's channel to a person; without one an "ask" becomes a deny that says how to allow. */
  asker?: PermissionAsker;
  callId?: string;
  origin?: CallOrigin;
}

interface HostLayer {
  mode?: PermissionMode;
  allow: Rule[];
  deny: Rule[];
  askTimeoutMs?: number;
}

export class PermissionService {
  private readonly cli: ParsedPolicy;
  private host: HostLayer = { allow: [], deny: [] };
  private rejected: RejectedRule[] = [];
  private appliedSettings: SettingEntry<"permissions"> | undefined;
  /** Rules remembered from agents' own "Always allow" answers, per session; gone with the session. */
  private readonly sessionAllow = new Map<string, Rule[]>();
  private places: { home: string; homes?: readonly string[]; tempDir: string; stateDirectories?: readonly string[] } | undefined;

  constructor(
    private readonly deps: { workspace: Workspace; sessions: SessionManager; events: EventBus },
    cli?: ParsedPolicy,
    places?: { home: string; homes?: readonly string[]; tempDir: string; stateDirectories?: readonly string[] },
  ) {
    this.cli = cli ?? { allow: [], deny: [] };
    this.places = places;
    deps.events.subscribe((method, params) => {
      if (method === "session/disposed") this.sessionAllow.delete(params.sessionId as string);
    });
  }

  get mode(): PermissionMode {
    return this.host.mode ?? this.cli.mode ?? "ask";
  }

  /**
   * The mode in force right now, including a `settings.permissions.mode` that arrived since the
   * last decision (settings are applied lazily, before each decision). The sandbox reads it:
   * `deny-all` cuts sandboxed commands off the network.
   */
  effectiveMode(): PermissionMode {
    const entry = this.deps.workspace.settings.entry("permissions");
    if (entry !== this.appliedSettings && !entry.problem && entry.value !== undefined && "mode" in entry.value) {
      return entry.value.mode ?? this.cli.mode ?? "ask";
    }
    return this.mode;
  }

  private rules(sessionId?: string): RuleSet {
    const own = sessionId !== undefined ? (this.sessionAllow.get(sessionId) ?? []) : [];
    return { allow: [...this.cli.allow, ...this.host.allow, ...own], deny: [...this.cli.deny, ...this.host.deny] };
  }

  private get askTimeoutMs(): number {
    return this.host.askTimeoutMs ?? DEFAULT_ASK_TIMEOUT_MS;
  }

  /**
   * `settings.permissions` ({mode, allow, deny, askTimeoutMs}) from `initialize` or
   * `settings/update` replaces the host's rules. Applied lazily, before each decision.
   */
  private syncSettings(lib: SyntaxLibraries): void {
    const entry = this.deps.workspace.settings.entry("permissions");
    if (entry === this.appliedSettings) return;
    this.appliedSettings = entry;
    if (entry.problem) {
      // The settings layer has logged it; permissions/list shows it with the rules.
      const given = this.deps.workspace.settings.asGiven().permissions;
      this.rejected = [{ rule: JSON.stringify(given)?.slice(0, 200) ?? "", kind: "allow", reason: `settings.permissions was ignored: ${entry.problem}` }];
      return;
    }
    const s = entry.value;
    if (s === undefined) return;
    const rejected: RejectedRule[] = [];
    const parseAll = (list: string[] | undefined, kind: RuleKind, current: Rule[]): Rule[] => {
      if (list === undefined) return current;
      const rules: Rule[] = [];
      for (const text of list) {
        try {
          const rule = parseRule(text, lib);
          if (!rules.some((r) => r.text === rule.text)) rules.push(rule);
        } catch (err) {
          rejected.push({ rule: text, kind, reason: (err as Error).message });
        }
      }
      return rules;
    };
    this.host = {
      mode: "mode" in s ? s.mode : this.host.mode,
      allow: parseAll(s.allow, "allow", this.host.allow),
      deny: parseAll(s.deny, "deny", this.host.deny),
      askTimeoutMs: s.askTimeoutMs ?? this.host.askTimeoutMs,
    };
    this.rejected = rejected;
    if (rejected.length) log.warn("some permission rules in the host's settings were ignored", { rejected });
  }

  private async ready(): Promise<SyntaxLibraries> {
    const lib = await loadSyntax();
    this.syncSettings(lib);
    return lib;
  }

  /** The decision for a check, without asking anyone and without side effects. */
  async evaluate(check: PermissionCheck): Promise<{ decision: Decision; directory: string; sessionId: string }> {
    // A read of an ordinary file (nearly every Read, Grep and Glob) is decided without the
    // rules, so it never waits for the shell parser to load.
    const lib = check.read !== undefined && check.command === undefined && check.path === undefined ? undefined : await this.ready();
    const session = this.deps.sessions.get(check.sessionId);
    if (!session) throw new PolicyError(`Unknown session "${check.sessionId}". Omit sessionId for the main session.`);
    const directory = check.directory ? path.resolve(session.cwd, check.directory) : session.cwd;
    this.places ??= defaultPlaces();
    const ctx: DecideContext = {
      cwd: directory,
      root: this.deps.workspace.root,
      allowedDirectories: session.allowedDirectories(),
      ...this.places,
      // Commands start from the core's environment (after the login-shell probe): it says what is exported.
      isExported: (name) => process.env[name] !== undefined,
      searchPath: (process.env.PATH ?? "").split(path.delimiter),
    };
    let decision: Decision;
    if (check.command !== undefined) {
      const sandbox = { sandboxed: check.sandboxed === true, ...(check.outsideSandboxReason ? { outsideSandboxReason: check.outsideSandboxReason } : {}) };
      decision = decideCommand(check.command, ctx, this.rules(session.id), this.mode, lib!, sandbox);
    } else if (check.path !== undefined) decision = decidePath(check.path, ctx, this.rules(session.id), this.mode, lib!);
    else if (check.read !== undefined) {
      const place = readPlace(check.read, ctx);
      if (place.sensitive) {
        const rulesLib = lib ?? (await this.ready());
        decision = decideRead(check.read, ctx, this.rules(session.id), this.mode, rulesLib);
      } else decision = decideRead(check.read, ctx, { allow: [], deny: [] }, this.mode, undefined as never, { below: check.readsBelow === true });
    } else throw new PolicyError("A permission check needs a command, a path or a read.");
    return { decision, directory, sessionId: session.id };
  }

  /** Decides, asks the caller's channel when needed, and says whether the call may go ahead. */
  async check(check: PermissionCheck, opts: CheckOptions = {}): Promise<PermissionOutcome> {
    const { decision, directory, sessionId } = await this.evaluate(check);
    const subject = check.command !== undefined ? `run ${quote(check.command)}` : decision.kind === "read" ? `read ${decision.path}` : `write ${decision.path}`;
    const report = (outcome: PermissionOutcome): PermissionOutcome => {
      if (outcome.asked || !outcome.allowed || decision.warnings.length > 0) {
        // Each front end shows it to the user (permission/decided, MCP log messages, `call` on stderr);
        // the log keeps the audit trail without saying it twice.
        if (outcome.allowed && !outcome.asked) log.info("allowed despite warnings", { tool: check.tool, mode: decision.mode, warnings: decision.warnings.map((w) => w.message) });
        this.deps.events.emit("permission/decided", {
          ...(opts.callId ? { callId: opts.callId } : {}),
          sessionId,
          tool: check.tool,
          kind: decision.kind,
          ...(check.command !== undefined ? { command: check.command } : { path: decision.path }),
          outcome: outcome.allowed ? "allow" : "deny",
          asked: outcome.asked,
          ...(outcome.answer ? { answer: outcome.answer.decision } : {}),
          reason: outcome.allowed ? decision.reason : outcome.message,
          warnings: decision.warnings,
        });
      }
      return outcome;
    };

    if (decision.outcome === "allow") return report({ allowed: true, message: decision.reason, decision, asked: false });
    if (decision.outcome === "deny") {
      // Denied by the deny-all mode rather than by a deny rule: say which rule would allow it.
      const byMode = decision.mode === "deny-all" && !decision.parts.some((p) => p.status === "denied") && decision.suggestedRules.length > 0;
      return report({
        allowed: false,
        decision,
        asked: false,
        message: `Permission denied: ${check.tool} may not ${subject}. ${decision.reason} Do not retry it; choose another way or ask the user to change the permission rules${
          byMode ? ` (${howToAllow(decision.suggestedRules, opts.origin)})` : ""
        }.`,
      });
    }
    if (!opts.asker) {
      return report({ allowed: false, decision, asked: false, message: cannotAskMessage(check, decision, subject, opts.origin) });
    }

    const prompt: PermissionPrompt = {
      ...(opts.callId ? { callId: opts.callId } : {}),
      sessionId,
      tool: check.tool,
      kind: decision.kind,
      ...(check.command !== undefined ? { command: check.command } : { path: decision.path }),
      ...(check.description ? { description: check.description } : {}),
      directory,
      reason: decision.reason,
      warnings: decision.warnings,
      parts: decision.parts,
      suggestedRules: decision.suggestedRules,
      ...(decision.kind === "command" ? { sandboxed: decision.sandboxed === true } : {}),
      ...(decision.outsideSandboxReason ? { outsideSandboxReason: decision.outsideSandboxReason } : {}),
      timeoutMs: this.askTimeoutMs,
    };
    const signal = opts.signal ?? new AbortController().signal;
    let answer: PermissionAnswer;
    try {
      answer = permissionAnswerSchema.parse(await opts.asker(prompt, { signal, timeoutMs: this.askTimeoutMs }));
    } catch (err) {
      let message: string;
      if (signal.aborted) message = `The ${check.tool} call was cancelled while waiting for permission to ${subject}; nothing ran.`;
      else if (err instanceof AskTimeout) {
        message = `Permission denied: nobody answered the request to ${subject} within ${Math.round(err.timeoutMs / 1000)} s, so it did not run. Ask the user before trying again.`;
      } else if (err instanceof z.ZodError || err instanceof InvalidAnswer) {
        log.warn("the permission answer was not understood", { error: err });
        message = `Permission denied: the answer to the request to ${subject} was not understood, so it did not run.`;
      } else {
        log.warn("the permission request failed", { error: err });
        message = `Permission denied: the request to ${subject} could not be shown to the user (${(err as Error)?.message ?? String(err)}), so it did not run.`;
      }
      return report({ allowed: false, decision, asked: true, message });
    }

    const note = answer.message?.trim();
    const said = note ? ` The user said: ${note}${/[.!?]$/.test(note) ? "" : "."}` : "";
    if (answer.decision === "deny" && answer.failedClosed) {
      return report({
        allowed: false,
        decision,
        asked: true,
        answer,
        message: `Permission denied: ${check.tool} may not ${subject}. ${answer.failedClosed} ${decision.kind === "read" ? "Nothing was read" : "Nothing ran"}; do not retry it without asking the user.`,
      });
    }
    if (answer.decision === "deny") {
      return report({
        allowed: false,
        decision,
        asked: true,
        answer,
        message: `Permission denied: the user did not allow ${check.tool} to ${subject}.${said} Do not retry the same thing without asking the user.`,
      });
    }
    let rulesAdded: string[] | undefined;
    const scope = opts.asker.remembers === "session" ? "session" : "host";
    if (answer.decision === "always-allow") {
      const wanted = answer.rules ?? (answer.rule !== undefined ? [answer.rule] : decision.suggestedRules);
      rulesAdded = scope === "session" ? this.rememberForSession(sessionId, wanted, await this.ready()) : this.remember(wanted, await this.ready());
    }
    return report({
      allowed: true,
      decision,
      asked: true,
      answer,
      ...(rulesAdded ? { rulesAdded, rulesScope: scope } : {}),
      message: `The user allowed ${check.tool} to ${subject}.${said}${rulesAdded?.length && scope === "session" ? ` The rule${rulesAdded.length === 1 ? "" : "s"} ${rulesAdded.map(quote).join(", ")} now hold${rulesAdded.length === 1 ? "s" : ""} for this session only.` : ""}`,
    });
  }

  /** Adds "Always allow" rules to the host's layer and tells the host, so it can persist them. */
  private remember(texts: readonly string[], lib: SyntaxLibraries): string[] {
    const added: string[] = [];
    for (const text of texts) {
      try {
        const rule = parseRule(text, lib);
        if (this.host.allow.some((r) => r.text === rule.text) || this.cli.allow.some((r) => r.text === rule.text)) continue;
        this.host.allow.push(rule);
        added.push(rule.text);
      } catch (err) {
        log.warn("a rule from an always-allow answer was ignored", { rule: text, error: (err as Error).message });
      }
    }
    if (added.length) this.changed({ type: "always-allow", kind: "allow", rules: added });
    return added;
  }

  /**
   * An agent's own "Always allow" (answered through its client, not the host): the rules hold in
   * its session only, never for other agents, and are proposed to the host
   * (`permission/rulesProposed`), which may show them to the user and add them with
   * permissions/addRule once the user confirms.
   */
  private rememberForSession(sessionId: string, texts: readonly string[], lib: SyntaxLibraries): string[] {
    const own = this.sessionAllow.get(sessionId) ?? [];
    const added: string[] = [];
    for (const text of texts) {
      try {
        const rule = parseRule(text, lib);
        if ([...own, ...this.host.allow, ...this.cli.allow].some((r) => r.text === rule.text)) continue;
        own.push(rule);
        added.push(rule.text);
      } catch (err) {
        log.warn("a rule from an always-allow answer was ignored", { rule: text, error: (err as Error).message });
      }
    }
    if (!this.deps.sessions.get(sessionId)) return [];
    this.sessionAllow.set(sessionId, own);
    if (added.length) {
      const client = this.deps.sessions.get(sessionId)?.client;
      this.deps.events.emit("permission/rulesProposed", { sessionId, ...(client ? { client } : {}), rules: added });
    }
    return added;
  }

  private changed(change: CoreEventMap["permission/rulesChanged"]["change"]): void {
    this.deps.events.emit("permission/rulesChanged", {
      mode: this.mode,
      ...(this.host.mode ? { hostMode: this.host.mode } : {}),
      allow: this.host.allow.map((r) => r.text),
      deny: this.host.deny.map((r) => r.text),
      change,
    });
  }

  async state(): Promise<PermissionState> {
    await this.ready();
    const list = (kind: RuleKind) => [...this.cli[kind].map((r) => ({ rule: r.text, source: "command-line" as const })), ...this.host[kind].map((r) => ({ rule: r.text, source: "host" as const }))];
    const sessions = [...this.sessionAllow].flatMap(([sessionId, rules]) => rules.map((r) => ({ rule: r.text, source: "session" as const, sessionId })));
    return {
      mode: this.mode,
      modeSource: this.host.mode ? "host" : this.cli.mode ? "command-line" : "default",
      allow: [...list("allow"), ...sessions],
      deny: list("deny"),
      rejected: [...this.rejected],
      askTimeoutMs: this.askTimeoutMs,
    };
  }

  async setMode(mode: PermissionMode): Promise<PermissionState> {
    await this.ready();
    this.host.mode = mode;
    this.changed({ type: "setMode", mode });
    return this.state();
  }

  /** Adds a rule to the host's layer. Returns its canonical text. Throws RuleSyntaxError. */
  async addRule(text: string, kind: RuleKind): Promise<string> {
    const lib = await this.ready();
    const rule = parseRule(text, lib);
    if (!this.host[kind].some((r) => r.text === rule.text)) {
      this.host[kind].push(rule);
      this.changed({ type: "addRule", kind, rules: [rule.text] });
    }
    return rule.text;
  }

  /** Removes a rule from the host's layer (rules given on the command line stay). */
  async removeRule(text: string, kind: RuleKind): Promise<void> {
    const lib = await this.ready();
    let canonical = text.trim();
    try {
      canonical = parseRule(text, lib).text;
    } catch {
      // An unparsable text can still name a rule verbatim.
    }
    const i = this.host[kind].findIndex((r) => r.text === canonical);
    if (i < 0) {
      if (this.cli[kind].some((r) => r.text === canonical)) {
        throw new PolicyError(`The ${kind} rule ${quote(canonical)} was given on the command line (--${kind}); restart the core without it to remove it.`);
      }
      throw new PolicyError(`There is no ${kind} rule ${quote(canonical)}. permissions/list shows the rules.`);
    }
    this.host[kind].splice(i, 1);
    this.changed({ type: "removeRule", kind, rules: [canonical] });
  }

  /** Replaces the host's allow and/or deny rules. All-or-nothing: throws on the first invalid rule. */
  async setRules(rules: { allow?: readonly string[]; deny?: readonly string[] }): Promise<void> {
    const lib = await this.ready();
    const parse = (list: readonly string[]) => {
      const out: Rule[] = [];
      for (const t of list) {
        const r = parseRule(t, lib);
        if (!out.some((x) => x.text === r.text)) out.push(r);
      }
      return out;
    };
    const allow = rules.allow ? parse(rules.allow) : this.host.allow;
    const deny = rules.deny ? parse(rules.deny) : this.host.deny;
    this.host = { ...this.host, allow, deny };
    this.changed({ type: "setRules" });
  }
}

function quote(text: string): string {
  return "`" + (text.length > 200 ? text.slice(0, 197) + "..." : text) + "`";
}

/** Rules a message names; past these it says how many more there are. */
const LISTED_RULES = 5;

/** The first rules, each bounded, as `show` renders them, and how many more there are. */
function listRules(rules: readonly string[], show: (rule: string) => string, separator: string): string {
  const listed = rules.slice(0, LISTED_RULES).map((r) => show(clipText(r, 300)));
  return listed.join(separator) + (rules.length > LISTED_RULES ? ` (and ${rules.length - LISTED_RULES} more rules)` : "");
}

/**
 * The warnings an error result carries: a command of thousands of parts can raise thousands, and
 * the result stays bounded with the first of them (the host was shown them all when it was asked).
 */
export function warningsForResult(warnings: readonly Warning[]): Warning[] {
  return warnings.slice(0, 20).map((w) => ({ ...w, message: clipText(w.message, 500), ...(w.part !== undefined ? { part: clipText(w.part, 500) } : {}) }));
}

/** Where the rules that would allow a call can be added, for the caller's kind of client. */
function howToAllow(rules: readonly string[], origin: CallOrigin | undefined): string {
  const flags = listRules(rules, (r) => `--allow ${singleQuoted(r)}`, " ");
  switch (origin) {
    case "mcp":
      return `the user can start wave-core mcp with ${flags}`;
    case "cli":
      return `run it again with ${flags}`;
    default:
      return `the host can add ${listRules(rules, (r) => JSON.stringify(r), ", ")} with permissions/addRule, or start the core with ${flags}`;
  }
}

function cannotAskMessage(check: PermissionCheck, decision: Decision, subject: string, origin: CallOrigin | undefined): string {
  const rules = decision.suggestedRules;
  const allowFlags = rules.length ? listRules(rules, (r) => `--allow ${singleQuoted(r)}`, " ") : "an --allow rule";
  const head = `Permission needed: ${check.tool} wants to ${subject}. ${decision.reason.trim()} The user must approve it but cannot be asked`;
  const didNot = decision.kind === "read" ? "Nothing was read." : "It did not run.";
  switch (origin) {
    case "mcp":
      return `${head}: this MCP client does not support elicitation. ${didNot} To allow it, the user can start wave-core mcp with ${allowFlags} (repeatable) or --permission-mode allow-all.`;
    case "cli":
      return `${head}. ${didNot} Run it again with ${allowFlags} or --permission-mode allow-all.`;
    default:
      return `${head}: the host did not declare capabilities.permissionRequests in initialize. ${didNot} To allow it, add ${rules.length ? listRules(rules, (r) => JSON.stringify(r), ", ") : "a rule"} with permissions/addRule (or settings.permissions.allow), set the mode with permissions/setMode, or start the core with ${allowFlags}.`;
  }
}

export { RuleSyntaxError };
