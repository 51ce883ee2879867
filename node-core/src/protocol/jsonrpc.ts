// JSON-RPC 2.0 over newline-delimited UTF-8 JSON: message types, error codes, framing and a
// bidirectional peer (the core answers the host's requests and may send requests of its own,
// e.g. permission questions).
import { createLogger } from "../util/log.js";

const log = createLogger("jsonrpc");

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: unknown;
}
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
}
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  result?: unknown;
  error?: JsonRpcErrorObject;
}

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The request came after `shutdown`. */
  ShuttingDown: -32001,
  /** `initialize` was sent twice. */
  AlreadyInitialized: -32002,
  /** A tool call or a request to the host was cancelled before it produced a result. */
  RequestCancelled: -32800,
  /** The other side did not answer a request of ours in time. */
  RequestTimeout: -32801,
} as const;

/** Throw from a method handler to answer with this JSON-RPC error. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type FrameEvent = { kind: "line"; text: string } | { kind: "oversized"; bytes: number };

/**
 * Splits a byte stream into lines. A line longer than `maxBytes` is never held in memory: once the
 * cap is crossed its bytes are dropped as they arrive and a single `oversized` event is emitted
 * when its newline (or the end of input) is reached.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  private skippedBytes = 0;

  constructor(
    private readonly onEvent: (event: FrameEvent) => void,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      this.append(chunk.subarray(start, end));
      if (nl === -1) return;
      this.finishLine();
      start = nl + 1;
    }
  }

  /** End of input: a final line without a newline still counts. */
  end(): void {
    if (this.pendingBytes > 0 || this.skipping) this.finishLine();
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipping) {
      this.skippedBytes += part.length;
      return;
    }
    if (this.pendingBytes + part.length > this.maxBytes) {
      this.skipping = true;
      this.skippedBytes = this.pendingBytes + part.length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // Copy: the caller's chunk buffer may be reused by the stream.
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  private finishLine(): void {
    if (this.skipping) {
      const bytes = this.skippedBytes;
      this.skipping = false;
      this.skippedBytes = 0;
      this.onEvent({ kind: "oversized", bytes });
      return;
    }
    let text = (this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending)).toString("utf8");
    this.pending = [];
    this.pendingBytes = 0;
    if (text.endsWith("\r")) text = text.slice(0, -1);
    this.onEvent({ kind: "line", text });
  }
}

export type IncomingMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  | { kind: "invalid"; id: JsonRpcId | null; error: JsonRpcErrorObject };

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Classifies one line. Never throws. */
export function parseMessage(text: string): IncomingMessage | null {
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      kind: "invalid",
      id: null,
      error: {
        code: ErrorCode.ParseError,
        message: `Parse error: the line is not valid JSON (${(err as Error).message}). Send one JSON-RPC 2.0 object per line.`,
      },
    };
  }
  if (Array.isArray(value)) {
    return {
      kind: "invalid",
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: "Batch requests are not supported: send one JSON-RPC object per line." },
    };
  }
  if (value === null || typeof value !== "object") {
    return {
      kind: "invalid",
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: "Invalid request: expected a JSON-RPC 2.0 object." },
    };
  }
  const msg = value as Record<string, unknown>;
  const id = isId(msg.id) ? msg.id : null;
  if (msg.jsonrpc !== "2.0") {
    return {
      kind: "invalid",
      id,
      error: { code: ErrorCode.InvalidRequest, message: 'Invalid request: the "jsonrpc" member must be exactly "2.0".' },
    };
  }
  if (typeof msg.method === "string") {
    if (msg.params !== undefined && (msg.params === null || typeof msg.params !== "object")) {
      return {
        kind: "invalid",
        id,
        error: { code: ErrorCode.InvalidRequest, message: 'Invalid request: "params" must be an object or an array when present.' },
      };
    }
    if ("id" in msg && msg.id !== undefined) {
      if (!isId(msg.id)) {
        return {
          kind: "invalid",
          id: null,
          error: { code: ErrorCode.InvalidRequest, message: 'Invalid request: "id" must be a string or a number.' },
        };
      }
      return { kind: "request", message: { jsonrpc: "2.0", id: msg.id, method: msg.method, params: msg.params } };
    }
    return { kind: "notification", message: { jsonrpc: "2.0", method: msg.method, params: msg.params } };
  }
  if ("result" in msg || "error" in msg) {
    return { kind: "response", message: msg as unknown as JsonRpcResponse };
  }
  return {
    kind: "invalid",
    id,
    error: { code: ErrorCode.InvalidRequest, message: 'Invalid request: a "method" string is required.' },
  };
}

export interface RequestContext {
  id: JsonRpcId;
  method: string;
  /** Aborted when the peer cancels this request or the connection ends. */
  signal: AbortSignal;
}

export type RequestHandler = (method: string, params: unknown, ctx: RequestContext) => Promise<unknown>;
export type NotificationHandler = (method: string, params: unknown) => void;

interface PendingOutgoing {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer?: NodeJS.Timeout;
}

/**
 * One end of a JSON-RPC connection over a byte stream pair. Incoming requests are handled
 * concurrently; each gets an AbortSignal that `$/cancelRequest` or the connection's end aborts.
 */
export class JsonRpcPeer {
  private readonly splitter: LineSplitter;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly outgoing = new Map<string, PendingOutgoing>();
  private nextOutgoingId = 1;
  private closed = false;

  constructor(
    private readonly write: (line: string) => void,
    private readonly handlers: { request: RequestHandler; notification: NotificationHandler },
    maxLineBytes = MAX_LINE_BYTES,
  ) {
    this.splitter = new LineSplitter((ev) => this.onFrame(ev), maxLineBytes);
  }

