// `serve --listen`: the core's tools over MCP Streamable HTTP (our own server transport,
// streamableHttpServer.ts, under the official SDK's server) at /mcp on a loopback address, beside
// the host protocol on stdio. Every request passes the guards first (Host, Origin, bearer token); each MCP connection (Mcp-Session-Id) gets
// its own SDK server and its own core session, which ends with the connection.
import { randomBytes, randomUUID } from "node:crypto";
import { isUtf8 } from "node:buffer";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHttpServerTransport } from "./streamableHttpServer.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { WaveCore } from "../core/runtime.js";
import type { Session } from "../base/session.js";
import { canonicalDir, isWithin } from "../util/paths.js";
import { isDirectory } from "../util/files.js";
import { createLogger } from "../util/log.js";
import { badUtf8, notUtf8Error, requestIdOfLine } from "./jsonrpc.js";
import { createMcpSessionServer, type McpSessionOptions, type McpSessionServer } from "./mcpServer.js";
import { allowedHostHeaders, bearerMatches, hostHeaderAllowed, originAllowed } from "./mcpHttpGuards.js";

const log = createLogger("mcp-http");

export const MCP_PATH = "/mcp";
/** The largest JSON-RPC message accepted in one POST (the host protocol's line limit). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
/**
 * How long a connection whose event stream (GET) closed may stay without opening a new one
 * before it counts as gone. The SDK client reconnects after 1 s; an agent that exited never does.
 */
export const STREAM_GONE_GRACE_MS = 3000;
/** How an MCP client that did not name itself in `initialize` is shown. */
export const UNKNOWN_CLIENT = "unknown MCP client";

/** The header `mcp --attach` uses to tell the core the agent's working directory. */
export const CLIENT_CWD_HEADER = "wave-client-cwd";

export interface McpConnection {
  /** The transport's Mcp-Session-Id. */
  readonly id: string;
  /** Its session; `session.client` names the agent once it has initialized. */
  readonly session: Session;
}

export interface McpEndpointOptions {
  core: WaveCore;
  host: string;
  port: number;
  /** Defaults to a fresh random 256-bit token. */
  token?: string;
  maxBodyBytes?: number;
  streamGoneGraceMs?: number;
  /** Per-connection options (who answers permission questions). */
  sessionOptions?: (connection: McpConnection) => Omit<McpSessionOptions, "beforeCall">;
  /** The client sent `initialized` (its name and version are known). */
  onOpened?: (connection: McpConnection) => void;
  /** The connection ended and its session was disposed. */
  onClosed?: (connection: McpConnection, reason: string) => void;
}

export interface McpEndpoint {
  readonly url: string;
  readonly token: string;
  /** Ends every connection (and its session), then stops listening. */
  close(): Promise<void>;
}

interface Live extends McpConnection {
  transport: StreamableHttpServerTransport;
  mcp: McpSessionServer;
  openStreams: number;
  graceTimer?: NodeJS.Timeout;
  opened: boolean;
  closing?: Promise<void>;
}

function reply(res: ServerResponse, status: number, body?: { code: number; message: string }, id: string | number | null = null): void {
  if (res.headersSent) return;
  if (!body) {
    res.writeHead(status, { "content-length": "0" }).end();
    return;
  }
  const text = JSON.stringify({ jsonrpc: "2.0", error: body, id });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}

type Body = { ok: true; parsed: unknown } | { ok: false; status: number; code: number; message: string; id: string | number | null };

