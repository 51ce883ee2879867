// `wave-core mcp`: the same tools as a standard MCP server over stdio (official SDK). One MCP
// connection is one session; closing stdin stops everything it started.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";
import { DuplicateCallId, UnknownSession, type WaveCore } from "../core/runtime.js";
import { InvalidToolArguments, UnknownTool } from "../core/registry.js";
import { createLogger } from "../util/log.js";
import { CORE_VERSION, SERVER_NAME } from "./version.js";
import { elicitationAsker } from "./askers/elicitation.js";
import { LineTransport } from "./lineTransport.js";

const log = createLogger("mcp-server");

export interface McpServerHandle {
  server: Server;
  /** Resolves when the connection has ended and the core has stopped what it started. */
  closed: Promise<void>;
}

export async function startMcpServer(
  core: WaveCore,
  io: { stdin: Readable; stdout: Writable } = { stdin: process.stdin, stdout: process.stdout },
): Promise<McpServerHandle> {
  const server = new Server(
    { name: SERVER_NAME, version: CORE_VERSION },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions:
        "Wave Tools: Bash (with background tasks and TaskStop), Read, Edit, Write, Glob, Grep and run_shell_command. Read a file before editing it.",
    },
  );
  const session = core.sessions.main;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: core.registry.list() as never }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = request.params._meta?.progressToken;
    try {
      const result = await core.callTool({
        name: request.params.name,
        arguments: request.params.arguments ?? {},
        sessionId: session.id,
        origin: "mcp",
        signal: extra.signal,
        asker: elicitationAsker(server, extra.requestId),
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
        return {
          content: [{ type: "text", text: err.message }],
          structuredContent: { error: err.message, ...(err instanceof InvalidToolArguments ? { issues: err.issues } : {}) },
          isError: true,
        };
      }
      throw err;
    }
  });

  // Permission decisions that were not plain allows (denied, asked, or allowed with warnings in
  // allow-all mode) reach the client as log messages, so nothing dangerous passes silently.
  const unsubscribe = core.events.subscribe((method, params) => {
    if (method !== "permission/decided") return;
    const level = params.outcome === "deny" ? "notice" : (params.warnings as unknown[]).length > 0 ? "warning" : "info";
    void server.sendLoggingMessage({ level, logger: "permissions", data: params }).catch(() => {});
  });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const finish = () => {
    unsubscribe();
    void core.shutdown().then(resolveClosed);
  };
  // Our own framing (shared with `serve`): an oversized or malformed line is answered, not fatal.
  const transport = new LineTransport(io.stdin, io.stdout);
  transport.onclose = finish;
  server.onerror = (err) => log.debug("mcp transport error", { error: err });
  await server.connect(transport);
  // After connect, so a last line without a newline is read before the end stops the core.
  io.stdin.once("end", finish);
  io.stdin.once("close", finish);
  return { server, closed };
}
