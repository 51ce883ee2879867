// JSON-RPC 2.0 over newline-delimited UTF-8 JSON: message types, error codes, framing and a
// bidirectional peer (the core answers the host's requests and may send requests of its own,
// e.g. permission questions).
import { isAscii, isUtf8 } from "node:buffer";
import { createLogger } from "../util/log.js";
import { firstInvalidUtf8, utf8Text } from "../util/text.js";
import { messageJson } from "./preserialized.js";
import { DEFAULT_GATE_LIMITS, overloadedError, RequestGate, type GateLimits } from "./requestGate.js";

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
  /** `calls/result` for a call whose result is not kept (unknown, still running, or dropped). */
  ResultNotKept: -32003,
  /** A tool call or a request to the host was cancelled before it produced a result. */
  RequestCancelled: -32800,
  /** The other side did not answer a request of ours in time. */
  RequestTimeout: -32801,
  /** Too many requests at once on the connection: this one was refused, not run (protocol/requestGate.ts). */
  Overloaded: -32004,
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
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** How much of each end of an oversized line is kept: enough to find the id of the request it carried. */
const OVERSIZED_END_BYTES = 4096;

export type FrameEvent =
  | { kind: "line"; text: string }
  | { kind: "oversized"; bytes: number; head: string; tail: string }
  /** A line that is not UTF-8: `offset` is its first bad byte, `sample` those bytes in hex. */
  | { kind: "notUtf8"; bytes: number; offset: number; sample: string; head: string; tail: string };

/** A line the framing could not read (too long, not UTF-8): answered, never handled. */
export type UnreadableLine = Exclude<FrameEvent, { kind: "line" }>;

/**
 * Splits a byte stream into lines. A line longer than `maxBytes` is never held in memory: once the
 * cap is crossed its bytes are dropped as they arrive (only a few KiB at each end are kept) and a
 * single `oversized` event is emitted when its newline (or the end of input) is reached.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  private skippedBytes = 0;
  private head = "";
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly onEvent: (event: FrameEvent) => void,
    readonly maxBytes = MAX_LINE_BYTES,
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
      this.keepTail(part);
      return;
    }
    if (this.pendingBytes + part.length > this.maxBytes) {
      this.skipping = true;
      this.skippedBytes = this.pendingBytes + part.length;
      const parts = [...this.pending, part];
      const headParts: Buffer[] = [];
      for (let n = 0, k = 0; n < OVERSIZED_END_BYTES && k < parts.length; n += parts[k]!.length, k++) headParts.push(parts[k]!);
      this.head = Buffer.concat(headParts).subarray(0, OVERSIZED_END_BYTES).toString("utf8");
      this.tail = Buffer.alloc(0);
      for (const p of parts) this.keepTail(p);
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // Copy: the caller's chunk buffer may be reused by the stream.
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  private keepTail(part: Buffer): void {
    const last = part.subarray(Math.max(0, part.length - OVERSIZED_END_BYTES));
    const keep = Buffer.concat([this.tail, last]);
    this.tail = keep.subarray(Math.max(0, keep.length - OVERSIZED_END_BYTES));
  }

  private finishLine(): void {
    if (this.skipping) {
      const event: FrameEvent = { kind: "oversized", bytes: this.skippedBytes, head: this.head, tail: this.tail.toString("utf8") };
      this.skipping = false;
      this.skippedBytes = 0;
      this.head = "";
      this.tail = Buffer.alloc(0);
      this.onEvent(event);
      return;
    }
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    // Decoding would turn bad bytes into U+FFFD and run a request the client never sent.
    if (!isAscii(bytes) && !isUtf8(bytes)) {
      const { offset, sample } = badUtf8(bytes);
      const head = bytes.subarray(0, OVERSIZED_END_BYTES).toString("utf8");
      const tail = bytes.subarray(Math.max(0, bytes.length - OVERSIZED_END_BYTES)).toString("utf8");
      this.onEvent({ kind: "notUtf8", bytes: bytes.length, offset, sample, head, tail });
      return;
    }
    let text = utf8Text(bytes);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    this.onEvent({ kind: "line", text });
  }
}

/** Index of the quote closing the JSON string that opens at `start`, or -1 when it is cut off. */
function closingQuote(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** Index of the quote opening the JSON string that closes at `end` (an unescaped quote), or -1. */
function openingQuote(text: string, end: number): number {
  for (let i = end - 1; i >= 0; i--) {
    if (text[i] !== '"') continue;
    let backslashes = 0;
    while (i - 1 - backslashes >= 0 && text[i - 1 - backslashes] === "\\") backslashes++;
    if (backslashes % 2 === 0) return i;
  }
  return -1;
}

function jsonString(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

const JSON_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\r";

interface Members {
  id?: JsonRpcId;
  method: boolean;
}

/** Notes the top-level member whose key is the string text[start..end], if a colon follows it. */
function noteMember(text: string, start: number, end: number, into: Members): void {
  let j = end + 1;
  while (isSpace(text[j])) j++;
  if (text[j] !== ":") return;
  const key = jsonString(text.slice(start, end + 1));
  do j++;
  while (isSpace(text[j]));
  if (key === "method") into.method = true;
  if (key !== "id") return;
  if (text[j] === '"') {
    const idEnd = closingQuote(text, j);
    if (idEnd !== -1) into.id = jsonString(text.slice(j, idEnd + 1));
    return;
  }
  const n = JSON_NUMBER.exec(text.slice(j));
  // A number cut off by the end of the text could be longer: only take one followed by something.
  if (n && j + n[0].length < text.length && Number.isFinite(Number(n[0]))) into.id = Number(n[0]);
}

/** Top-level members readable in the first bytes of a JSON object. */
function membersFromStart(head: string, into: Members): void {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === '"') {
      const end = closingQuote(head, i);
      if (end === -1) return;
      if (depth === 1) noteMember(head, i, end, into);
      i = end;
    }
  }
}