/**
 * A POST's body, read here rather than by the SDK (which decodes bad UTF-8 as U+FFFD and runs the
 * request): at most `maxBytes`, UTF-8, JSON. A refusal names the request's id when it can be read.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Body> {
  const tooLarge: Body = { ok: false, status: 413, code: -32000, message: `Payload Too Large: Request body must not exceed ${maxBytes} bytes.`, id: null };
  if (Number(req.headers["content-length"]) > maxBytes) return Promise.resolve(tooLarge);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners("data");
        req.resume();
        return resolve(tooLarge);
      }
      chunks.push(chunk);
    });
    req.on("error", reject);
    req.on("end", () => {
      if (size > maxBytes) return;
      const bytes = Buffer.concat(chunks);
      // The SDK's node adapter takes the body from here instead of reading the consumed stream.
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = bytes;
      const text = bytes.toString("utf8");
      const idOf = () => requestIdOfLine(text.slice(0, 4096), text.slice(-4096));
      if (!isUtf8(bytes)) return resolve({ ok: false, status: 400, ...notUtf8Error({ bytes: bytes.length, ...badUtf8(bytes) }), id: idOf() });
      try {
        resolve({ ok: true, parsed: JSON.parse(text) });
      } catch (err) {
        resolve({ ok: false, status: 400, code: -32700, message: `Parse error: the body is not valid JSON (${(err as Error).message}).`, id: idOf() });
      }
    });
  });
}

export async function startMcpEndpoint(opts: McpEndpointOptions): Promise<McpEndpoint> {
  const { core } = opts;
  const token = opts.token ?? randomBytes(32).toString("hex");
  const graceMs = opts.streamGoneGraceMs ?? STREAM_GONE_GRACE_MS;
  const maxBodyBytes = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const live = new Map<string, Live>();
  let allowedHosts = new Set<string>();
  let stopping = false;

  const closeConnection = (conn: Live, reason: string): Promise<void> => {
    conn.closing ??= (async () => {
      clearTimeout(conn.graceTimer);
      live.delete(conn.id);
      conn.mcp.detach();
      await conn.mcp.server.close().catch(() => {});
      await core.sessions.dispose(conn.session.id);
      log.info("MCP client disconnected", { client: conn.session.client?.name, session: conn.session.id, reason });
      opts.onClosed?.(conn, reason);
    })();
    return conn.closing;
  };

  const markOpened = (conn: Live) => {
    if (conn.opened) return;
    conn.opened = true;
    const info = conn.mcp.server.getClientVersion();
    conn.session.client = info ? { name: info.name, ...(info.version ? { version: info.version } : {}) } : { name: UNKNOWN_CLIENT };
    log.info("MCP client connected", { client: conn.session.client.name, version: conn.session.client.version, session: conn.session.id });
    opts.onOpened?.(conn);
  };

  const sessionCwd = (req: IncomingMessage): string | undefined => {
    const raw = req.headers[CLIENT_CWD_HEADER];
    if (typeof raw !== "string") return undefined;
    let dir: string;
    try {
      dir = canonicalDir(decodeURIComponent(raw), core.workspace.root);
    } catch {
      return undefined;
    }
    // The agent's directory is where its commands start, if the workspace allows it.
    return isDirectory(dir) && core.workspace.allowedDirectories().some((d) => isWithin(dir, d)) ? dir : undefined;
  };

  /** A POST without a session id: a new connection, if it is an `initialize`. */
  const openConnection = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    let conn: Live | undefined;
    const cwd = sessionCwd(req);
    const transport = new StreamableHttpServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const session = core.sessions.create({ id: `mcp-${randomBytes(4).toString("hex")}`, ...(cwd ? { cwd } : {}) });
        const partial = { id, session } as Live;
        partial.transport = transport;
        partial.openStreams = 0;
        partial.opened = false;
        partial.mcp = createMcpSessionServer(core, session, { ...opts.sessionOptions?.(partial), beforeCall: () => markOpened(partial) });
        conn = partial;
        live.set(id, conn);
        const c = conn;
        c.mcp.server.oninitialized = () => markOpened(c);
        c.mcp.server.onclose = () => void closeConnection(c, "the agent disconnected");
        c.mcp.server.onerror = (err) => log.debug("MCP transport error", { session: c.session.id, error: err });
        // connect() is synchronous up to its first await; the initialize message is delivered after.
        void c.mcp.connect(transport).then(() => forwardCancellations(transport));
      },
    });
    await transport.handleRequest(req, res, body);
    // Anything but an initialize (which creates the connection) was answered with an error.
    if (!conn) await transport.close().catch(() => {});
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostHeaderAllowed(req.headers.host, allowedHosts)) {
      // DNS rebinding: a page on another name that resolves to 127.0.0.1.
      return reply(res, 421, { code: -32000, message: "Misdirected request: this endpoint answers only requests addressed to its loopback address." });
    }
    if (!originAllowed(req.headers.origin)) {
      return reply(res, 403, { code: -32000, message: "Forbidden: requests from web pages are refused." });
    }
    if (!bearerMatches(req.headers.authorization, token)) return reply(res, 401);
    const pathname = (req.url ?? "/").split("?")[0];
    if (pathname !== MCP_PATH) return reply(res, 404, { code: -32000, message: `Not found: the MCP endpoint is ${MCP_PATH}.` });
    if (stopping) return reply(res, 503, { code: -32001, message: "The core is shutting down." });

    const sessionHeader = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, maxBodyBytes);
      if (!read.ok) return reply(res, read.status, { code: read.code, message: read.message }, read.id);
      body = read.parsed;
    }
    if (sessionId === undefined) {
      if (req.method === "POST") return openConnection(req, res, body);
      return reply(res, 400, { code: -32000, message: "Bad request: send initialize first; every later request needs its Mcp-Session-Id header." });
    }
    const conn = live.get(sessionId);
    if (!conn) return reply(res, 404, { code: -32001, message: "Session not found: it ended (or the core restarted). Send initialize again." });
    if (req.method === "GET") watchStream(conn, res);
    await conn.transport.handleRequest(req, res, body);
  };

  /** The client's event stream: while none is open the client may be gone (see STREAM_GONE_GRACE_MS). */
  const watchStream = (conn: Live, res: ServerResponse) => {
    conn.openStreams++;
    clearTimeout(conn.graceTimer);
    conn.graceTimer = undefined;
    res.once("close", () => {
      conn.openStreams--;
      if (conn.openStreams > 0 || conn.closing) return;
      conn.graceTimer = setTimeout(() => void closeConnection(conn, "the agent went away (its event stream closed and was not reopened)"), graceMs);
      conn.graceTimer.unref();
    });
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error("MCP request failed", { error: err });
      reply(res, 500, { code: -32603, message: `Internal error in wave-core: ${(err as Error)?.message ?? String(err)}` });
    });
  });
  // Streams stay open for as long as a call runs; only idle sockets are timed out.
  http.requestTimeout = 0;
  http.headersTimeout = 30_000;
  // An idle connection is closed only long after any client gave it up: closing one just as a
  // client sends on it resets that request (the relay retries such a request, but need not).
  http.keepAliveTimeout = 60_000;
  http.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    // A client that went away (ECONNRESET, EPIPE) is routine; anything else is worth a look.
    if (err.code === "ECONNRESET" || err.code === "EPIPE") log.debug("an MCP client's connection ended abruptly", { code: err.code });
    else log.warn("an MCP client sent something that is not HTTP", { code: err.code, error: err.message });
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen({ host: opts.host, port: opts.port, exclusive: true }, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  allowedHosts = allowedHostHeaders(opts.host, address.port);
  const hostPart = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  const url = `http://${hostPart}:${address.port}${MCP_PATH}`;
  log.info("MCP endpoint listening", { url });

  return {
    url,
    token,
    close: async () => {
      stopping = true;
      await Promise.all([...live.values()].map((c) => closeConnection(c, "the core is shutting down")));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections?.();
      });
    },
  };
}

/**
 * A cancelled request gets no response (MCP), so its event stream would stay open until the
 * connection ends. Close it as soon as the cancellation arrives.
 */
function forwardCancellations(transport: StreamableHttpServerTransport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra?) => {
    deliver?.(message, extra);
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      const requestId = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (requestId !== undefined) setImmediate(() => transport.closeSSEStream(requestId));
    }
  };
}
