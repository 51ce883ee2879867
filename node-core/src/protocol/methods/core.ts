// Host methods of the core itself: tool calls, sessions, workspace directories,
// settings and in-flight call control.
import { z } from "zod";
import { callToolResultSchema, clientInfoSchema, listedToolSchema } from "../wire.js";
import { isDirectory } from "../../util/files.js";
import { canonicalDir } from "../../util/paths.js";
import { osString } from "../../core/tool.js";
import { DEFAULT_FINISHED_RESULT_LIMITS } from "../../core/finishedResults.js";
import { defineHostMethod } from "../hostMethod.js";
import { ErrorCode, RpcError } from "../jsonrpc.js";
import { serializeOnce } from "../preserialized.js";

const sessionId = z.string().min(1).optional().describe("Session to act on; the main session when omitted.");

const toolsList = defineHostMethod({
  name: "tools/list",
  params: z.object({}).passthrough(),
  result: z.strictObject({ tools: z.array(listedToolSchema) }),
  handle: (_p, { core }) => serializeOnce(core.registry.listResult()),
});

const toolsCall = defineHostMethod({
  name: "tools/call",
  params: z.object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).optional(),
    sessionId,
    callId: z.string().min(1).max(200).optional(),
  }),
  result: callToolResultSchema,
  handle: (p, { core, signal, asker }) =>
    core.callTool({
      name: p.name,
      arguments: p.arguments ?? {},
      sessionId: p.sessionId,
      callId: p.callId,
      origin: "host",
      signal,
      asker,
    }),
});

const callsMoveToBackground = defineHostMethod({
  name: "calls/moveToBackground",
  params: z.object({ callId: z.string().min(1) }),
  result: z.union([z.strictObject({ moved: z.literal(true), taskId: z.string() }), z.strictObject({ moved: z.literal(false), reason: z.string() })]),
  handle: (p, { core }) => {
    const call = core.inFlightCalls().find((c) => c.callId === p.callId);
    if (!call) return { moved: false as const, reason: `No running call with id "${p.callId}".` };
    if (call.awaitingPermission) {
      return { moved: false as const, reason: `The ${call.name} call "${p.callId}" is waiting for permission; nothing runs yet. Answer the question first, then move it.` };
    }
    const taskId = core.moveToBackground(p.callId);
    return taskId ? { moved: true as const, taskId } : { moved: false as const, reason: `The ${call.name} call "${p.callId}" cannot be moved to the background.` };
  },
});

const callsResult = defineHostMethod({
  name: "calls/result",
  params: z.object({ callId: z.string().min(1).max(200) }),
  result: callToolResultSchema,
  handle: (p, { core }) => {
    const result = core.finishedResult(p.callId);
    if (result) return result;
    const { maxResults, maxBytes } = core.finishedResultLimits ?? DEFAULT_FINISHED_RESULT_LIMITS;
    const running = core.isRunning(p.callId);
    throw new RpcError(
      ErrorCode.ResultNotKept,
      running
        ? `The call "${p.callId}" is still running; its result is not there yet. Ask again after its tool/finished.`
        : `The result of call "${p.callId}" is no longer kept (or there was no such call). The core keeps the last ${maxResults} results of finished calls, at most ${formatMegabytes(maxBytes)}, and forgets a session's when it ends; show the summary from tool/finished instead.`,
      { callId: p.callId, running },
    );
  },
});

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

const callsList = defineHostMethod({
  name: "calls/list",
  params: z.object({ sessionId }),
  result: z.strictObject({
    calls: z.array(
      z.strictObject({
        callId: z.string(),
        sessionId: z.string(),
        name: z.string(),
        arguments: z.record(z.string(), z.unknown()),
        startedAt: z.string(),
        canMoveToBackground: z.boolean(),
        awaitingPermission: z.boolean(),
      }),
    ),
  }),
  handle: (p, { core }) => ({
    calls: core
      .inFlightCalls()
      .filter((c) => !p.sessionId || c.sessionId === p.sessionId)
      .map((c) => ({
        callId: c.callId,
        sessionId: c.sessionId,
        name: c.name,
        arguments: c.arguments,
        startedAt: new Date(c.startedAt).toISOString(),
        canMoveToBackground: c.moveToBackground !== undefined,
        awaitingPermission: c.awaitingPermission === true,
      })),
  }),
});

