// Host methods of the core itself: tool calls, sessions, workspace directories,
// settings and in-flight call control.
import { z } from "zod";
import { isDirectory } from "../../util/files.js";
import { canonicalDir } from "../../util/paths.js";
import { osString } from "../../core/tool.js";
import { defineHostMethod } from "../hostMethod.js";
import { ErrorCode, RpcError } from "../jsonrpc.js";

const sessionId = z.string().min(1).optional().describe("Session to act on; the main session when omitted.");

const toolsList = defineHostMethod({
  name: "tools/list",
  params: z.object({}).passthrough(),
  handle: (_p, { core }) => ({ tools: core.registry.list() }),
});

const toolsCall = defineHostMethod({
  name: "tools/call",
  params: z.object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).optional(),
    sessionId,
    callId: z.string().min(1).max(200).optional(),
  }),
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
  handle: (p, { core }) => {
    const call = core.inFlightCalls().find((c) => c.callId === p.callId);
    if (!call) return { moved: false, reason: `No running call with id "${p.callId}".` };
    if (call.awaitingPermission) {
      return { moved: false, reason: `The ${call.name} call "${p.callId}" is waiting for permission; nothing runs yet. Answer the question first, then move it.` };
    }
    const taskId = core.moveToBackground(p.callId);
    return taskId
      ? { moved: true, taskId }
      : { moved: false, reason: `The ${call.name} call "${p.callId}" cannot be moved to the background.` };
  },
});

const callsList = defineHostMethod({
  name: "calls/list",
  params: z.object({ sessionId }),
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
  }),
  handle: (p, { core }) => {
    try {
      const s = core.sessions.create({ parentId: p.parentSessionId, cwd: p.cwd, id: p.sessionId });
      return { sessionId: s.id, cwd: s.cwd };
    } catch (err) {
      throw new RpcError(ErrorCode.InvalidParams, (err as Error).message);
    }
  },
});

const sessionsDispose = defineHostMethod({
  name: "sessions/dispose",
  params: z.object({ sessionId: z.string().min(1) }),
  handle: async (p, { core }) => {
    if (p.sessionId === core.sessions.main.id) {
      throw new RpcError(ErrorCode.InvalidParams, "The main session lives as long as the core; use shutdown to end it.");
    }
    const disposed = await core.sessions.dispose(p.sessionId);
    if (!disposed) throw new RpcError(ErrorCode.InvalidParams, `Unknown session "${p.sessionId}".`);
    return { disposed: true };
  },
});

const sessionsList = defineHostMethod({
  name: "sessions/list",
  params: z.object({}).passthrough(),
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

export const coreMethods = [
  toolsList,
  toolsCall,
  callsMoveToBackground,
  callsList,
  sessionsCreate,
  sessionsDispose,
  sessionsList,
  workspaceAddDirectory,
  settingsUpdate,
];
