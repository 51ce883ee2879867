// Core → host events. The host protocol forwards each one as a JSON-RPC notification of the same
// name; the MCP server forwards the few an MCP client understands.
//
// The zod schemas below are the wire shapes (PROTOCOL.md "Notifications (core → host)") and the
// source of CoreEventMap: an emitter whose payload does not fit its event's schema does not compile,
// and the published JSON Schema (test-fixtures/protocol/schema.json, `npm run protocol:schema`) is
// generated from them. The shapes the events share with host method results (TaskInfo, EnvStatus,
// SandboxStatus, Warning) live here, the lowest layer that emits them; protocol/wire.ts reuses them.
import { z } from "zod";

const o = z.strictObject;

export const clientInfoSchema = o({ name: z.string(), version: z.string().optional() }).describe("An MCP client's clientInfo: the agent behind a session.");

export const survivorSchema = o({ pid: z.number().int(), command: z.string() });

export const taskInfoSchema = o({
  taskId: z.string(),
  sessionId: z.string(),
  command: z.string(),
  description: z.string().optional(),
  origin: z.enum(["background", "timeout", "user"]),
  status: z.enum(["running", "completed", "failed", "killed"]),
  pid: z.number().int().optional(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  runtimeMs: z.number().int(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  outputPath: z.string(),
  survivors: z.array(survivorSchema),
}).describe("TaskInfo: a background task (PROTOCOL.md tasks/list).");

export const warningSchema = o({ id: z.string(), message: z.string(), part: z.string().optional() }).describe("A danger the core found (README danger rules).");

export const sandboxStatusSchema = o({
  active: z.boolean(),
  kind: z.enum(["bubblewrap", "seatbelt", "none"]),
  network: z.enum(["allow", "deny"]),
  reason: z.string().optional(),
  remedy: z.string().optional(),
}).describe("SandboxStatus: the OS sandbox shell commands run in.");

export const envStatusFields = {
  state: z.enum(["pending", "ok", "degraded", "failed"]),
  shell: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  attempts: z.number().int(),
  parseMode: z.enum(["nul", "lines"]).nullable(),
  adoptedKeys: z.array(z.string()),
  reason: z.string().optional(),
};

const summaryScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const toolCallSummarySchema = o({
  preview: z.string(),
  textChars: z.number().int(),
  resultBytes: z.number().int(),
  errorKind: z.string().optional(),
  fields: z.record(z.string(), z.union([summaryScalar, o({ linesAdded: summaryScalar.optional(), linesRemoved: summaryScalar.optional(), truncated: summaryScalar.optional() })])),
}).describe("ToolCallSummary: tool/finished's bounded summary of a result.");

const permissionModeSchema = z.enum(["ask", "allow-all", "deny-all"]);

/** Every notification the core sends, by method. */
export const coreEventSchemas = {
  "tool/started": o({
    callId: z.string(),
    sessionId: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    startedAt: z.string(),
  }),
  "tool/finished": o({
    callId: z.string(),
    sessionId: z.string(),
    name: z.string(),
    isError: z.boolean(),
    durationMs: z.number().int(),
    /** A bounded summary of the result (core/callSummary.ts), never the result itself. */
    summary: toolCallSummarySchema,
  }),
  "tool/progress": o({
    callId: z.string(),
    sessionId: z.string(),
    message: z.string().optional(),
    progress: z.number().optional(),
    total: z.number().optional(),
  }),
  /**
   * Where a running shell command writes its output, for the tool window to show it as it comes
   * (BASH-FG-3: the model still gets the output once, at the end, and no output travels in events).
   * `outputPath`: stdout and stderr interleaved (Bash), or stdout alone when `stderrPath` is given.
   */
  "tool/output": o({ callId: z.string(), sessionId: z.string(), outputPath: z.string(), stderrPath: z.string().optional() }),
  "session/created": o({ sessionId: z.string(), parentSessionId: z.string().optional(), cwd: z.string() }),
  "session/disposed": o({ sessionId: z.string() }),
  "session/cwdChanged": o({ sessionId: z.string(), cwd: z.string(), previousCwd: z.string(), reset: z.boolean() }),
  "session/opened": o({ sessionId: z.string(), client: clientInfoSchema, cwd: z.string(), transport: z.enum(["mcp-http", "host"]) }),
  "session/closed": o({ sessionId: z.string(), client: clientInfoSchema, reason: z.string() }),
  "workspace/directoriesChanged": o({ root: z.string(), additionalDirectories: z.array(z.string()), sessionId: z.string().optional() }),
  "task/started": o({ sessionId: z.string(), task: taskInfoSchema }),
  "task/finished": o({ sessionId: z.string(), task: taskInfoSchema, stoppedBy: z.enum(["agent", "host", "session"]).optional() }),
  "env/statusChanged": o({ ...envStatusFields, sandbox: sandboxStatusSchema }),
  "processes/leftRunning": o({ pids: z.array(z.number().int()), reason: z.string() }),
  "permission/decided": o({
    callId: z.string().optional(),
    sessionId: z.string(),
    tool: z.string(),
    kind: z.enum(["command", "path", "read"]),
    command: z.string().optional(),
    path: z.string().optional(),
    outcome: z.enum(["allow", "deny"]),
    asked: z.boolean(),
    answer: z.enum(["allow-once", "always-allow", "deny"]).optional(),
    reason: z.string(),
    warnings: z.array(warningSchema),
  }),
  "permission/rulesProposed": o({ sessionId: z.string(), client: clientInfoSchema.optional(), rules: z.array(z.string()) }),
  "permission/rulesChanged": o({
    mode: permissionModeSchema,
    hostMode: permissionModeSchema.optional(),
    allow: z.array(z.string()),
    deny: z.array(z.string()),
    change: o({
      type: z.enum(["always-allow", "addRule", "removeRule", "setRules", "setMode"]),
      kind: z.enum(["allow", "deny"]).optional(),
      rules: z.array(z.string()).optional(),
      mode: permissionModeSchema.optional(),
    }),
  }),
} as const;

/** Payload of each event, as the emitter gives it: exactly what its schema accepts. */
export type CoreEventMap = { [K in keyof typeof coreEventSchemas]: z.input<(typeof coreEventSchemas)[K]> };

export type CoreEventName = keyof CoreEventMap & string;
type Listener = (method: string, params: Record<string, unknown>) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();

  emit<K extends CoreEventName>(method: K, params: CoreEventMap[K]): void {
    for (const l of this.listeners) {
      try {
        l(method, params as Record<string, unknown>);
      } catch {
        // A failing listener must never break the tool that emitted the event.
      }
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
