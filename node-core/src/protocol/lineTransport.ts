// `wave-core mcp`'s stdio framing: the same line splitter and message checks as `serve`, in front
// of the official SDK's server. The SDK's own stdio transport closes the connection for good on a
// line over 10 MiB, drops a line that is not JSON without an answer and reads bad UTF-8 as U+FFFD;
// here such lines get a
// JSON-RPC error (for the request they carried, when its id can be read) and the server keeps serving.
import type { Readable, Writable } from "node:stream";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCNotificationSchema, JSONRPCRequestSchema, JSONRPCResponseSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createLogger } from "../util/log.js";
import { ErrorCode, LineSplitter, parseMessage, unreadableLineResponse, type FrameEvent, type JsonRpcId, type JsonRpcResponse } from "./jsonrpc.js";
import { messageJson } from "./preserialized.js";
import { DEFAULT_GATE_LIMITS, overloadedError, RequestGate, type GateLimits } from "./requestGate.js";

const log = createLogger("mcp-transport");

/** The longest line `mcp` reads: the SDK's own limit, so what fit before still fits. */
export const MCP_MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly splitter: LineSplitter;
  /** Requests the SDK's server handles at once (it has no bound of its own); the rest wait. */
  private readonly gate: RequestGate<JSONRPCMessage>;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    maxLineBytes = MCP_MAX_LINE_BYTES,
    limits: GateLimits = DEFAULT_GATE_LIMITS,
  ) {
    this.splitter = new LineSplitter((event) => this.onFrame(event), maxLineBytes);
    this.gate = new RequestGate((message) => this.deliver(message), limits);
  }

  private readonly onData = (chunk: Buffer | string) => this.splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => this.splitter.end();
  private readonly onError = (err: Error) => this.onerror?.(err);

  async start(): Promise<void> {
    if (this.started) throw new Error("LineTransport already started");
    this.started = true;
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
    // An answer is out: its request's place in the gate goes to the next one.
    if ("id" in message && !("method" in message)) this.gate.done(idKey(message.id as JsonRpcId));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.gate.clear();
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.onclose?.();
  }

  private write(message: JSONRPCMessage | JsonRpcResponse): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(messageJson(message) + "\n")) resolve();
      else this.output.once("drain", resolve);
    });
  }

  private answer(response: JsonRpcResponse): void {
    this.write(response).catch((err: unknown) => log.warn("could not write an error response", { error: err }));
  }

  private onFrame(event: FrameEvent): void {
    if (this.closed) return;
    if (event.kind !== "line") {
      log.warn(event.kind === "oversized" ? "discarded an oversized line" : "discarded a line that is not UTF-8", { bytes: event.bytes });
      this.answer(unreadableLineResponse(event, this.splitter.maxBytes));
      return;
    }
    const parsed = parseMessage(event.text);
    if (!parsed) return;
    if (parsed.kind === "invalid") {
      this.answer({ jsonrpc: "2.0", id: parsed.id, error: parsed.error });
      return;
    }
    // What the SDK's server expects on top of plain JSON-RPC (e.g. params an object, not an array).
    const schema = parsed.kind === "request" ? JSONRPCRequestSchema : parsed.kind === "notification" ? JSONRPCNotificationSchema : JSONRPCResponseSchema;
    const checked = schema.safeParse(parsed.message);
    if (!checked.success) {
      const problems = checked.error.issues.map((i) => `${i.path.join(".") || "(message)"}: ${i.message}`).join("; ");
      if (parsed.kind === "request") {
        this.answer({ jsonrpc: "2.0", id: parsed.message.id, error: { code: ErrorCode.InvalidRequest, message: `Invalid request: ${problems}.` } });
      } else {
        log.warn("dropped a message that is not valid MCP", { kind: parsed.kind, problems });
      }
      return;
    }
    const message = checked.data;
    if (parsed.kind === "request") {
      const id = (message as { id: JsonRpcId }).id;
      if (this.gate.has(idKey(id))) {
        this.answer({ jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidRequest, message: `Request id ${JSON.stringify(id)} is already in flight; ids must be unique.` } });
        return;
      }
      if (this.gate.offer(idKey(id), message, event.text.length) === "refused") this.answer({ jsonrpc: "2.0", id, error: overloadedError(this.gate.limits) });
      return;
    }
    if (parsed.kind === "notification" && (message as { method: string }).method === "notifications/cancelled") {
      const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        // Not started: it never will (a cancelled request gets no answer). Running: the SDK stops
        // it without an answer, so its place is free now.
        if (this.gate.withdraw(idKey(requestId)) !== undefined) return;
        this.gate.done(idKey(requestId));
      }
    }
    this.deliver(message);
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }
}

function idKey(id: JsonRpcId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}
