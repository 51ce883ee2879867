// The shapes tools, transports and hosts share with the permission layer.
import { z } from "zod";
import type { Decision, PartVerdict } from "./decide.js";
import type { Warning } from "./danger.js";

/** What a tool call needs permission for: a shell command, or writing a file. */
export interface PermissionRequest {
  /** The tool asking (Bash, run_shell_command, Write, Edit, …). */
  tool: string;
  /** A shell command, judged part by part. */
  command?: string;
  /** A file to write; paths outside the allowed directories and sensitive workspace files need permission. */
  path?: string;
  /** A file or folder a file tool reads or searches; credential stores, system secrets and Wave's state need permission. */
  read?: string;
  /** With `read`: the tool searches everything below the folder (Grep, Glob), so the decision names the sensitive places inside it. */
  readsBelow?: boolean;
  /** Shown to the user next to the command. */
  description?: string;
  /** Where the command runs (absolute, or relative to the session's directory); the session's directory by default. */
  directory?: string;
  /**
   * The command will run inside an active OS sandbox. In `ask` mode a sandboxed command with no
   * danger warning and no deny rule runs without a question; in `deny-all` it changes nothing.
   */
  sandboxed?: boolean;
  /** Why the command will run outside the sandbox ("no sandbox is available: bwrap is not installed", …). */
  outsideSandboxReason?: string;
}

export interface PermissionCheck extends PermissionRequest {
  sessionId?: string;
}

/** What the user sees: the params of `permission/request` (host protocol) and the text of an MCP elicitation. */
export interface PermissionPrompt {
  callId?: string;
  sessionId: string;
  tool: string;
  kind: "command" | "path" | "read";
  command?: string;
  /** For `path` (a write) and `read` prompts: the canonical path. */
  path?: string;
  description?: string;
  directory: string;
  /** Why the core asks. */
  reason: string;
  warnings: Warning[];
  parts: PartVerdict[];
  /** The rules "Always allow" would remember; the user may edit them. */
  suggestedRules: string[];
  /** Command checks: the command will run inside the OS sandbox. */
  sandboxed?: boolean;
  /** Command checks: why it will run outside the sandbox (show it: the user's answer is the only protection). */
  outsideSandboxReason?: string;
  /** After this long without an answer the core denies and cancels the request. */
  timeoutMs: number;
}

export const PERMISSION_DECISIONS = ["allow-once", "always-allow", "deny"] as const;

export const permissionAnswerSchema = z.object({
  decision: z.enum(PERMISSION_DECISIONS),
  /** For always-allow: the rules to remember (default: the prompt's suggestedRules). */
  rules: z.array(z.string()).optional(),
  /** For always-allow: a single rule (same as `rules: [rule]`). */
  rule: z.string().optional(),
  /** Passed on to the model (with deny: why; with allow: any instruction). */
  message: z.string().max(20_000).optional(),
  /** Set by an asker, never by a person: the answer could not be read as a decision, so it denies (and why). */
  failedClosed: z.string().max(2_000).optional(),
});

export type PermissionAnswer = z.output<typeof permissionAnswerSchema>;

/**
 * A channel to the person behind a call: the host's `permission/request`, or MCP elicitation.
 * `remembers: "session"` — the answers come through an agent's own client, not the host's: its
 * "Always allow" rules stay in that agent's session and are only proposed to the host.
 */
export type PermissionAsker = ((prompt: PermissionPrompt, opts: { signal: AbortSignal; timeoutMs: number }) => Promise<PermissionAnswer>) & {
  readonly remembers?: "host" | "session";
};

/** The asker did not get an answer in time. */
export class AskTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${Math.round(timeoutMs / 1000)} s.`);
    this.name = "AskTimeout";
  }
}

/** The other side answered something that is not a permission answer. */
export class InvalidAnswer extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidAnswer";
  }
}

export interface PermissionOutcome {
  allowed: boolean;
  /** When denied: what to tell the model (why, and what to do next). When allowed: the reason. */
  message: string;
  decision: Decision;
  /** True when the user was asked. */
  asked: boolean;
  answer?: PermissionAnswer;
  /** Rules remembered from an "Always allow" answer. */
  rulesAdded?: string[];
  /** Where they were remembered: the host's rules (every session), or only the asking agent's session. */
  rulesScope?: "host" | "session";
}
