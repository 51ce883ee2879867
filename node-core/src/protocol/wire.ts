// The shapes of the host protocol's results (PROTOCOL.md), as zod schemas: each host method names
// its result schema next to its params schema (hostMethod.ts), the tests check every answer the
// real core gives against them (test/support/wire.ts), and the published JSON Schema
// (test-fixtures/protocol/schema.json, `npm run protocol:schema`) is generated from them. Objects
// are strict: a field the core sends that a schema does not name fails the tests, so the schema,
// PROTOCOL.md and the hosts' readers cannot silently drift apart.
import { z } from "zod";
import { PERMISSION_DECISIONS } from "../permissions/types.js";
import { envStatusFields, sandboxStatusSchema, taskInfoSchema, warningSchema, clientInfoSchema } from "../base/events.js";

const o = z.strictObject;

export { taskInfoSchema, sandboxStatusSchema, clientInfoSchema, warningSchema };

export const permissionModeSchema = z.enum(["ask", "allow-all", "deny-all"]);
const checkKind = z.enum(["command", "path", "read"]);

export const toolAnnotationsSchema = o({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

export const listedToolSchema = o({
  name: z.string(),
  description: z.string(),
  /** JSON Schema (draft 2020-12) of the tool's arguments. */
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: toolAnnotationsSchema.optional(),
});

export const contentItemSchema = z.discriminatedUnion("type", [o({ type: z.literal("text"), text: z.string() }), o({ type: z.literal("image"), data: z.string(), mimeType: z.string() })]);

/** MCP's CallToolResult: `structuredContent` is tool specific (README, each tool's result fields). */
export const callToolResultSchema = o({
  content: z.array(contentItemSchema),
  structuredContent: z.record(z.string(), z.unknown()),
  isError: z.boolean(),
}).describe("CallToolResult (MCP)");

export const partVerdictSchema = o({
  text: z.string(),
  via: z.array(z.string()).optional(),
  status: z.enum(["allowed", "denied", "needs-approval"]),
  rule: z.string().optional(),
  reason: z.string(),
  warnings: z.array(warningSchema),
  suggestedRule: z.string().optional(),
});

export const decisionSchema = o({
  outcome: z.enum(["allow", "deny", "ask"]),
  mode: permissionModeSchema,
  kind: checkKind,
  reason: z.string(),
  warnings: z.array(warningSchema),
  parts: z.array(partVerdictSchema),
  suggestedRules: z.array(z.string()),
  path: z.string().optional(),
  around: z.array(z.string()).optional(),
  allowedByRules: z.boolean(),
  sandboxed: z.boolean().optional(),
  outsideSandboxReason: z.string().optional(),
  commandNames: z.array(z.string()).optional(),
}).describe("Decision: what the permission layer decided.");

const ruleSource = z.enum(["command-line", "host", "session"]);

export const permissionStateFields = {
  mode: permissionModeSchema,
  modeSource: z.enum(["host", "command-line", "default"]),
  allow: z.array(o({ rule: z.string(), source: ruleSource, sessionId: z.string().optional() })),
  deny: z.array(o({ rule: z.string(), source: ruleSource })),
  rejected: z.array(o({ rule: z.string(), kind: z.enum(["allow", "deny"]), reason: z.string() })),
  askTimeoutMs: z.number().int(),
  /** This connection declared `capabilities.permissionRequests` (it answers `permission/request`). */
  canAsk: z.boolean(),
};

export const permissionStateSchema = o(permissionStateFields).describe("PermissionState: the mode and rules in force.");

/** `permission/request`'s answer, as a host gives it (permissions/types.ts reads it). */
export const permissionAnswerWireSchema = o({
  decision: z.enum(PERMISSION_DECISIONS),
  rules: z.array(z.string()).optional(),
  rule: z.string().optional(),
  message: z.string().max(20_000).optional(),
}).describe("PermissionAnswer: the host's answer to permission/request.");

/** `permission/request`'s params. */
export const permissionPromptSchema = o({
  callId: z.string().optional(),
  sessionId: z.string(),
  tool: z.string(),
  kind: checkKind,
  command: z.string().optional(),
  path: z.string().optional(),
  description: z.string().optional(),
  directory: z.string(),
  reason: z.string(),
  warnings: z.array(warningSchema),
  parts: z.array(partVerdictSchema),
  suggestedRules: z.array(z.string()),
  sandboxed: z.boolean().optional(),
  outsideSandboxReason: z.string().optional(),
  timeoutMs: z.number().int(),
}).describe("PermissionPrompt: what the person is asked to allow.");

export const permissionOutcomeSchema = o({
  allowed: z.boolean(),
  message: z.string(),
  decision: decisionSchema,
  asked: z.boolean(),
  answer: o({
    decision: z.enum(PERMISSION_DECISIONS),
    rules: z.array(z.string()).optional(),
    rule: z.string().optional(),
    message: z.string().optional(),
    failedClosed: z.string().optional(),
  }).optional(),
  rulesAdded: z.array(z.string()).optional(),
  rulesScope: z.enum(["host", "session"]).optional(),
});

export const helperStatusSchema = o({
  tool: z.enum(["ugrep", "bfs", "rg"]),
  state: z.enum(["active", "missing", "unusable"]),
  path: z.string().optional(),
  version: z.string().optional(),
  reason: z.string().optional(),
});

export const envStatusResultSchema = o({
  ...envStatusFields,
  searchHelpers: o({ platform: z.string(), tools: z.array(helperStatusSchema) }),
  sandbox: sandboxStatusSchema,
}).describe("EnvStatus with the search helpers and the sandbox.");

export const initializeParamsSchema = z.object({
  protocolVersion: z.string().optional(),
  hostInfo: z.object({ name: z.string(), version: z.string().optional() }).passthrough().optional(),
  workspaceRoot: z.string().min(1).optional(),
  additionalDirectories: z.array(z.string().min(1)).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  capabilities: z.object({ permissionRequests: z.boolean().optional() }).passthrough().optional(),
});

export const initializeResultSchema = o({
  protocolVersion: z.string(),
  serverInfo: o({ name: z.string(), version: z.string() }),
  capabilities: o({
    tools: o({ listChanged: z.boolean() }),
    cancellation: o({ method: z.string() }),
    sessions: z.boolean(),
    moveToBackground: z.boolean(),
    permissionRequests: z.boolean(),
    methods: z.array(z.string()),
  }),
  workspace: o({
    root: z.string(),
    additionalDirectories: z.array(z.string()),
    rejectedDirectories: z.array(o({ path: z.string(), reason: z.string() })),
  }),
  sessionId: z.string(),
  tools: z.array(listedToolSchema),
  agents: o({ url: z.string(), lockFile: z.string().nullable(), problem: z.string().optional() }).optional(),
});

export const shutdownResultSchema = z.null();

/** The notifications a host sends (the core accepts these; others are ignored). */
export const hostNotificationSchemas = {
  "$/cancelRequest": z.union([o({ id: z.union([z.string(), z.number()]) }), o({ callId: z.string() })]),
  initialized: z.object({}).passthrough().optional(),
  exit: z.object({}).passthrough().optional(),
};

/** The requests the core sends the host: params and the answer the core expects. */
export const coreRequestSchemas = {
  "permission/request": { params: permissionPromptSchema, result: permissionAnswerWireSchema },
};
