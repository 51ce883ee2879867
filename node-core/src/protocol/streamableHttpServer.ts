// The server side of MCP Streamable HTTP (2025-03-26 and later) for one session, on node:http
// directly. The SDK's transport converts every request to a web Request, answers through web
// streams and a Response converted back, at about 1.8 ms of CPU a request even for a ping: one
// listening core serving 16 agents spent most of its time there (their Reads were 4.7× slower
// than through 16 local cores). This speaks the same wire format with what node:http already
// has, and bounds the requests a session runs at once (protocol/requestGate.ts).
//
// POST: one JSON-RPC message or a batch. Notifications and responses only: 202. With requests:
// an event stream that carries the messages related to them (progress, elicitation) and their
// answers, ending after the last answer. GET: the session's one stream for everything else.
// DELETE: ends the session. Resumption (Last-Event-ID) is not offered: no event ids are sent.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isInitializeRequest, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { createLogger } from "../util/log.js";
import { messageJson } from "./preserialized.js";
import { DEFAULT_GATE_LIMITS, overloadedError, RequestGate, type GateLimits } from "./requestGate.js";

const log = createLogger("mcp-http");

/** The SDK's own bound on a batch. */
const MAX_BATCH = 100;
/** A comment on idle event streams, so proxies and clients do not time them out (the SDK's interval). */
const KEEP_ALIVE_MS = 15_000;

type Id = string | number;

interface RequestStream {
  res: ServerResponse;
  /** Requests of this POST not yet answered. */
  pending: Set<string>;
  keepAlive?: NodeJS.Timeout;
}

function key(id: Id): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

function isResponse(m: JSONRPCMessage): m is JSONRPCMessage & { id: Id } {
  return "id" in m && !("method" in m);
}

function isRequest(m: JSONRPCMessage): m is JSONRPCMessage & { id: Id; method: string } {
  return "id" in m && "method" in m;
}

function jsonError(res: ServerResponse, status: number, code: number, message: string, id: Id | null = null): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

const EVENT_STREAM_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" };

export interface StreamableHttpServerOptions {
  sessionIdGenerator: () => string;
  /** The session got its id (its initialize arrived); called before that request is delivered. */
  onsessioninitialized?: (sessionId: string) => void;
  limits?: GateLimits;
}

interface Delivery {
  message: JSONRPCMessage;
  extra: MessageExtraInfo;
}

