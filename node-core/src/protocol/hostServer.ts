// `wave-core serve`: the host protocol (JSON-RPC 2.0, one JSON object per line on stdio).
import type { z } from "zod";
import { DuplicateCallId, UnknownSession, type WaveCore } from "../core/runtime.js";
import { InvalidToolArguments, UnknownTool } from "../core/registry.js";
import { createLogger } from "../util/log.js";
import type { HostMethod } from "./hostMethod.js";
import { ErrorCode, JsonRpcPeer, RpcError, type RequestContext } from "./jsonrpc.js";
import { CORE_VERSION, PROTOCOL_VERSION, SERVER_NAME } from "./version.js";
import { checkRoot, hostMethods } from "./methods/index.js";
import { hostAsker } from "./askers/host.js";
import type { PermissionAsker } from "../permissions/types.js";
import { initializeParamsSchema as initializeParams, type initializeResultSchema } from "./wire.js";

const log = createLogger("host-server");

/** How long answers to calls cut short by the end of input may take to go out. */
const IDLE_WAIT_MS = 5000;

export interface HostServerOptions {
  core: WaveCore;
  /** Writes one line; may return a promise that settles once it is written out (backpressure). */
  write(line: string): void | Promise<void>;
  /** Called once the server is finished: after `exit`, or after the input ended and cleanup ran. */
  onExit(code: number): void;
  /** Called after `initialize` applied the host's root, directories and settings. */
  onInitialized?(info: { hostInfo?: { name: string; version?: string } }): void;
  /** The MCP endpoint for agents (`serve --listen`), reported in `initialize`'s result. */
  agents?(): AgentEndpointInfo | undefined;
}

export interface AgentEndpointInfo {
  url: string;
  /** The discovery lock file, or null when it could not be written (then `problem` says why). */
  lockFile: string | null;
  problem?: string;
}

export interface HostServer {
  push(chunk: Buffer): void;
  /** The host's channel for permission questions, once it declared it answers them. */
  asker(): PermissionAsker | undefined;
  /** The input ended (stdin EOF): stop everything the core started, then exit. */
  end(): void;
}

function majorOf(version: string): string {
  return version.split(".")[0] ?? version;
}