  /** Feed bytes read from the transport. */
  push(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  /** The transport ended: abort everything in flight. */
  end(): void {
    this.splitter.end();
    if (this.closed) return;
    this.closed = true;
    for (const ctrl of this.inFlight.values()) ctrl.abort(new Error("connection closed"));
    for (const [key, pending] of this.outgoing) {
      if (pending.timer) clearTimeout(pending.timer);
      pending.reject(new RpcError(ErrorCode.RequestCancelled, "The connection closed before the host answered."));
      this.outgoing.delete(key);
    }
  }

  /** Resolves once no incoming request is being handled (or after `timeoutMs`). */
  whenIdle(timeoutMs: number): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.idleWaiters.delete(done);
        resolve();
      }
      this.idleWaiters.add(done);
    });
  }

  private readonly idleWaiters = new Set<() => void>();

  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Sends a request to the other side and waits for its answer. */
  request(method: string, params: unknown, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new RpcError(ErrorCode.RequestCancelled, "The connection is closed."));
    const id = `core-${this.nextOutgoingId++}`;
    const key = keyOf(id);
    return new Promise((resolve, reject) => {
      const pending: PendingOutgoing = { resolve, reject };
      const settle = () => {
        this.outgoing.delete(key);
        if (pending.timer) clearTimeout(pending.timer);
        opts.signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        settle();
        this.notify("$/cancelRequest", { id });
        reject(new RpcError(ErrorCode.RequestCancelled, `Request ${method} was cancelled.`));
      };
      pending.resolve = (v) => {
        settle();
        resolve(v);
      };
      pending.reject = (e) => {
        settle();
        reject(e);
      };
      if (opts.timeoutMs !== undefined) {
        pending.timer = setTimeout(() => {
          settle();
          // Nobody waits for the answer any more: let the other side drop the request too.
          this.notify("$/cancelRequest", { id });
          reject(new RpcError(ErrorCode.RequestTimeout, `The host did not answer ${method} within ${opts.timeoutMs} ms.`));
        }, opts.timeoutMs);
      }
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      this.outgoing.set(key, pending);
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Aborts the handler of an incoming request (used by `$/cancelRequest`). */
  cancelIncoming(id: JsonRpcId, reason = "cancelled by the client"): boolean {
    const ctrl = this.inFlight.get(keyOf(id));
    if (!ctrl) return false;
    ctrl.abort(new Error(reason));
    return true;
  }

  private send(message: object): void {
    if (this.closed && !("id" in message)) return;
    let line: string;
    try {
      line = JSON.stringify(message);
    } catch (err) {
      log.error("could not serialise an outgoing message", { error: err });
      const id = (message as { id?: JsonRpcId }).id ?? null;
      line = JSON.stringify({
        jsonrpc: "2.0",
        id,
        error: { code: ErrorCode.InternalError, message: "Internal error: the result could not be serialised." },
      });
    }
    try {
      this.write(line);
    } catch (err) {
      log.warn("could not write to the transport", { error: err });
    }
  }

  private onFrame(event: FrameEvent): void {
    if (event.kind === "oversized") {
      this.send({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: ErrorCode.InvalidRequest,
          message: `Message too large: a line of ${event.bytes} bytes exceeds the ${MAX_LINE_BYTES / (1024 * 1024)} MiB limit and was discarded. Pass large content by file path instead.`,
        },
      });
      return;
    }
    const parsed = parseMessage(event.text);
    if (!parsed) return;
    switch (parsed.kind) {
      case "invalid":
        this.send({ jsonrpc: "2.0", id: parsed.id, error: parsed.error });
        return;
      case "response":
        this.onResponse(parsed.message);
        return;
      case "notification":
        try {
          this.handlers.notification(parsed.message.method, parsed.message.params);
        } catch (err) {
          log.error("notification handler failed", { method: parsed.message.method, error: err });
        }
        return;
      case "request":
        void this.onRequest(parsed.message);
        return;
    }
  }

  private onResponse(message: JsonRpcResponse): void {
    const key = message.id === null ? "" : keyOf(message.id);
    const pending = this.outgoing.get(key);
    if (!pending) {
      log.debug("dropping a response to an unknown request", { id: message.id });
      return;
    }
    if (message.error) {
      const e = message.error;
      pending.reject(new RpcError(typeof e.code === "number" ? e.code : ErrorCode.InternalError, String(e.message), e.data));
    } else {
      pending.resolve(message.result);
    }
  }

  private async onRequest(message: JsonRpcRequest): Promise<void> {
    const key = keyOf(message.id);
    if (this.inFlight.has(key)) {
      this.send({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: ErrorCode.InvalidRequest, message: `Request id ${JSON.stringify(message.id)} is already in flight; ids must be unique.` },
      });
      return;
    }
    const ctrl = new AbortController();
    this.inFlight.set(key, ctrl);
    try {
      const result = await this.handlers.request(message.method, message.params ?? {}, {
        id: message.id,
        method: message.method,
        signal: ctrl.signal,
      });
      this.send({ jsonrpc: "2.0", id: message.id, result: result ?? null });
    } catch (err) {
      let error: JsonRpcErrorObject;
      if (err instanceof RpcError) error = err.toJSON();
      else if (ctrl.signal.aborted) error = { code: ErrorCode.RequestCancelled, message: `${message.method} was cancelled.` };
      else {
        error = { code: ErrorCode.InternalError, message: `Internal error in ${message.method}: ${(err as Error)?.message ?? String(err)}` };
        log.error("request handler failed", { method: message.method, error: err });
      }
      this.send({ jsonrpc: "2.0", id: message.id, error });
    } finally {
      this.inFlight.delete(key);
      if (this.inFlight.size === 0) for (const w of [...this.idleWaiters]) w();
    }
  }
}

function keyOf(id: JsonRpcId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}