const sessionsCreate = defineHostMethod({
  name: "sessions/create",
  params: z.object({
    parentSessionId: z.string().min(1).optional(),
    cwd: osString("path").min(1).optional(),
    sessionId: z.string().min(1).max(100).optional(),
    // An MCP client whose calls the host relays (the IDE's own MCP server): the session is shown
    // like an attached agent's (session/opened, session/closed) and its results carry task notices.
    client: z.object({ name: z.string().min(1).max(200), version: z.string().max(200).optional() }).optional(),
  }),
  result: z.strictObject({ sessionId: z.string(), cwd: z.string() }),
  handle: (p, { core }) => {
    let s;
    try {
      s = core.sessions.create({ parentId: p.parentSessionId, cwd: p.cwd, id: p.sessionId });
    } catch (err) {
      throw new RpcError(ErrorCode.InvalidParams, (err as Error).message);
    }
    if (p.client) {
      const client = { name: p.client.name, ...(p.client.version ? { version: p.client.version } : {}) };
      s.client = client;
      s.relayedByHost = true;
      core.events.emit("session/opened", { sessionId: s.id, client, cwd: s.cwd, transport: "host" });
    }
    return { sessionId: s.id, cwd: s.cwd };
  },
});

const sessionsDispose = defineHostMethod({
  name: "sessions/dispose",
  params: z.object({ sessionId: z.string().min(1), reason: z.string().min(1).max(500).optional() }),
  result: z.strictObject({ disposed: z.literal(true) }),
  handle: async (p, { core }) => {
    if (p.sessionId === core.sessions.main.id) {
      throw new RpcError(ErrorCode.InvalidParams, "The main session lives as long as the core; use shutdown to end it.");
    }
    const session = core.sessions.get(p.sessionId);
    const disposed = await core.sessions.dispose(p.sessionId);
    if (!disposed) throw new RpcError(ErrorCode.InvalidParams, `Unknown session "${p.sessionId}".`);
    // A relayed client's session ends like an attached agent's connection (after session/disposed).
    if (session?.relayedByHost && session.client) {
      core.events.emit("session/closed", { sessionId: p.sessionId, client: session.client, reason: p.reason ?? "the host ended the session" });
    }
    return { disposed: true as const };
  },
});

const sessionsList = defineHostMethod({
  name: "sessions/list",
  params: z.object({}).passthrough(),
  result: z.strictObject({
    sessions: z.array(z.strictObject({ sessionId: z.string(), parentSessionId: z.string().optional(), cwd: z.string(), originalCwd: z.string(), client: clientInfoSchema.optional() })),
  }),
  handle: (_p, { core }) => ({
    sessions: core.sessions.list().map((s) => ({
      sessionId: s.id,
      parentSessionId: s.parent?.id,
      cwd: s.cwd,
      originalCwd: s.originalCwd,
      ...(s.client ? { client: s.client } : {}),
    })),
  }),
});

const workspaceAddDirectory = defineHostMethod({
  name: "workspace/addDirectory",
  params: z.object({ path: osString("path").min(1), sessionId }),
  result: z.strictObject({ directory: z.string(), sessionId: z.string().optional() }),
  handle: (p, { core }) => {
    try {
      if (p.sessionId) {
        const dir = core.session(p.sessionId).addDirectory(p.path);
        core.events.emit("workspace/directoriesChanged", {
          root: core.workspace.root,
          additionalDirectories: [...core.workspace.additionalDirectories],
          sessionId: p.sessionId,
        });
        return { directory: dir, sessionId: p.sessionId };
      }
      const dir = core.workspace.addDirectory(p.path);
      core.events.emit("workspace/directoriesChanged", {
        root: core.workspace.root,
        additionalDirectories: [...core.workspace.additionalDirectories],
      });
      return { directory: dir };
    } catch (err) {
      throw new RpcError(ErrorCode.InvalidParams, (err as Error).message);
    }
  },
});

const settingsUpdate = defineHostMethod({
  name: "settings/update",
  params: z.object({ settings: z.record(z.string(), z.unknown()) }),
  result: z.strictObject({ settings: z.record(z.string(), z.unknown()) }),
  handle: (p, { core }) => {
    core.workspace.updateSettings(p.settings);
    return { settings: core.workspace.settings.asGiven() };
  },
});

export function checkRoot(root: string): string {
  const dir = canonicalDir(root);
  if (!isDirectory(dir)) {
    throw new RpcError(ErrorCode.InvalidParams, `workspaceRoot is not an existing directory: ${dir}.`, { field: "workspaceRoot" });
  }
  return dir;
}

export const coreMethods = [toolsList, toolsCall, callsMoveToBackground, callsResult, callsList, sessionsCreate, sessionsDispose, sessionsList, workspaceAddDirectory, settingsUpdate];