export class StreamableHttpServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  sessionId?: string;

  private readonly streams = new Map<string, RequestStream>();
  private standalone?: ServerResponse;
  private standaloneKeepAlive?: NodeJS.Timeout;
  private closed = false;
  private readonly gate: RequestGate<Delivery>;

  constructor(private readonly opts: StreamableHttpServerOptions) {
    this.gate = new RequestGate((d) => this.deliver(d), opts.limits ?? DEFAULT_GATE_LIMITS);
  }

  async start(): Promise<void> {}

  /** One HTTP request of this session. `body` is the parsed JSON of a POST (read, size-checked and UTF-8-checked by the caller). */
  async handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    if (this.closed) return jsonError(res, 404, -32001, "Session not found");
    if (req.method === "POST") return this.post(req, res, body);
    if (req.method === "GET") return this.get(req, res);
    if (req.method === "DELETE") {
      if (!this.sessionValid(req, res)) return;
      res.writeHead(200, { "content-length": "0" }).end();
      await this.close();
      return;
    }
    res.setHeader("allow", "GET, POST, DELETE");
    jsonError(res, 405, -32000, "Method not allowed.");
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const accept = req.headers.accept ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return jsonError(res, 406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
    }
    if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
      return jsonError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    const raw = Array.isArray(body) ? body : [body];
    if (raw.length > MAX_BATCH) return jsonError(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
    const messages: JSONRPCMessage[] = [];
    for (const m of raw) {
      const checked = JSONRPCMessageSchema.safeParse(m);
      if (!checked.success) return jsonError(res, 400, -32700, "Parse error: Invalid JSON-RPC message");
      messages.push(checked.data);
    }
    const initializing = messages.some((m) => isInitializeRequest(m));
    if (initializing) {
      if (this.sessionId !== undefined) return jsonError(res, 400, -32600, "Invalid Request: Server already initialized");
      if (messages.length > 1) return jsonError(res, 400, -32600, "Invalid Request: Only one initialization request is allowed");
      this.sessionId = this.opts.sessionIdGenerator();
      this.opts.onsessioninitialized?.(this.sessionId);
    } else if (!this.sessionValid(req, res)) {
      return;
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      res.writeHead(202, { "content-length": "0" }).end();
      for (const m of messages) this.receiveOther(m, extra);
      return;
    }
    for (const r of requests) {
      if (this.streams.has(key(r.id))) return jsonError(res, 400, -32600, `Request id ${JSON.stringify(r.id)} is already in flight; ids must be unique.`, r.id);
    }
    res.writeHead(200, { ...EVENT_STREAM_HEADERS, ...(this.sessionId ? { "mcp-session-id": this.sessionId } : {}) });
    res.flushHeaders();
    const stream: RequestStream = { res, pending: new Set(requests.map((r) => key(r.id))) };
    for (const k of stream.pending) this.streams.set(k, stream);
    stream.keepAlive = setInterval(() => res.write(": keepalive\n\n"), KEEP_ALIVE_MS);
    stream.keepAlive.unref();
    // The client went away before the answers: they have nowhere to go.
    res.once("close", () => this.dropStream(stream));
    for (const m of messages) {
      if (!isRequest(m)) {
        this.receiveOther(m, extra);
        continue;
      }
      if (this.gate.offer(key(m.id), { message: m, extra }, 0) === "refused") {
        void this.send({ jsonrpc: "2.0", id: m.id, error: overloadedError(this.gate.limits) } as JSONRPCMessage);
      }
    }
  }

  /** A notification or a response from the client: delivered at once (a cancellation frees its request's place). */
  private receiveOther(m: JSONRPCMessage, extra: MessageExtraInfo): void {
    if ("method" in m && m.method === "notifications/cancelled") {
      const requestId = (m.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        if (this.gate.withdraw(key(requestId)) !== undefined) {
          // It never started, and gets no answer (MCP): its stream may end.
          this.answered(key(requestId));
          return;
        }
        this.gate.done(key(requestId));
      }
    }
    this.deliver({ message: m, extra });
  }

  private deliver(d: Delivery): void {
    try {
      this.onmessage?.(d.message, d.extra);
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? "").includes("text/event-stream")) return jsonError(res, 406, -32000, "Not Acceptable: Client must accept text/event-stream");
    if (!this.sessionValid(req, res)) return;
    if (this.standalone) return jsonError(res, 409, -32000, "Conflict: Only one SSE stream is allowed per session");
    res.writeHead(200, { ...EVENT_STREAM_HEADERS, ...(this.sessionId ? { "mcp-session-id": this.sessionId } : {}) });
    res.flushHeaders();
    this.standalone = res;
    this.standaloneKeepAlive = setInterval(() => res.write(": keepalive\n\n"), KEEP_ALIVE_MS);
    this.standaloneKeepAlive.unref();
    res.once("close", () => {
      if (this.standalone !== res) return;
      clearInterval(this.standaloneKeepAlive);
      this.standalone = undefined;
    });
  }

  private sessionValid(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.sessionId === undefined) {
      jsonError(res, 400, -32000, "Bad Request: Server not initialized");
      return false;
    }
    const header = req.headers["mcp-session-id"];
    const id = Array.isArray(header) ? header[0] : header;
    if (!id) {
      jsonError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
      return false;
    }
    if (id !== this.sessionId) {
      jsonError(res, 404, -32001, "Session not found");
      return false;
    }
    const version = req.headers["mcp-protocol-version"];
    if (typeof version === "string" && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      jsonError(res, 400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`);
      return false;
    }
    return true;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const related = isResponse(message) ? message.id : options?.relatedRequestId;
    const event = `event: message\ndata: ${messageJson(message)}\n\n`;
    if (related === undefined) {
      // Belongs to no request: the session's own stream, when the client holds one open.
      if (this.standalone && !this.standalone.writableEnded) this.standalone.write(event);
      return;
    }
    const k = key(related);
    const stream = this.streams.get(k);
    if (!stream) {
      // Its stream ended (the client left, or cancelled the request): nowhere to deliver it.
      if (isResponse(message)) this.gate.done(k);
      log.debug("dropped a message for a request whose stream has ended", { id: related });
      return;
    }
    if (!isResponse(message)) {
      stream.res.write(event);
      return;
    }
    // The request holds its place until its answer has left the core's memory.
    await new Promise<void>((resolve) => stream.res.write(event, () => resolve()));
    this.gate.done(k);
    this.answered(k);
  }

  /** A request of a stream is answered (or will never be): the stream ends after its last one. */
  private answered(k: string): void {
    const stream = this.streams.get(k);
    if (!stream) return;
    stream.pending.delete(k);
    this.streams.delete(k);
    if (stream.pending.size === 0) this.endStream(stream);
  }

  private endStream(stream: RequestStream): void {
    clearInterval(stream.keepAlive);
    for (const k of stream.pending) this.streams.delete(k);
    stream.pending.clear();
    if (!stream.res.writableEnded) stream.res.end();
  }

  /** The stream's connection closed: its requests run on (a cancellation may follow), their answers are dropped. */
  private dropStream(stream: RequestStream): void {
    clearInterval(stream.keepAlive);
    for (const k of stream.pending) {
      this.streams.delete(k);
      // One that never started never will.
      if (this.gate.withdraw(k) === undefined) continue;
    }
    stream.pending.clear();
  }

  /** Ends the event stream of a request (it was cancelled: no answer will come). */
  closeSSEStream(requestId: Id): void {
    const stream = this.streams.get(key(requestId));
    if (stream) this.endStream(stream);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.gate.clear();
    for (const stream of new Set(this.streams.values())) this.endStream(stream);
    this.streams.clear();
    clearInterval(this.standaloneKeepAlive);
    if (this.standalone && !this.standalone.writableEnded) this.standalone.end();
    this.standalone = undefined;
    this.onclose?.();
  }
}
