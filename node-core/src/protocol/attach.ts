// `wave-core mcp --attach`: a stdio MCP server that is a pipe to the IDE's listening core. Each
// JSON-RPC message passes unchanged in both directions (tools/list, tools/call with its progress
// token, cancellations, elicitation requests to the agent and their answers, log messages), so
// the agent's calls run in the IDE's core, in a session of their own that the tool window shows.
// Messages from the agent are posted in order (each POST is answered once the core has taken the
// message), answers stream back on each request's event stream, everything else on the
// connection's GET stream.
import { randomBytes } from "node:crypto";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";
import { lockDir, processAlive, rankLocks, readLiveLocks, type IdeLock, type LockChoice } from "./ideLock.js";
import { CLIENT_CWD_HEADER } from "./mcpHttp.js";

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
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    return `it did not answer (${cause})`;
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

export interface AttachIo {
  stdin: Readable;
  stdout: Writable;
  /** One line for the user (the agent shows MCP servers' stderr in its logs). */
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

interface Upstream {
  transport: Transport;
  label: string;
  pid?: number;
}

/**
 * Pipes the agent's stdio to `target` until stdin ends. If the core goes away, requests in flight
 * are answered with an error, and the next request re-attaches to whichever core now serves the
 * directory (re-sending the agent's own initialize), or to a local core.
 */
export async function runAttachProxy(target: AttachTarget, io: AttachIo, opts: AttachOptions): Promise<void> {
  const agent = new StdioServerTransport(io.stdin, io.stdout);
  const pending = new Map<string | number, string>();
  let initialize: JSONRPCRequest | undefined;
  let initializedSeen = false;
  let upstream: Upstream | undefined;
  let connecting: Promise<Upstream | undefined> | undefined;
  let sendChain: Promise<unknown> = Promise.resolve();
  let closed = false;
  let usedLocal = false;
  const internalIds = new Map<string | number, (msg: JSONRPCMessage) => void>();

  const toAgent = (msg: JSONRPCMessage) => void agent.send(msg).catch(() => {});
  const failRequest = (id: string | number, message: string) =>
    toAgent({ jsonrpc: "2.0", id, error: { code: CORE_UNREACHABLE, message } });

  const connectHttp = (lock: IdeLock): Transport =>
    new StreamableHTTPClientTransport(new URL(lock.url), {
      requestInit: { headers: { authorization: `Bearer ${lock.token}`, [CLIENT_CWD_HEADER]: encodeURIComponent(opts.dir) } },
    });

  /** Everything the core sends goes to the agent, except answers to the proxy's own requests. */
  const wire = (up: Upstream) => {
    up.transport.onmessage = (msg) => {
      if (up !== upstream) return;
      if ("id" in msg && !("method" in msg) && msg.id !== undefined) {
        const own = internalIds.get(msg.id);
        if (own) {
          internalIds.delete(msg.id);
          own(msg);
          return;
        }
        pending.delete(msg.id);
        if ("result" in msg && initialize && msg.id === initialize.id) negotiated(up, msg.result as { protocolVersion?: string });
      }
      toAgent(msg);
    };
    up.transport.onerror = () => {
      // A broken stream may mean the core died: look now rather than at the next tick.
      if (up === upstream && up.pid !== undefined && !processAlive(up.pid)) lost(up, "it exited");
    };
    up.transport.onclose = () => {
      if (up === upstream && !closed) lost(up, "the connection closed");
    };
  };

  const negotiated = (up: Upstream, result: { protocolVersion?: string } | undefined) => {
    const version = result?.protocolVersion;
    if (version && up.transport instanceof StreamableHTTPClientTransport) up.transport.setProtocolVersion(version);
  };

  /** The agent already initialized: repeat its handshake on a new upstream without telling it. */
  const handshake = async (up: Upstream): Promise<void> => {
    if (!initialize) return;
    const id = `wave-attach-${randomBytes(6).toString("hex")}`;
    const answer = new Promise<JSONRPCMessage>((resolve) => internalIds.set(id, resolve));
    await up.transport.send({ ...initialize, id });
    const msg = await answer;
    if ("error" in msg) throw new Error(`the core refused initialize: ${(msg as { error: { message: string } }).error.message}`);
    negotiated(up, (msg as { result: { protocolVersion?: string } }).result);
    if (initializedSeen) await up.transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  };

  const start = async (up: Upstream, reinit: boolean): Promise<Upstream> => {
    upstream = up;
    wire(up);
    await up.transport.start();
    if (reinit) await handshake(up);
    return up;
  };

  let liveness: NodeJS.Timeout | undefined;
  const watch = (up: Upstream) => {
    clearInterval(liveness);
    if (up.pid === undefined) return;
    const pid = up.pid;
    liveness = setInterval(() => {
      if (upstream === up && !processAlive(pid)) lost(up, "it exited");
    }, LIVENESS_INTERVAL_MS);
    liveness.unref();
  };

  const lost = (up: Upstream, why: string) => {
    if (upstream !== up) return;
    upstream = undefined;
    clearInterval(liveness);
    void up.transport.close().catch(() => {});
    io.note(`wave-core: lost the connection to ${up.label}: ${why}. The next request re-attaches.`);
    for (const [id, method] of pending) {
      failRequest(id, `The Wave core this agent was attached to (${up.label}) ended before it answered ${method}: ${why}. Processes it started were stopped. Send the request again.`);
    }
    pending.clear();
    for (const resolve of internalIds.values()) resolve({ jsonrpc: "2.0", id: "lost", error: { code: CORE_UNREACHABLE, message: why } });
    internalIds.clear();
  };

  /** The upstream to send to: the current one, or a new attachment after a loss. */
  const current = (): Promise<Upstream | undefined> => {
    if (upstream) return Promise.resolve(upstream);
    connecting ??= (async () => {
      try {
        const found = await findCore(opts.dir, opts.env);
        if (found.target) {
          const lock = found.target.choice.lock;
          const up: Upstream = { transport: connectHttp(lock), label: describe(lock), pid: lock.pid };
          await start(up, true);
          watch(up);
          io.note(`wave-core: re-attached to ${up.label} for ${found.target.choice.folder}.`);
          return up;
        }
        if (opts.required || !opts.localFallback) return undefined;
        const up: Upstream = { transport: await opts.localFallback(), label: "a local core" };
        await start(up, true);
        if (!usedLocal) io.note(`wave-core: no IDE core serves ${opts.dir} any more; this agent's tools now run in a local core (not shown in the IDE).`);
        usedLocal = true;
        return up;
      } catch (err) {
        io.note(`wave-core: could not re-attach: ${(err as Error).message}`);
        upstream = undefined;
        return undefined;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  };

  const forward = (msg: JSONRPCMessage): Promise<void> => {
    const isRequest = "method" in msg && "id" in msg && msg.id !== undefined;
    if (isRequest) {
      const req = msg as JSONRPCRequest;
      pending.set(req.id, req.method);
      if (req.method === "initialize") initialize = req;
    } else if ("method" in msg && msg.method === "notifications/initialized") {
      initializedSeen = true;
    }
    return (async () => {
      const up = await current();
      if (!up) {
        if (isRequest) {
          pending.delete((msg as JSONRPCRequest).id);
          failRequest(
            (msg as JSONRPCRequest).id,
            `No Wave core in an IDE serves ${opts.dir} now. Open the project in the IDE with the Wave Tools plugin (its core listens for agents), then send the request again${
              opts.required ? "" : ", or restart this MCP server to run a local core"
            }.`,
          );
        }
        return;
      }
      try {
        await up.transport.send(msg);
      } catch (err) {
        if (up === upstream) lost(up, (err as Error).message);
        else if (isRequest && pending.delete((msg as JSONRPCRequest).id)) {
          failRequest((msg as JSONRPCRequest).id, `The Wave core did not take the request: ${(err as Error).message}`);
        }
      }
    })();
  };

  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const finish = async () => {
    if (closed) return;
    closed = true;
    clearInterval(liveness);
    const up = upstream;
    upstream = undefined;
    if (up?.transport instanceof StreamableHTTPClientTransport) {
      // Ends the agent's session in the core at once (its background tasks stop).
      await Promise.race([up.transport.terminateSession().catch(() => {}), new Promise((r) => setTimeout(r, 1000).unref())]);
    }
    await up?.transport.close().catch(() => {});
    resolveDone();
  };

  const first: Upstream = {
    transport: connectHttp(target.choice.lock),
    label: describe(target.choice.lock),
    pid: target.choice.lock.pid,
  };
  await start(first, false);
  watch(first);
  agent.onmessage = (msg) => {
    // In order: each POST returns once the core has taken the message.
    sendChain = sendChain.then(() => forward(msg));
  };
  agent.onclose = () => void finish();
  agent.onerror = (err) => io.note(`wave-core: ignored a malformed message from the agent: ${err.message}`);
  io.stdin.once("end", () => void sendChain.then(finish));
  io.stdin.once("close", () => void sendChain.then(finish));
  await agent.start();
  io.note(`wave-core: attached to ${first.label} for ${target.choice.folder}; this agent's calls show in its tool window.`);
  return done;
}
