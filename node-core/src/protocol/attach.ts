// `wave-core mcp --attach`: a stdio MCP server that is a pipe to the IDE's listening core. Each
// JSON-RPC message passes unchanged in both directions (tools/list, tools/call with its progress
// token, cancellations, elicitation requests to the agent and their answers, log messages), so
// the agent's calls run in the IDE's core, in a session of their own that the tool window shows.
// Messages from the agent are posted in order (each POST returns once the core has taken the
// message); answers stream back on each request's event stream, everything else on the
// connection's GET stream. Lines are forwarded as they came: parsed only to track the requests
// in flight, never re-encoded.
import { randomBytes } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { lockDir, rankLocks, readLiveLocks, type IdeLock, type LockChoice } from "./ideLock.js";
import { processExists } from "../util/processes.js";
import { LineSplitter, parseMessage, unreadableLineResponse } from "./jsonrpc.js";
import { MCP_MAX_LINE_BYTES } from "./lineTransport.js";
import { CLIENT_CWD_HEADER } from "./mcpHttp.js";
import { StreamableHttpClient } from "./httpClientTransport.js";

/** JSON-RPC error code the proxy answers with when the IDE's core cannot take a request. */
export const CORE_UNREACHABLE = -32003;
const PROBE_TIMEOUT_MS = 2000;
const LIVENESS_INTERVAL_MS = 500;

export interface AttachTarget {
  choice: LockChoice;
  /** Why other candidates were passed over (for stderr). */
  skipped: string[];
}

function describe(lock: IdeLock): string {
  return `${lock.ideName ? `${lock.ideName}${lock.ideVersion ? ` ${lock.ideVersion}` : ""}` : "an IDE"} (core pid ${lock.pid})`;
}

/**
 * Checks that a lock's endpoint is a live core that accepts its token: a GET without a session is
 * answered 400 by the core, 401 with a wrong token, and not at all by a dead one.
 */
