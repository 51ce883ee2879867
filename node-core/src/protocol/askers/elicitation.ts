// Asking over MCP: a form elicitation (`elicitation/create`) when the client declared support,
// in the shape of the protocol version the client negotiated. Only an `accept` that carries a
// decision allows anything; decline, cancel and an accept without one (a client that shows the
// message with a bare Accept button) deny, and the model is told why.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitResultSchema, ErrorCode as McpErrorCode, McpError, type ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import { AskTimeout, type PermissionAnswer, type PermissionAsker, type PermissionPrompt } from "../../permissions/types.js";

/**
 * The first protocol version whose form elicitation has a `mode` field and titled single-select
 * enums (`oneOf: [{const, title}]`). Before it (2025-06-18, which Codex CLI 0.171 negotiates) a
 * select is `enum` with `enumNames` and the request has no `mode`.
 */
export const TITLED_ENUMS_VERSION = "2025-11-25";

const DECISIONS = [
  { const: "allow-once", title: "Allow once" },
  { const: "always-allow", title: "Always allow in this session (remember the rule below)" },
  { const: "deny", title: "Deny" },
] as const;

/**
 * A channel for one tool call, or undefined when the client cannot answer form elicitations.
 * `protocolVersion` is the version negotiated in the client's `initialize` (mcpServer.ts).
 */
export function elicitationAsker(server: Server, relatedRequestId?: string | number, protocolVersion?: string): PermissionAsker | undefined {
  if (!server.getClientCapabilities()?.elicitation?.form) return undefined;
  const ask = async (prompt: PermissionPrompt, { signal, timeoutMs }: { signal: AbortSignal; timeoutMs: number }): Promise<PermissionAnswer> => {
    let result;
    try {
      // Sent as is (not through elicitInput, which would add the 2025-11-25 `mode` field).
      result = await server.request({ method: "elicitation/create", params: elicitationParams(prompt, protocolVersion) }, ElicitResultSchema, {
        signal,
        timeout: timeoutMs,
        ...(relatedRequestId !== undefined ? { relatedRequestId } : {}),
      });
    } catch (err) {
      if (err instanceof McpError && err.code === McpErrorCode.RequestTimeout && !signal.aborted) throw new AskTimeout(timeoutMs);
      throw err;
    }
    return answerFrom(result.action, result.content);
  };
  // The agent's own client answers: its "Always allow" stays in its session (permissions/service.ts).
  return Object.assign(ask, { remembers: "session" as const });
}

/** Versions are dates (YYYY-MM-DD): they order as strings. */
function titledEnums(protocolVersion: string | undefined): boolean {
  return protocolVersion === undefined || protocolVersion >= TITLED_ENUMS_VERSION;
}

export function elicitationParams(prompt: PermissionPrompt, protocolVersion?: string): ElicitRequestFormParams | Omit<ElicitRequestFormParams, "mode"> {
  const where =
    prompt.kind !== "command"
      ? []
      : prompt.sandboxed
        ? ["Runs inside the OS sandbox."]
        : [`Runs OUTSIDE the sandbox, with your full permissions: ${prompt.outsideSandboxReason ?? "no sandbox is active"}. Your answer is the only protection.`];
  const lines = [
    prompt.kind === "command"
      ? `${prompt.tool} wants to run:\n  ${prompt.command}`
      : prompt.kind === "read"
        ? `${prompt.tool} wants to read ${prompt.path}`
        : `${prompt.tool} wants to write ${prompt.path}`,
    ...where,
    ...(prompt.description ? [`Purpose: ${prompt.description}`] : []),
    `Directory: ${prompt.directory}`,
    ...prompt.warnings.map((w) => `Warning: ${w.message}`),
    `Why you are asked: ${prompt.reason}`,
  ];
  const titled = titledEnums(protocolVersion);
  const decision = titled
    ? { type: "string" as const, title: "Decision", oneOf: DECISIONS.map((d) => ({ const: d.const, title: d.title })), default: "allow-once" }
    : { type: "string" as const, title: "Decision", enum: DECISIONS.map((d) => d.const), enumNames: DECISIONS.map((d) => d.title), default: "allow-once" };
  const requestedSchema = {
    type: "object" as const,
    properties: {
      decision,
      rules: {
        type: "string" as const,
        title: "Rule to remember for Always allow (one per line; edit to widen or narrow it)",
        default: prompt.suggestedRules.join("\n"),
      },
      message: { type: "string" as const, title: "Message to the agent (optional)" },
    },
    required: ["decision"],
  };
  const params = { message: lines.join("\n"), requestedSchema } as Omit<ElicitRequestFormParams, "mode">;
  return titled ? { mode: "form", ...params } : params;
}

/** Fails closed: only an accepted form that carries a known decision allows anything. */
export function answerFrom(action: "accept" | "decline" | "cancel", content: Record<string, unknown> | undefined): PermissionAnswer {
  const message = typeof content?.message === "string" && content.message.trim() ? content.message.trim() : undefined;
  if (action === "decline") return { decision: "deny", message: message ?? "The user declined." };
  if (action === "cancel") return { decision: "deny", message: message ?? "The user dismissed the request without answering." };
  const decision = content?.decision;
  if (decision !== "allow-once" && decision !== "always-allow" && decision !== "deny") {
    return {
      decision: "deny",
      failedClosed:
        decision === undefined
          ? "The question was accepted without a decision (the client showed no form to choose Allow once, Always allow or Deny), so it was treated as a refusal."
          : `The question was accepted with the decision ${JSON.stringify(decision).slice(0, 100)}, which is none of allow-once, always-allow or deny, so it was treated as a refusal.`,
    };
  }
  const rules =
    typeof content?.rules === "string"
      ? content.rules
          .split("\n")
          .map((r) => r.trim())
          .filter(Boolean)
      : undefined;
  return { decision, ...(decision === "always-allow" && rules?.length ? { rules } : {}), ...(message ? { message } : {}) };
}
