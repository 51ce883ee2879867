// A test client for the bundled core: starts `node dist/wave-core.js <args>`, speaks line-delimited
// JSON-RPC, and lets tests wait for responses and notifications.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach } from "vitest";
import { assertErrorKind, assertSummaryErrorKind } from "./errorKinds.js";
import { scratchDir } from "./scratch.js";
import { assertOnWire } from "./wire.js";

export const BUNDLE = path.resolve(__dirname, "..", "..", "dist", "wave-core.js");

export function bundleExists(): boolean {
  return existsSync(BUNDLE);
}

/**
 * A copy of the bundle an unprivileged user can load, for tests that run the core as `nobody`:
 * the checkout itself may sit below a directory only its owner can enter (a `mktemp -d` clone).
 */
export function bundleForAnyUser(): string {
  const dir = scratchDir("wave-bundle-");
  chmodSync(dir, 0o755);
  const copy = path.join(dir, "wave-core.js");
  copyFileSync(BUNDLE, copy);
  chmodSync(copy, 0o644);
  return copy;
}

/**
 * What a test file that runs bundled cores as root and as the test account keeps: the cores it
 * started, killed after each test, the folders it made and the bundle copy, removed when it ends.
 */
export function bundledCoreLab(): { cores: CoreProcess[]; dirs: string[]; bundle: string } {
  const lab = { cores: [] as CoreProcess[], dirs: [] as string[], bundle: bundleForAnyUser() };
  afterEach(() => {
    for (const c of lab.cores.splice(0)) c.kill();
  });
  afterAll(() => {
    for (const d of lab.dirs) rmSync(d, { recursive: true, force: true });
    rmSync(path.dirname(lab.bundle), { recursive: true, force: true });
  });
  return lab;
}

export interface Message {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: any };
}

export class CoreProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: Message[] = [];
  stderr = "";
  /** Everything written to stdout, as written. */
  stdout = "";
  private buffer = "";
  private waiters: Array<{ match: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  private nextId = 1;
  /** The method of each request sent, by id: its response is checked against that method's result schema. */
  private readonly sentMethods = new Map<string | number, string>();
  /** `serve` speaks the host protocol, whose schema every message is checked against; `mcp` speaks MCP. */
  private readonly hostProtocol: boolean;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /**
   * `env` adds to (or, with `undefined` values, removes from) the test's own environment;
   * `inheritEnv: false` makes it the whole environment instead.
   */
  constructor(
    args: string[] = ["serve"],
    opts: {
      cwd?: string;
      env?: NodeJS.ProcessEnv;
      inheritEnv?: boolean;
      /** Another copy of the bundle to run. */
      bundle?: string;
      /** Rewrites the whole command line, e.g. to start the core under `setpriv` or `ulimit`. */
      wrap?: (argv: string[]) => string[];
    } = {},
  ) {
    this.hostProtocol = args[0] === "serve";
    const env = opts.inheritEnv === false ? { ...opts.env } : { ...process.env, ...opts.env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const argv = [process.execPath, opts.bundle ?? BUNDLE, ...args];
    const [command, ...rest] = opts.wrap ? opts.wrap(argv) : argv;
    this.child = spawn(command!, rest, {
      cwd: opts.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (d: string) => this.onData(d));
    this.child.stderr.on("data", (d: string) => (this.stderr += d));
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
  }

  private onData(data: string): void {
    this.stdout += data;
    this.buffer += data;
    let nl: number;
    while ((nl = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let msg: Message;
      try {
        msg = JSON.parse(line);
      } catch {
        throw new Error(`core wrote a non-JSON line to stdout: ${line}`);
      }
      this.received.push(msg);
      // A tools/call (or calls/result) response, and tool/finished's summary of one.
      assertErrorKind(msg.result, `response ${String(msg.id)}`);
      if (msg.method === "tool/finished") assertSummaryErrorKind(msg.params, `tool/finished ${String(msg.params?.callId)}`);
      // Every message fits the protocol's schema (test/support/wire.ts).
      if (this.hostProtocol) assertOnWire(msg, (id) => this.sentMethods.get(id));
      const i = this.waiters.findIndex((w) => w.match(msg));
      if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(msg);
    }
  }

  sendRaw(line: string): void {
    this.child.stdin.write(line.endsWith("\n") ? line : line + "\n");
  }

  /** Bytes exactly as given (a line that is not UTF-8, say), then a newline. */
  sendBytes(bytes: Buffer): void {
    this.child.stdin.write(Buffer.concat([bytes, Buffer.from("\n")]));
  }

  send(message: object): void {
    const m = message as { id?: unknown; method?: unknown };
    if ((typeof m.id === "string" || typeof m.id === "number") && typeof m.method === "string") this.sentMethods.set(m.id, m.method);
    this.sendRaw(JSON.stringify(message));
  }

  /** Sends a request and resolves with its response (result or error). */
  request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<Message> {
    const response = this.waitFor((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
    this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return response;
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** Resolves with the first message (already received or future) that matches. */
  waitFor(match: (m: Message) => boolean, timeoutMs = 15_000): Promise<Message> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`timed out waiting for a message; received so far:\n${this.received.map((m) => JSON.stringify(m)).join("\n")}\nstderr:\n${this.stderr}`));
      }, timeoutMs);
      const done = (m: Message) => {
        clearTimeout(timer);
        resolve(m);
      };
      this.waiters.push({ match, resolve: done });
    });
  }

  notifications(method: string): Message[] {
    return this.received.filter((m) => m.method === method && m.id === undefined);
  }

  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}

/** Ends every core of `list` (and empties it): stdin closed, SIGKILL after five seconds. */
export async function stopCores(list: CoreProcess[]): Promise<void> {
  for (const c of list.splice(0)) {
    if (c.child.exitCode === null && c.child.signalCode === null) {
      c.child.stdin!.end();
      await Promise.race([c.exited, new Promise((r) => setTimeout(r, 5000))]);
      if (c.child.exitCode === null) c.child.kill("SIGKILL");
    }
  }
}