/**
 * Top-level members readable in the last bytes of a JSON object, read backwards from its closing
 * brace (strings are recognised from their closing quote, which is never escaped).
 */
function membersFromEnd(tail: string, into: Members): void {
  let i = tail.length - 1;
  while (i >= 0 && (isSpace(tail[i]) || tail[i] === "\n")) i--;
  if (tail[i] !== "}") return;
  let depth = 1;
  for (i--; i >= 0; i--) {
    const c = tail[i];
    if (c === "}" || c === "]") depth++;
    else if (c === "{" || c === "[") {
      if (--depth === 0) return;
    } else if (c === '"') {
      const start = openingQuote(tail, i);
      if (start === -1) return;
      if (depth === 1) noteMember(tail, start, i, into);
      i = start;
    }
  }
}

/**
 * The id of the request an oversized line carried, from its first and last bytes: only when both
 * `"id"` and `"method"` are found as top-level members (so it is a request, and the id is not some
 * nested field). Clients put the id first (`{"jsonrpc","id","method","params"}`) or last (the MCP
 * TypeScript SDK: `{"method","params","jsonrpc","id"}`). Otherwise null.
 */
export function requestIdOfLine(head: string, tail: string): JsonRpcId | null {
  const members: Members = { method: false };
  membersFromStart(head, members);
  membersFromEnd(tail, members);
  return members.method && members.id !== undefined ? members.id : null;
}

/**
 * The answer to a line over the limit: an error for the request it carried (when its id can be
 * read from the line's start, so the caller's pending request fails instead of waiting), saying
 * to pass large content by path.
 */
export function oversizedLineResponse(event: { bytes: number; head: string; tail: string }, maxBytes: number): JsonRpcResponse {
  return {
    jsonrpc: "2.0",
    id: requestIdOfLine(event.head, event.tail),
    error: {
      code: ErrorCode.InvalidRequest,
      message: `Message too large: a line of ${event.bytes} bytes exceeds the ${maxBytes / (1024 * 1024)} MiB limit and was discarded. Pass large content by file path instead.`,
    },
  };
}

/**
 * The answer to a line the framing could not read: an error for the request it carried, when its
 * id can be read, so the caller's pending request fails instead of waiting. Nothing of it runs.
 */
export function unreadableLineResponse(event: UnreadableLine, maxBytes: number): JsonRpcResponse {
  if (event.kind === "oversized") return oversizedLineResponse(event, maxBytes);
  return { jsonrpc: "2.0", id: requestIdOfLine(event.head, event.tail), error: notUtf8Error(event) };
}

