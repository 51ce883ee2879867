// The path every gated tool takes: tools/call → WaveCore.callTool → the tool's `permission` →
// ctx.checkPermission → PermissionService → the host's `permission/request` over real JSON-RPC
// lines (the host protocol server in-process) → the answer → run, or a denied result.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { WaveCore } from "../core/runtime.js";
import { defineTool, textResult, type ToolDefinition } from "../core/tool.js";
import { createHostServer, type HostServer } from "../protocol/hostServer.js";
import { scratchDir } from "../../test/support/scratch.js";
import { assertOnWire } from "../../test/support/wire.js";

/** Creates the file `marker` when it runs: the proof that a denied call left nothing behind. */
const probeTool = defineTool({
  name: "Probe",
  description: "Runs nothing; creates its marker file when allowed.",
  inputSchema: z.strictObject({ command: z.string(), marker: z.string(), description: z.string().optional() }),
  permission: (input) => ({ tool: "Probe", command: input.command, description: input.description }),
  run: async (input) => {
    writeFileSync(input.marker, "ran");
    return textResult("ran");
  },
});

type Msg = { id?: string | number; method?: string; params?: any; result?: any; error?: any };
type Answer = ((params: any) => unknown) | "never";

class InProcessHost {
  readonly core: WaveCore;
  readonly server: HostServer;
  readonly received: Msg[] = [];
  answer: Answer = "never";
  private waiters: Array<{ match: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
  private nextId = 1;
  private readonly sentMethods = new Map<string | number, string>();

  constructor(root: string) {
    this.core = new WaveCore({ root, tools: [probeTool as ToolDefinition] });
    this.server = createHostServer({ core: this.core, write: (line) => this.onLine(line), onExit: () => {} });
  }

  private onLine(line: string): void {
    const msg = JSON.parse(line) as Msg;
    this.received.push(msg);
    // Every message fits the protocol's schema (test/support/wire.ts).
    assertOnWire(msg, (id) => this.sentMethods.get(id));
    if (msg.method === "permission/request" && msg.id !== undefined && this.answer !== "never") {
      const reply = this.answer(msg.params);
      this.send(reply instanceof Error ? { jsonrpc: "2.0", id: msg.id, error: { code: -32000, message: reply.message } } : { jsonrpc: "2.0", id: msg.id, result: reply });
    }
    const i = this.waiters.findIndex((w) => w.match(msg));
    if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(msg);
  }

  send(msg: object): void {
    const m = msg as Msg;
    if (m.id !== undefined && m.method !== undefined) this.sentMethods.set(m.id, m.method);
    this.server.push(Buffer.from(JSON.stringify(msg) + "\n"));
  }

  waitFor(match: (m: Msg) => boolean): Promise<Msg> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  async request(method: string, params: unknown): Promise<Msg> {
    const id = this.nextId++;
    const reply = this.waitFor((m) => m.id === id && (m.result !== undefined || m.error !== undefined));
    this.send({ jsonrpc: "2.0", id, method, params });
    return reply;
  }

  requestsFor(method: string): Msg[] {
    return this.received.filter((m) => m.method === method && m.id !== undefined);
  }

  notifications(method: string): Msg[] {
    return this.received.filter((m) => m.method === method && m.id === undefined);
  }
}

const hosts: InProcessHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.core.shutdown();
});

async function start(capable = true): Promise<{ host: InProcessHost; root: string; marker: string }> {
  const root = scratchDir("wave-gate-");
  const host = new InProcessHost(root);
  hosts.push(host);
  const init = await host.request("initialize", capable ? { capabilities: { permissionRequests: true } } : {});
  expect(init.result.capabilities.permissionRequests).toBe(true);
  return { host, root, marker: path.join(root, "ran.txt") };
}

