// `serve --listen`: starts the MCP endpoint and publishes it in the discovery lock file, keeps the
// file true while the workspace changes, and removes it when the core ends.
import type { WaveCore } from "../core/runtime.js";
import { createLogger } from "../util/log.js";
import { lockDir, removeLock, writeLock, LOCK_FORMAT_VERSION, type IdeLock } from "./ideLock.js";
import { startMcpEndpoint, UNKNOWN_CLIENT, type McpConnection, type McpEndpoint, type McpEndpointOptions } from "./mcpHttp.js";
import { PROTOCOL_VERSION } from "./version.js";

const log = createLogger("listen");

export interface Listener {
  readonly endpoint: McpEndpoint;
  readonly lockFile: string | undefined;
  /** Why the lock file could not be written (agents cannot discover this core), if so. */
  readonly problem: string | undefined;
  /** The host named itself in `initialize`: the lock file says which IDE this core belongs to. */
  setHostInfo(info: { name: string; version?: string } | undefined): void;
  /** Rewrites the lock file (the workspace root or its directories changed). */
  refresh(): void;
}

export async function startListening(core: WaveCore, opts: { host: string; port: number; env?: NodeJS.ProcessEnv } & Pick<McpEndpointOptions, "sessionOptions">): Promise<Listener> {
  const client = (c: McpConnection) => c.session.client ?? { name: UNKNOWN_CLIENT };
  const endpoint = await startMcpEndpoint({
    core,
    host: opts.host,
    port: opts.port,
    sessionOptions: opts.sessionOptions,
    // The host shows each agent's session (a tab) from these; every call, task and permission
    // message of the agent carries the same sessionId.
    onOpened: (c) => core.events.emit("session/opened", { sessionId: c.session.id, client: client(c), cwd: c.session.cwd, transport: "mcp-http" }),
    onClosed: (c, reason) => core.events.emit("session/closed", { sessionId: c.session.id, client: client(c), reason }),
  });
  const dir = lockDir(opts.env);
  const startedAt = new Date().toISOString();
  let hostInfo: { name: string; version?: string } | undefined;
  let lockFile: string | undefined;
  let problem: string | undefined;
  let removed = false;

  const lock = (): IdeLock => ({
    pid: process.pid,
    url: endpoint.url,
    token: endpoint.token,
    workspaceFolders: core.workspace.allowedDirectories(),
    ...(hostInfo ? { ideName: hostInfo.name, ...(hostInfo.version ? { ideVersion: hostInfo.version } : {}) } : {}),
    protocolVersion: PROTOCOL_VERSION,
    startedAt,
    lockVersion: LOCK_FORMAT_VERSION,
  });
  const refresh = () => {
    if (removed) return;
    try {
      lockFile = writeLock(dir, lock());
      problem = undefined;
    } catch (err) {
      // The endpoint still works for clients given its URL and token; only discovery is lost.
      problem = `the lock file in ${dir} could not be written (${(err as Error).message}), so wave-core mcp --attach cannot find this core`;
      log.error(problem);
    }
  };
  const remove = () => {
    if (removed) return;
    removed = true;
    removeLock(dir, process.pid);
  };

  refresh();
  const unsubscribe = core.events.subscribe((method) => {
    if (method === "workspace/directoriesChanged") refresh();
  });
  // Removed before the sessions end, so no agent attaches to a core on its way out.
  process.once("exit", remove);
  core.onShutdownStart(async () => {
    unsubscribe();
    remove();
    await endpoint.close();
  });
  return {
    endpoint,
    get lockFile() {
      return lockFile;
    },
    get problem() {
      return problem;
    },
    setHostInfo: (info) => {
      hostInfo = info;
      refresh();
    },
    refresh,
  };
}
