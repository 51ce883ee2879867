// The core's tools as a standard MCP server (official SDK). `wave-core mcp` serves one connection
// on stdio (the main session); `serve --listen` serves one per Streamable HTTP connection, each in
// its own session (mcpHttp.ts). Either way one MCP connection is one session.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  ErrorCode as McpErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";
import { DuplicateCallId, UnknownSession, type WaveCore } from "../core/runtime.js";
import type { Session } from "../base/session.js";
import { InvalidToolArguments, UnknownTool } from "../core/registry.js";
import { errorResult } from "../core/tool.js";
import { createLogger } from "../util/log.js";
import { CORE_VERSION, SERVER_NAME } from "./version.js";
import { elicitationAsker } from "./askers/elicitation.js";
import { formatTaskNotice, taskSummary } from "../tasks/notices.js";
import type { TaskInfo } from "../tasks/manager.js";
import type { PermissionAsker } from "../permissions/types.js";
import { LineTransport } from "./lineTransport.js";
import { serializeOnce } from "./preserialized.js";

const log = createLogger("mcp-server");

export const MCP_INSTRUCTIONS = "Wave Tools: Bash (with background tasks and TaskStop), Read, Edit, Write, Glob, Grep and run_shell_command. Read a file before editing it.";

export interface McpSessionServer {
  server: Server;
  /** Stops forwarding core events to this client. */
  detach(): void;
  /** The protocol version negotiated in the client's `initialize` (undefined before it). */
  readonly protocolVersion: string | undefined;
  /** Connects the server to a transport, watching the client's `initialize` for the version it negotiates. */
  connect(transport: Transport): Promise<void>;
}

export interface McpSessionOptions {
  /**
   * The channel for permission questions of this connection's calls. The default asks the MCP
   * client through elicitation when it supports it; an IDE host may take the questions instead.
   */
  asker?: (server: Server, requestId: string | number, protocolVersion: string | undefined) => PermissionAsker | undefined;
  /** Runs before each tool call starts (the HTTP endpoint announces the session first). */
  beforeCall?: () => void;
}

/** An SDK server whose tool calls run in `session`. Connect it to a transport. */
export function createMcpSessionServer(core: WaveCore, session: Session, opts: McpSessionOptions = {}): McpSessionServer {
  const server = new Server({ name: SERVER_NAME, version: CORE_VERSION }, { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: MCP_INSTRUCTIONS });
  const askerFor = opts.asker ?? ((s: Server, id: string | number, version: string | undefined) => elicitationAsker(s, id, version));
  let protocolVersion: string | undefined;

  server.setRequestHandler(ListToolsRequestSchema, async () => serializeOnce(core.registry.listResult()) as never);

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = request.params._meta?.progressToken;
    opts.beforeCall?.();
    try {
      const result = await core.callTool({
        name: request.params.name,
        arguments: request.params.arguments ?? {},
        sessionId: session.id,
        origin: "mcp",
        signal: extra.signal,
        asker: askerFor(server, extra.requestId, protocolVersion),
        onProgress:
          progressToken === undefined
            ? undefined
            : (update) => {
                void extra
                  .sendNotification({
                    method: "notifications/progress",
                    params: {
                      progressToken,
                      progress: update.progress ?? 0,
                      ...(update.total !== undefined ? { total: update.total } : {}),
                      ...(update.message !== undefined ? { message: update.message } : {}),
                    },
                  })
                  .catch((err: unknown) => log.debug("progress notification failed", { error: err }));
              },
      });
      return result as unknown as CallToolResult;
    } catch (err) {
      if (err instanceof UnknownTool) throw new McpError(McpErrorCode.InvalidParams, err.message, { available: err.available });
      if (err instanceof InvalidToolArguments || err instanceof DuplicateCallId || err instanceof UnknownSession) {
        // Argument problems go back to the model as a tool error it can read and correct.
        return errorResult("invalid_argument", err.message, err instanceof InvalidToolArguments ? { issues: err.issues } : {}) as unknown as CallToolResult;
      }
      throw err;
    }
  });

  const send = (level: LoggingLevel, logger: string, data: unknown) =>
    void server.sendLoggingMessage({ level, logger, data }).catch((err: unknown) => log.debug("log message not delivered", { error: err }));

  const detach = core.events.subscribe((method, params) => {
    if (params.sessionId !== undefined && params.sessionId !== session.id) return;
    // Permission decisions that were not plain allows (denied, asked, or allowed with warnings
    // in allow-all mode) reach the client, so nothing dangerous passes silently.
    if (method === "permission/decided") {
      send(params.outcome === "deny" ? "notice" : (params.warnings as unknown[]).length > 0 ? "warning" : "info", "permissions", params);
      return;
    }
    // A finished background task is announced at once, besides the notice on the next result:
    // an agent waiting for a server to die or a build to end need not poll.
    if (method === "task/finished") {
      const task = params.task as TaskInfo;
      if (task.sessionId !== session.id || params.stoppedBy === "agent" || params.stoppedBy === "session" || session.disposed) return;
      send(task.status === "completed" ? "info" : "notice", "tasks", { message: formatTaskNotice(task), ...taskSummary(task) });
    }
  });
  const connect = (transport: Transport): Promise<void> => {
    // The SDK keeps a handler set before connect() and calls it first for every message. The
    // version it answers is the client's when it supports it, else its latest (Server._oninitialize).
    transport.onmessage = (message: JSONRPCMessage) => {
      if ("method" in message && message.method === "initialize" && "id" in message) {
        const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        protocolVersion = typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
      }
    };
    return server.connect(transport);
  };
  return {
    server,
    detach,
    get protocolVersion() {
      return protocolVersion;
    },
    connect,
  };
}

export interface McpServerHandle {
  server: Server;
  /** Resolves when the connection has ended and the core has stopped what it started. */
  closed: Promise<void>;
}

/** `wave-core mcp`: one connection on stdio in the main session; its end stops the core. */
export async function startMcpServer(core: WaveCore, io: { stdin: Readable; stdout: Writable } = { stdin: process.stdin, stdout: process.stdout }): Promise<McpServerHandle> {
  const session = createMcpSessionServer(core, core.sessions.main);
  const { server, detach } = session;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const finish = () => {
    detach();
    void core.shutdown().then(resolveClosed);
  };
  // Our own framing (shared with `serve`): an oversized or malformed line is answered, not fatal.
  const transport = new LineTransport(io.stdin, io.stdout);
  transport.onclose = finish;
  server.onerror = (err) => log.debug("mcp transport error", { error: err });
  await session.connect(transport);
  // After connect, so a last line without a newline is read before the end stops the core.
  io.stdin.once("end", finish);
  io.stdin.once("close", finish);
  return { server, closed };
}