describe("tool calls gated by the permission layer (host protocol)", () => {
  it("asks the host with a preview, runs once on allow-once, and reports the decision", async () => {
    const { host, root, marker } = await start();
    host.answer = () => ({ decision: "allow-once" });
    const res = await host.request("tools/call", { name: "Probe", arguments: { command: "whoami && git fetch", marker, description: "who am I" }, callId: "c1" });
    expect(res.result).toMatchObject({ isError: false, content: [{ type: "text", text: "ran" }] });
    expect(existsSync(marker)).toBe(true);
    const [ask] = host.requestsFor("permission/request");
    expect(ask!.id).toMatch(/^core-/);
    expect(ask!.params).toMatchObject({
      callId: "c1",
      sessionId: "main",
      tool: "Probe",
      kind: "command",
      command: "whoami && git fetch",
      description: "who am I",
      directory: root,
      warnings: [],
      suggestedRules: ["whoami:*", "git fetch:*"],
      timeoutMs: 600000,
    });
    expect(ask!.params.parts.map((p: any) => p.text)).toEqual(["whoami", "git fetch"]);
    expect(host.notifications("permission/decided")[0]!.params).toMatchObject({ callId: "c1", outcome: "allow", asked: true, answer: "allow-once" });
    // Allow-once remembers nothing: the next call asks again.
    await host.request("tools/call", { name: "Probe", arguments: { command: "whoami && git fetch", marker } });
    expect(host.requestsFor("permission/request")).toHaveLength(2);
  });

  it("a denied call never runs, and the model reads why", async () => {
    const { host, marker } = await start();
    host.answer = () => ({ decision: "deny", message: "not on this machine" });
    const res = await host.request("tools/call", { name: "Probe", arguments: { command: "rm -rf ~", marker } });
    expect(res.result.isError).toBe(true);
    expect(res.result.structuredContent).toMatchObject({ errorKind: "denied_by_user", warnings: [{ id: "delete-outside-workspace" }] });
    expect(res.result.content[0].text).toMatch(/^Permission denied: the user did not allow Probe to run `rm -rf ~`\. The user said: not on this machine\./);
    expect(existsSync(marker)).toBe(false);
    expect(host.requestsFor("permission/request")[0]!.params.warnings[0].message).toMatch(/home directory/);
  });

  it("always-allow remembers the (edited) rule, tells the host, and stops asking", async () => {
    const { host, marker } = await start();
    host.answer = () => ({ decision: "always-allow", rules: ["npm run test:*"] });
    const first = await host.request("tools/call", { name: "Probe", arguments: { command: "npm run test:unit", marker } });
    expect(first.result.isError).toBe(false);
    expect(host.notifications("permission/rulesChanged")[0]!.params).toEqual({
      mode: "ask",
      allow: ["npm run test:*"],
      deny: [],
      change: { type: "always-allow", kind: "allow", rules: ["npm run test:*"] },
    });
    host.answer = "never";
    const second = await host.request("tools/call", { name: "Probe", arguments: { command: "npm run test:e2e -- --ci", marker } });
    expect(second.result.isError).toBe(false);
    expect(host.requestsFor("permission/request")).toHaveLength(1);
    const list = await host.request("permissions/list", {});
    expect(list.result.allow).toEqual([{ rule: "npm run test:*", source: "host" }]);
  });

  it("cancelling the call while it waits takes the question down and runs nothing", async () => {
    const { host, marker } = await start();
    const call = host.request("tools/call", { name: "Probe", arguments: { command: "whoami", marker } });
    const ask = await host.waitFor((m) => m.method === "permission/request");
    const callId = host.received.find((m) => m.method === "tools/call")?.id ?? 2;
    host.send({ jsonrpc: "2.0", method: "$/cancelRequest", params: { id: callId } });
    const res = await call;
    expect(res.result).toMatchObject({ isError: true, structuredContent: { errorKind: "aborted", interrupted: true } });
    expect(res.result.content[0].text).toMatch(/cancelled while waiting for permission/);
    await host.waitFor((m) => m.method === "$/cancelRequest" && m.params?.id === ask.id);
    expect(existsSync(marker)).toBe(false);
  });

  it("without the capability the core cannot ask: the call is denied with how to allow it", async () => {
    const { host, marker } = await start(false);
    const res = await host.request("tools/call", { name: "Probe", arguments: { command: "make deploy", marker } });
    expect(res.result.isError).toBe(true);
    expect(res.result.content[0].text).toMatch(/capabilities\.permissionRequests/);
    expect(res.result.content[0].text).toContain('add "make:*" with permissions/addRule');
    expect(host.requestsFor("permission/request")).toHaveLength(0);
    expect(existsSync(marker)).toBe(false);
    // Rules and modes the host sets still decide.
    await host.request("permissions/addRule", { rule: "make:*" });
    expect((await host.request("tools/call", { name: "Probe", arguments: { command: "make deploy", marker } })).result.isError).toBe(false);
  });

  it("a tool without a permission need runs as before", async () => {
    const root = scratchDir("wave-gate-");
    const free = defineTool({ name: "Free", description: "x", inputSchema: z.strictObject({}), run: async () => textResult("ok") });
    const core = new WaveCore({ root, tools: [free as ToolDefinition], permissions: { mode: "deny-all", allow: [], deny: [] } });
    expect((await core.callTool({ name: "Free", arguments: {}, origin: "cli" })).isError).toBe(false);
    await core.shutdown();
  });
});
