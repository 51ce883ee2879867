// Asking over MCP: a form elicitation (`elicitation/create`) when the client declared support.
// Accept answers with the chosen decision; decline and cancel both mean the command does not run.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode as McpErrorCode, McpError, type ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import { AskTimeout, type PermissionAnswer, type PermissionAsker, type PermissionPrompt } from "../../permissions/types.js";

/** A channel for one tool call, or undefined when the client cannot answer form elicitations. */
export function elicitationAsker(server: Server, relatedRequestId?: string | number): PermissionAsker | undefined {
  if (!server.getClientCapabilities()?.elicitation?.form) return undefined;
  // The agent's own client answers: its "Always allow" stays in its session (permissions/service.ts).
  return Object.assign(async (prompt: PermissionPrompt, { signal, timeoutMs }: { signal: AbortSignal; timeoutMs: number }) => {
    let result;
    try {
      result = await server.elicitInput(elicitationParams(prompt), { signal, timeout: timeoutMs, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) });
    } catch (err) {
      if (err instanceof McpError && err.code === McpErrorCode.RequestTimeout && !signal.aborted) throw new AskTimeout(timeoutMs);
      throw err;
    }
    return answerFrom(result.action, result.content);
  }, { remembers: "session" as const });
}

function elicitationParams(prompt: PermissionPrompt): ElicitRequestFormParams {
  const lines = [
    prompt.kind === "command" ? `${prompt.tool} wants to run:\n  ${prompt.command}` : prompt.kind === "read" ? `${prompt.tool} wants to read ${prompt.path}` : `${prompt.tool} wants to write ${prompt.path}`,
    ...(prompt.description ? [`Purpose: ${prompt.description}`] : []),
    `Directory: ${prompt.directory}`,
    ...prompt.warnings.map((w) => `Warning: ${w.message}`),
    `Why you are asked: ${prompt.reason}`,
  ];
  return {
    mode: "form",
    message: lines.join("\n"),
    requestedSchema: {
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: "Decision",
          oneOf: [
            { const: "allow-once", title: "Allow once" },
            { const: "always-allow", title: "Always allow (remember the rule below)" },
            { const: "deny", title: "Deny" },
          ],
          default: "allow-once",
        },
        rules: {
          type: "string",
          title: "Rule to remember for Always allow (one per line; edit to widen or narrow it)",
          default: prompt.suggestedRules.join("\n"),
        },
        message: { type: "string", title: "Message to the agent (optional)" },
      },
      required: ["decision"],
    },
  };
}

function answerFrom(action: "accept" | "decline" | "cancel", content: Record<string, unknown> | undefined): PermissionAnswer {
  const message = typeof content?.message === "string" && content.message.trim() ? content.message.trim() : undefined;
  if (action === "decline") return { decision: "deny", message: message ?? "The user declined." };
  if (action === "cancel") return { decision: "deny", message: message ?? "The user dismissed the request without answering." };
  const decision = content?.decision === "always-allow" || content?.decision === "deny" ? content.decision : "allow-once";
  const rules =
    typeof content?.rules === "string"
      ? content.rules
          .split("\n")
          .map((r) => r.trim())
          .filter(Boolean)
      : undefined;
  return { decision, ...(decision === "always-allow" && rules?.length ? { rules } : {}), ...(message ? { message } : {}) };
}