export async function probe(lock: IdeLock, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | undefined> {
  try {
    const res = await fetch(lock.url, {
      method: "GET",
      headers: { authorization: `Bearer ${lock.token}`, accept: "text/event-stream" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    if (res.status === 400) return undefined;
    return res.status === 401 ? "it refused the token in its lock file" : `it answered HTTP ${res.status}`;
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return `it did not answer (${cause?.code ?? cause?.message ?? (err as Error).message})`;
  }
}

/** The best live core for `dir`, tried in order of specificity. */
export async function findCore(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<{ target?: AttachTarget; problems: string[] }> {
  const scan = readLiveLocks(lockDir(env));
  const problems = [...scan.problems];
  const skipped: string[] = [];
  for (const choice of rankLocks(scan.locks, dir)) {
    const why = await probe(choice.lock);
    if (why === undefined) return { target: { choice, skipped }, problems };
    skipped.push(`${describe(choice.lock)} for ${choice.folder}: ${why}`);
  }
  return { problems: [...problems, ...skipped] };
}

/** One side of the pipe towards a core: the IDE's over HTTP, or a local one in this process. */
export interface CoreLink {
  readonly label: string;
  /** The core's process, watched so calls in flight are answered if it dies. */
  readonly pid?: number;
  onmessage?: (message: JSONRPCMessage, raw?: string) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Resolves once the core has taken the message. `raw` is its exact text, when there is one. */
  send(message: JSONRPCMessage, raw?: string): Promise<void>;
  setProtocolVersion(version: string): void;
  /** Ends the session in the core now (its processes stop). */
  terminate(): Promise<void>;
  close(): Promise<void>;
}

export function httpLink(lock: IdeLock, dir: string): CoreLink {
  const client = new StreamableHttpClient(new URL(lock.url), { authorization: `Bearer ${lock.token}`, [CLIENT_CWD_HEADER]: encodeURIComponent(dir) });
  const link: CoreLink = {
    label: describe(lock),
    pid: lock.pid,
    send: (message, raw) => client.send(message, raw),
    setProtocolVersion: (v) => client.setProtocolVersion(v),
    terminate: () => client.terminateSession(),
    close: () => client.close(),
  };
  client.onmessage = (m, raw) => link.onmessage?.(m, raw);
  client.onerror = (e) => link.onerror?.(e);
  client.onclose = () => link.onclose?.();
  return link;
}

export function transportLink(transport: Transport, label: string): CoreLink {
  const link: CoreLink = {
    label,
    send: (message) => transport.send(message),
    setProtocolVersion: () => {},
    terminate: async () => {},
    close: () => transport.close(),
  };
  transport.onmessage = (m) => link.onmessage?.(m);
  transport.onerror = (e) => link.onerror?.(e);
  transport.onclose = () => link.onclose?.();
  return link;
}

export interface AttachIo {
  stdin: Readable;
  stdout: Writable;
  /** One line for the user (agents keep MCP servers' stderr in their logs). */
  note(line: string): void;
}

export interface AttachOptions {
  dir: string;
  env?: NodeJS.ProcessEnv;
  /** Without a live core: fail the agent's requests instead of falling back to a local core. */
  required: boolean;
  /** A transport to a local core, for when the IDE's core goes away mid-session (not `required`). */
  localFallback?: () => Promise<Transport>;
}

type Id = string | number;
type Message = JSONRPCMessage & { id?: Id; method?: string; result?: unknown; error?: unknown; params?: unknown };

export interface AttachProxy {
  /** Resolves when the agent has gone (stdin ended) and the core's session was ended. */
  done: Promise<void>;
  /** Ends the session in the core and stops (a signal, say). */
  stop(): Promise<void>;
}

/**
 * Pipes the agent's stdio to `target`. If the core goes away, requests in flight are answered with
 * an error, and the next request re-attaches to whichever core now serves the directory
 * (re-sending the agent's own initialize), or to a local core.
 */
export async function startAttachProxy(target: AttachTarget, io: AttachIo, opts: AttachOptions): Promise<AttachProxy> {
  const pending = new Map<Id, string>();
  let initialize: Message | undefined;
  let initializedSeen = false;
  let link: CoreLink | undefined;
  let connecting: Promise<CoreLink | undefined> | undefined;
  let sendChain: Promise<unknown> = Promise.resolve();
  let closed = false;
  let usedLocal = false;
  const ownRequests = new Map<Id, (msg: Message) => void>();
  let liveness: NodeJS.Timeout | undefined;

  const toAgent = (msg: Message, raw?: string) => {
    if (!closed) io.stdout.write((raw ?? JSON.stringify(msg)) + "\n");
  };
  const failRequest = (id: Id, message: string) => toAgent({ jsonrpc: "2.0", id, error: { code: CORE_UNREACHABLE, message } } as Message);

  const negotiated = (l: CoreLink, result: unknown) => {
    const version = (result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof version === "string") l.setProtocolVersion(version);
  };

  const lost = (l: CoreLink, why: string) => {
    if (link !== l) return;
    link = undefined;
    clearInterval(liveness);
    void l.close().catch(() => {});
    if (closed) return;
    io.note(`wave-core: lost the connection to ${l.label}: ${why}. The next request re-attaches.`);
    for (const [id, method] of pending) {
      failRequest(id, `The Wave core this agent was attached to (${l.label}) ended before it answered ${method}: ${why}. Processes it started were stopped. Send the request again.`);
    }
    pending.clear();
    for (const resolve of ownRequests.values()) resolve({ jsonrpc: "2.0", id: "lost", error: { code: CORE_UNREACHABLE, message: why } } as Message);
    ownRequests.clear();
  };

  /** Everything the core sends goes to the agent, except answers to the proxy's own requests. */
  const use = async (l: CoreLink, reinitialize: boolean): Promise<CoreLink> => {
    link = l;
    l.onmessage = (msg: Message, raw) => {
      if (link !== l) return;
      if (msg.id !== undefined && msg.method === undefined) {
        const own = ownRequests.get(msg.id);
        if (own) {
          ownRequests.delete(msg.id);
          return own(msg);
        }
        pending.delete(msg.id);
        if (initialize && msg.id === initialize.id && msg.result !== undefined) negotiated(l, msg.result);
      }
      toAgent(msg, raw);
    };
    // A broken stream may mean the core died: look now rather than at the next tick.
    l.onerror = () => l.pid !== undefined && !processExists(l.pid) && lost(l, "it exited");
    l.onclose = () => lost(l, "the connection closed");
    clearInterval(liveness);
    if (l.pid !== undefined) {
      const pid = l.pid;
      liveness = setInterval(() => processExists(pid) || lost(l, "it exited"), LIVENESS_INTERVAL_MS);
      liveness.unref();
    }
    if (reinitialize && initialize) {
      // The agent initialized long ago: repeat its handshake on the new core without telling it.
      const id = `wave-attach-${randomBytes(6).toString("hex")}`;
      const answer = new Promise<Message>((resolve) => ownRequests.set(id, resolve));
      await l.send({ ...initialize, id } as JSONRPCMessage);
      const reply = await answer;
      if (reply.error !== undefined) throw new Error(`the core refused initialize: ${JSON.stringify(reply.error)}`);
      negotiated(l, reply.result);
      if (initializedSeen) await l.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    }
    return l;
  };

  /** The link to send to: the current one, or a new attachment after a loss. */
  const current = (): Promise<CoreLink | undefined> => {
    if (link) return Promise.resolve(link);
    connecting ??= (async () => {
      try {
        const found = await findCore(opts.dir, opts.env);
        if (found.target) {
          const l = await use(httpLink(found.target.choice.lock, opts.dir), true);
          io.note(`wave-core: re-attached to ${l.label} for ${found.target.choice.folder}.`);
          return l;
        }
        if (opts.required || !opts.localFallback) return undefined;
        const l = await use(transportLink(await opts.localFallback(), "a local core"), true);
        if (!usedLocal) io.note(`wave-core: no IDE core serves ${opts.dir} any more; this agent's tools now run in a local core (not shown in the IDE).`);
        usedLocal = true;
        return l;
      } catch (err) {
        io.note(`wave-core: could not re-attach: ${(err as Error).message}`);
        link = undefined;
        return undefined;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  };

  const forward = async (msg: Message, raw: string): Promise<void> => {
    const isRequest = msg.method !== undefined && msg.id !== undefined;
    if (isRequest) {
      pending.set(msg.id!, msg.method!);
      if (msg.method === "initialize") initialize = msg;
    } else if (msg.method === "notifications/initialized") {
      initializedSeen = true;
    }
    const l = await current();
    if (!l) {
      if (isRequest && pending.delete(msg.id!)) {
        failRequest(
          msg.id!,
          `No Wave core in an IDE serves ${opts.dir} now. Open the project in the IDE with the Wave Tools plugin (its core listens for agents), then send the request again${
            opts.required ? "" : ", or restart this MCP server to run a local core"
          }.`,
        );
      }
      return;
    }
    try {
      await l.send(msg, raw);
    } catch (err) {
      if (l === link) lost(l, (err as Error).message);
      else if (isRequest && pending.delete(msg.id!)) failRequest(msg.id!, `The Wave core did not take the request: ${(err as Error).message}`);
    }
  };

  // The same framing and limits as `wave-core mcp`: a line over the limit, not UTF-8 or not JSON-RPC
  // is answered with an error at once (it never reaches the core), and the proxy keeps serving.
  const splitter = new LineSplitter((event) => {
    if (event.kind !== "line") {
      toAgent(unreadableLineResponse(event, splitter.maxBytes) as Message);
      return;
    }
    const parsed = parseMessage(event.text);
    if (!parsed) return;
    if (parsed.kind === "invalid") {
      toAgent({ jsonrpc: "2.0", id: parsed.id, error: parsed.error } as unknown as Message);
      return;
    }
    const msg = parsed.message as unknown as Message;
    // In order: each POST returns once the core has taken the message.
    sendChain = sendChain.then(() => forward(msg, event.text));
  }, MCP_MAX_LINE_BYTES);

  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const stop = async () => {
    if (closed) return done;
    closed = true;
    clearInterval(liveness);
    const l = link;
    link = undefined;
    // Ends the agent's session in the core at once (its background tasks stop).
    if (l) await Promise.race([l.terminate().catch(() => {}), new Promise((r) => setTimeout(r, 1000).unref())]);
    await l?.close().catch(() => {});
    resolveDone();
    return done;
  };

  await use(httpLink(target.choice.lock, opts.dir), false);
  io.stdin.on("data", (chunk: Buffer) => splitter.push(chunk));
  const ended = () => {
    splitter.end();
    void sendChain.then(stop);
  };
  io.stdin.once("end", ended);
  io.stdin.once("close", ended);
  io.note(`wave-core: attached to ${describe(target.choice.lock)} for ${target.choice.folder}; this agent's calls show in its tool window.`);
  return { done, stop };
}