export function createHostServer(opts: HostServerOptions): HostServer {
  const { core } = opts;
  // tool/finished tells the host a summary; calls/result gives it a recent call's whole result.
  core.keepFinishedResults();
  const methods = new Map<string, HostMethod>();
  for (const m of hostMethods) methods.set(m.name, m as HostMethod);

  let initialized = false;
  let shutdownRequested = false;
  // Set when the host declares it can answer `permission/request` (see PROTOCOL.md).
  let asker: PermissionAsker | undefined;
  let exited = false;

  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    opts.onExit(code);
  };

  const dispatch = async (method: string, params: unknown, ctx: RequestContext): Promise<unknown> => {
    if (shutdownRequested) {
      throw new RpcError(ErrorCode.ShuttingDown, `The server is shutting down; ${method} was not run. Send "exit" and start a new core.`);
    }
    if (method === "initialize") return initialize(params);
    if (method === "shutdown") {
      shutdownRequested = true;
      await core.shutdown();
      return null;
    }
    const m = methods.get(method);
    if (!m) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}. See PROTOCOL.md for the methods this core serves.`);
    const parsed = m.params.safeParse(params ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code }));
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${issues.map((i) => `${i.path.join(".") || "(params)"}: ${i.message}`).join("; ")}`, { issues });
    }
    try {
      return await m.handle(parsed.data, { core, signal: ctx.signal, requestId: ctx.id, asker });
    } catch (err) {
      throw toRpcError(err);
    }
  };

  const initialize = (params: unknown): z.input<typeof initializeResultSchema> => {
    if (initialized) throw new RpcError(ErrorCode.AlreadyInitialized, "initialize was already called on this connection.");
    const parsed = initializeParams.safeParse(params ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code }));
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params for initialize: ${issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`, { issues });
    }
    const p = parsed.data;
    if (p.protocolVersion && majorOf(p.protocolVersion) !== majorOf(PROTOCOL_VERSION)) {
      throw new RpcError(ErrorCode.InvalidParams, `Unsupported protocol version ${p.protocolVersion}; this core speaks ${PROTOCOL_VERSION}. Update the host or the core so they match.`, {
        supported: [PROTOCOL_VERSION],
      });
    }
    if (p.workspaceRoot) {
      const root = checkRoot(p.workspaceRoot);
      if (root !== core.workspace.root) {
        core.workspace.setRoot(root);
        // The main session was created for the command-line root; it follows the host's root.
        core.sessions.main.rebase(root);
      }
    }
    const rejected: { path: string; reason: string }[] = [];
    for (const d of p.additionalDirectories ?? []) {
      try {
        core.workspace.addDirectory(d);
      } catch (err) {
        rejected.push({ path: d, reason: (err as Error).message });
      }
    }
    if (p.settings) core.workspace.updateSettings(p.settings);
    if (p.capabilities?.permissionRequests === true) asker = hostAsker(peer);
    initialized = true;
    log.debug("initialized", { host: p.hostInfo?.name, root: core.workspace.root });
    opts.onInitialized?.({ ...(p.hostInfo ? { hostInfo: { name: p.hostInfo.name, ...(p.hostInfo.version ? { version: p.hostInfo.version } : {}) } } : {}) });
    const agents = opts.agents?.();
    return {
      protocolVersion: PROTOCOL_VERSION,
      serverInfo: { name: SERVER_NAME, version: CORE_VERSION },
      capabilities: {
        tools: { listChanged: false },
        cancellation: { method: "$/cancelRequest" },
        sessions: true,
        moveToBackground: true,
        permissionRequests: true,
        methods: ["initialize", "shutdown", ...methods.keys()],
      },
      workspace: {
        root: core.workspace.root,
        additionalDirectories: [...core.workspace.additionalDirectories],
        rejectedDirectories: rejected,
      },
      sessionId: core.sessions.main.id,
      tools: core.registry.list(),
      ...(agents ? { agents } : {}),
    };
  };

  const peer = new JsonRpcPeer(
    opts.write,
    {
      request: dispatch,
      notification: (method, params) => {
        switch (method) {
          case "$/cancelRequest": {
            const { id, callId } = (params ?? {}) as { id?: unknown; callId?: unknown };
            if (typeof id === "string" || typeof id === "number") peer.cancelIncoming(id);
            // A call the host did not make (an attached agent's): stopped by its call id; the agent
            // gets the aborted result.
            else if (typeof callId === "string") core.cancelCall(callId);
            else log.warn("$/cancelRequest without a string or number id (or a callId) was ignored");
            return;
          }
          case "exit":
            void core
              .shutdown()
              .then(() => peer.whenIdle(IDLE_WAIT_MS))
              .then(() => exit(shutdownRequested ? 0 : 1));
            return;
          case "initialized":
            return;
          default:
            log.debug("ignoring an unknown notification", { method });
        }
      },
    },
    // The methods that steer calls already running never wait behind them.
    { ungated: STEERING_METHODS },
  );

  const unsubscribe = core.events.subscribe((method, params) => peer.notify(method, params));

  return {
    push: (chunk) => peer.push(chunk),
    asker: () => asker,
    end: () => {
      // Stop everything first (that also aborts running calls), then let their answers go out.
      peer.end();
      void core
        .shutdown()
        .then(() => peer.whenIdle(IDLE_WAIT_MS))
        .then(() => {
          unsubscribe();
          exit(0);
        });
    },
  };
}

/** Host methods that act on work in flight (or end the core): they must not queue behind it. */
const STEERING_METHODS: ReadonlySet<string> = new Set(["initialize", "shutdown", "calls/moveToBackground", "calls/list", "tasks/stop", "tasks/list", "sessions/dispose", "env/status"]);

function toRpcError(err: unknown): unknown {
  if (err instanceof RpcError) return err;
  if (err instanceof InvalidToolArguments) {
    return new RpcError(ErrorCode.InvalidParams, err.message, { tool: err.tool, issues: err.issues });
  }
  if (err instanceof UnknownTool) {
    return new RpcError(ErrorCode.InvalidParams, err.message, { tool: err.tool, available: err.available });
  }
  if (err instanceof UnknownSession) {
    return new RpcError(ErrorCode.InvalidParams, err.message, { sessionId: err.sessionId });
  }
  if (err instanceof DuplicateCallId) {
    return new RpcError(ErrorCode.InvalidParams, err.message, { callId: err.callId });
  }
  return err;
}
