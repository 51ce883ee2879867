// The client side of MCP Streamable HTTP for `mcp --attach`, on node:http with a keep-alive agent.
// The SDK's client transport does the same over fetch and web streams, which costs ~3 ms a
// message on loopback; a proxy pays that on every call, so it speaks the (small) wire format
// itself: POST each message, read the answer as JSON or as server-sent events, and hold one GET
// event stream for messages that belong to no request.
import { Agent, request, type IncomingMessage } from "node:http";
import { createParser } from "eventsource-parser";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpStatusError";
  }
}

const GET_RETRY_DELAYS_MS = [250, 1000, 2000];

export class StreamableHttpClient {
  /** `raw` is the message's exact text as the core sent it. */
  onmessage?: (message: JSONRPCMessage, raw: string) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  sessionId?: string;
  private protocolVersion?: string;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  private closed = false;
  private eventStream?: IncomingMessage;
  private retryTimer?: NodeJS.Timeout;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
  ) {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  private requestHeaders(extra: Record<string, string | number>): Record<string, string | number> {
    return {
      ...this.headers,
      ...(this.sessionId ? { "mcp-session-id": this.sessionId } : {}),
      ...(this.protocolVersion ? { "mcp-protocol-version": this.protocolVersion } : {}),
      ...extra,
    };
  }

  private open(method: string, headers: Record<string, string | number>, body?: string, retried = false): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error("the connection to the core is closed"));
      const req = request({ agent: this.agent, host: this.url.hostname, port: this.url.port, path: this.url.pathname, method, headers: this.requestHeaders(headers) }, resolve);
      req.on("error", (err: NodeJS.ErrnoException) => {
        // A kept-alive connection the core closed just as this request went out on it: the core
        // never read the request, so sending it again on a fresh connection runs it once.
        if (!retried && req.reusedSocket && err.code === "ECONNRESET") resolve(this.open(method, headers, body, true));
        else reject(err);
      });
      req.end(body);
    });
  }

  /** Resolves once the core has taken the message (the response headers arrived). */
  async send(message: JSONRPCMessage, raw?: string): Promise<void> {
    const body = raw ?? JSON.stringify(message);
    const res = await this.open(
      "POST",
      {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": Buffer.byteLength(body),
      },
      body,
    );
    const session = res.headers["mcp-session-id"];
    if (typeof session === "string") this.sessionId = session;
    if (res.statusCode === 202) {
      res.resume();
      if ("method" in message && message.method === "notifications/initialized") this.openEventStream(0);
      return;
    }
    if (res.statusCode !== 200) throw await statusError(res);
    const type = res.headers["content-type"] ?? "";
    if (type.startsWith("text/event-stream")) this.readEvents(res, false);
    else if (type.startsWith("application/json")) void readAll(res).then((text) => this.deliverJson(text));
    else res.resume();
  }

  private deliverJson(text: string): void {
    if (text.trim() === "") return;
    try {
      const value = JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[];
      if (Array.isArray(value)) for (const m of value) this.onmessage?.(m, JSON.stringify(m));
      else this.onmessage?.(value, text);
    } catch (err) {
      this.onerror?.(new Error(`the core sent a message that is not JSON: ${(err as Error).message}`));
    }
  }

  private readEvents(res: IncomingMessage, isEventStream: boolean): void {
    const parser = createParser({ onEvent: (event) => (event.event === undefined || event.event === "message") && this.deliverJson(event.data) });
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => parser.feed(chunk));
    let ended = false;
    res.on("end", () => {
      ended = true;
      if (isEventStream) this.eventStreamEnded();
    });
    res.on("close", () => {
      if (ended || this.closed) return;
      // The socket went before the stream ended: the core may be gone.
      this.onerror?.(new Error("the core's event stream broke off"));
      if (isEventStream) this.eventStreamEnded();
    });
  }

  private openEventStream(attempt: number): void {
    if (this.closed) return;
    this.open("GET", { accept: "text/event-stream" }).then(
      (res) => {
        if (res.statusCode === 405) return void res.resume();
        if (res.statusCode !== 200) {
          void statusError(res).then((err) => this.onerror?.(err));
          return;
        }
        this.eventStream = res;
        this.readEvents(res, true);
      },
      (err: Error) => {
        this.onerror?.(err);
        this.retryEventStream(attempt);
      },
    );
  }

  private eventStreamEnded(): void {
    this.eventStream = undefined;
    this.retryEventStream(0);
  }

  private retryEventStream(attempt: number): void {
    if (this.closed || attempt >= GET_RETRY_DELAYS_MS.length) return;
    this.retryTimer = setTimeout(() => this.openEventStream(attempt + 1), GET_RETRY_DELAYS_MS[attempt]);
    this.retryTimer.unref();
  }

  /** Ends the session in the core (DELETE), so its processes stop now rather than after a grace period. */
  async terminateSession(): Promise<void> {
    if (!this.sessionId || this.closed) return;
    const res = await this.open("DELETE", {});
    res.resume();
    this.sessionId = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.eventStream?.destroy();
    this.agent.destroy();
    this.onclose?.();
  }
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (d: string) => (text += d));
    res.on("end", () => resolve(text));
    res.on("error", () => resolve(text));
  });
}

async function statusError(res: IncomingMessage): Promise<HttpStatusError> {
  const text = await readAll(res);
  let message = text.trim() || res.statusMessage || "";
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
  } catch {
    // plain text
  }
  return new HttpStatusError(res.statusCode ?? 0, `HTTP ${res.statusCode}${message ? `: ${message}` : ""}`);
}