/** Where `bytes` (known not to be UTF-8) first go wrong: the offset, and up to four bytes from there in hex. */
export function badUtf8(bytes: Buffer): { offset: number; sample: string } {
  const offset = firstInvalidUtf8(bytes);
  const sample = [...bytes.subarray(offset, offset + 4)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
  return { offset, sample };
}

/** The error for a message that is not UTF-8 (host protocol, MCP on stdio and over HTTP alike). */
export function notUtf8Error(at: { bytes: number; offset: number; sample: string }): JsonRpcErrorObject {
  return {
    code: ErrorCode.ParseError,
    message: `Parse error: the message is not valid UTF-8 (byte ${at.offset} of ${at.bytes}: ${at.sample}), so it was not run. Send every message as UTF-8 text; write other characters as JSON escapes (\\u00e9).`,
  };
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

export interface PeerOptions {
  maxLineBytes?: number;
  /** How many incoming requests may run at once, and wait (protocol/requestGate.ts). */
  limits?: GateLimits;
  /** Methods that never wait behind others: the ones that steer work already running. */
  ungated?: ReadonlySet<string>;
}

/**
 * One end of a JSON-RPC connection over a byte stream pair. Incoming requests are handled
 * concurrently, up to the gate's limit (more wait in order); each gets an AbortSignal that
 * `$/cancelRequest` or the connection's end aborts. `write` may return a promise that settles once
 * the line is written out: a request holds its place in the gate until then.
 */
export class JsonRpcPeer {
  private readonly splitter: LineSplitter;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly outgoing = new Map<string, PendingOutgoing>();
  private readonly gate: RequestGate<JsonRpcRequest>;
  private readonly ungated: ReadonlySet<string>;
  private nextOutgoingId = 1;
  private closed = false;

  constructor(
    private readonly write: (line: string) => unknown,
    private readonly handlers: { request: RequestHandler; notification: NotificationHandler },
    opts: PeerOptions | number = {},
  ) {
    const o = typeof opts === "number" ? { maxLineBytes: opts } : opts;
    this.splitter = new LineSplitter((ev) => this.onFrame(ev), o.maxLineBytes ?? MAX_LINE_BYTES);
    this.gate = new RequestGate((m) => void this.onRequest(m, true), o.limits ?? DEFAULT_GATE_LIMITS);
    this.ungated = o.ungated ?? new Set();
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
    this.gate.clear();
    for (const ctrl of this.inFlight.values()) ctrl.abort(new Error("connection closed"));
    for (const [key, pending] of this.outgoing) {
      if (pending.timer) clearTimeout(pending.timer);
      pending.reject(new RpcError(ErrorCode.RequestCancelled, "The connection closed before the host answered."));
      this.outgoing.delete(key);
    }
  }

  /** Resolves once no incoming request is being handled (or after `timeoutMs`). */
  whenIdle(timeoutMs: number): Promise<void> {
    if (this.idle()) return Promise.resolve();
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

  private idle(): boolean {
    return this.inFlight.size === 0 && this.gate.inFlight === 0 && this.gate.waiting === 0;
  }

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

  /** Aborts the handler of an incoming request (used by `$/cancelRequest`); one still waiting never starts. */
  cancelIncoming(id: JsonRpcId, reason = "cancelled by the client"): boolean {
    const waiting = this.gate.withdraw(keyOf(id));
    if (waiting) {
      this.send({ jsonrpc: "2.0", id, error: { code: ErrorCode.RequestCancelled, message: `${waiting.method} was cancelled before it started (${reason}).` } });
      return true;
    }
    const ctrl = this.inFlight.get(keyOf(id));
    if (!ctrl) return false;
    ctrl.abort(new Error(reason));
    return true;
  }

  private send(message: object): unknown {
    if (this.closed && !("id" in message)) return undefined;
    let line: string;
    try {
      line = messageJson(message);
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
      return this.write(line);
    } catch (err) {
      log.warn("could not write to the transport", { error: err });
      return undefined;
    }
  }

  private onFrame(event: FrameEvent): void {
    if (event.kind !== "line") {
      this.send(unreadableLineResponse(event, this.splitter.maxBytes));
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
      case "request": {
        const m = parsed.message;
        const key = keyOf(m.id);
        if (this.inFlight.has(key) || this.gate.has(key)) {
          this.send({ jsonrpc: "2.0", id: m.id, error: { code: ErrorCode.InvalidRequest, message: `Request id ${JSON.stringify(m.id)} is already in flight; ids must be unique.` } });
          return;
        }
        if (this.ungated.has(m.method)) void this.onRequest(m, false);
        else if (this.gate.offer(key, m, event.text.length) === "refused") this.send({ jsonrpc: "2.0", id: m.id, error: overloadedError(this.gate.limits) });
        return;
      }
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

  private async onRequest(message: JsonRpcRequest, gated: boolean): Promise<void> {
    const key = keyOf(message.id);
    const ctrl = new AbortController();
    this.inFlight.set(key, ctrl);
    let written: unknown;
    try {
      const result = await this.handlers.request(message.method, message.params ?? {}, {
        id: message.id,
        method: message.method,
        signal: ctrl.signal,
      });
      written = this.send({ jsonrpc: "2.0", id: message.id, result: result ?? null });
    } catch (err) {
      let error: JsonRpcErrorObject;
      if (err instanceof RpcError) error = err.toJSON();
      else if (ctrl.signal.aborted) error = { code: ErrorCode.RequestCancelled, message: `${message.method} was cancelled.` };
      else {
        error = { code: ErrorCode.InternalError, message: `Internal error in ${message.method}: ${(err as Error)?.message ?? String(err)}` };
        log.error("request handler failed", { method: message.method, error: err });
      }
      written = this.send({ jsonrpc: "2.0", id: message.id, error });
    } finally {
      this.inFlight.delete(key);
    }
    if (gated) {
      // The answer is out of the core's memory before the next request starts.
      await Promise.resolve(written).catch(() => undefined);
      this.gate.done(key);
    }
    if (this.idle()) for (const w of [...this.idleWaiters]) w();
  }
}

function keyOf(id: JsonRpcId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}
