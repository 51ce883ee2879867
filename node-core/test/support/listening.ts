// Listening cores (`serve --listen`) and agents attached to them (`mcp --attach`) for tests: each
// test gets its own WAVE_STATE_DIR, so cores of other tests are never found.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { stdioTransport } from "./mcpStdio.js";
import { scratchDir } from "./scratch.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import path from "node:path";
import { readLiveLocks, type IdeLock } from "../../src/protocol/ideLock.js";
import { BUNDLE, CoreProcess } from "./coreProcess.js";
import { waitFor } from "./processes.js";

export function stateDirForTest(): string {
  return scratchDir("wave-state-");
}

export interface ListeningCore {
  core: CoreProcess;
  lock: IdeLock;
  stateDir: string;
}

/**
 * `serve --root root --listen` with its lock file read back. `env` adds to the core's environment;
 * a `WAVE_STATE_DIR: undefined` there makes the core use its default (`$HOME/.wave`, give HOME).
 */
export async function startListeningCore(root: string, stateDir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ListeningCore> {
  const core = new CoreProcess(["serve", "--root", root, "--listen", ...args], { env: { WAVE_STATE_DIR: stateDir, ...env } });
  const lock = await waitFor(() => readLiveLocks(path.join(stateDir, "ide")).locks.find((l) => l.pid === core.child.pid), 15_000);
  if (!lock) throw new Error(`the core wrote no lock file; stderr:\n${core.stderr}`);
  return { core, lock, stateDir };
}

/** An SDK client straight on the core's Streamable HTTP endpoint, with its token. */
export async function httpClient(lock: IdeLock, name = "http-test-agent"): Promise<Client> {
  const client = new Client({ name, version: "1.2.3" });
  await client.connect(new StreamableHTTPClientTransport(new URL(lock.url), { requestInit: { headers: { authorization: `Bearer ${lock.token}` } } }));
  return client;
}

export interface AttachedAgent {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

/** `wave-core mcp --attach …` started by an SDK client from `cwd`, as an agent would. */
export async function attachedAgent(cwd: string, stateDir: string, opts: { args?: string[]; name?: string; capabilities?: ConstructorParameters<typeof Client>[1] } = {}): Promise<AttachedAgent> {
  const transport = stdioTransport({
    command: process.execPath,
    args: [BUNDLE, "mcp", "--attach", ...(opts.args ?? [])],
    cwd,
    env: { ...(process.env as Record<string, string>), WAVE_STATE_DIR: stateDir },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const client = new Client({ name: opts.name ?? "attached-test-agent", version: "4.5.6" }, opts.capabilities);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}
