// `wave-core mcp --attach`: an SDK client on stdio, as an agent starts it, reaching the listening
// core whose workspace contains its directory, or a local core when there is none.
import { LoggingMessageNotificationSchema, ElicitRequestSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureLockDir, writeLock, type IdeLock } from "../src/protocol/ideLock.js";
import { BUNDLE, type CoreProcess } from "./support/coreProcess.js";
import { isAlive, NO_SUCH_PID, processesOfCore, waitFor } from "./support/processes.js";
import { attachedAgent, startListeningCore, stateDirForTest, type AttachedAgent, type ListeningCore } from "./support/listening.js";
import { makeWorkspace } from "./transcript.js";

const cores: CoreProcess[] = [];
const agents: AttachedAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.client.close().catch(() => {})));
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

async function listening(root: string, stateDir: string, args: string[] = []): Promise<ListeningCore> {
  const started = await startListeningCore(root, stateDir, args);
  cores.push(started.core);
  return started;
}

async function agent(cwd: string, stateDir: string, opts: Parameters<typeof attachedAgent>[2] = {}): Promise<AttachedAgent> {
  const a = await attachedAgent(cwd, stateDir, opts);
  agents.push(a);
  return a;
}

/** A lock file for a core that is not there: the more specific folder, so attach would pick it first. */
const fakeLock = (pid: number, url: string, folder: string): IdeLock => ({
  pid,
  url,
  token: "0".repeat(64),
  workspaceFolders: [folder],
  protocolVersion: "2.0",
  startedAt: new Date().toISOString(),
  lockVersion: 1,
});

const textOf = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>).map((c) => c.text).join("\n");

describe("mcp --attach", () => {
  it("reaches the core whose workspace folder is the most specific one containing the directory", async () => {
    const repo = makeWorkspace();
    const service = path.join(repo, "service");
    mkdirSync(path.join(service, "src"), { recursive: true });
    mkdirSync(path.join(repo, "docs"));
    const stateDir = stateDirForTest();
    const outer = await listening(repo, stateDir, ["--allow", "pwd"]);
    const inner = await listening(service, stateDir, ["--allow", "pwd"]);

    const deep = await agent(path.join(service, "src"), stateDir, { name: "deep-agent" });
    expect(textOf(await deep.client.callTool({ name: "Bash", arguments: { command: "pwd" } }))).toBe(path.join(service, "src"));
    expect(inner.core.notifications("tool/started")).toHaveLength(1);
    expect(outer.core.notifications("tool/started")).toHaveLength(0);
    expect(deep.stderr()).toContain(`attached to an IDE (core pid ${inner.core.child.pid}) for ${service}`);

    const docs = await agent(path.join(repo, "docs"), stateDir, { name: "docs-agent" });
    await docs.client.callTool({ name: "Bash", arguments: { command: "pwd" } });
    expect(outer.core.notifications("tool/started")).toHaveLength(1);

    // --root overrides the current directory.
    const rooted = await agent(path.join(repo, "docs"), stateDir, { args: ["--root", service] });
    await rooted.client.callTool({ name: "Bash", arguments: { command: "pwd" } });
    expect(inner.core.notifications("tool/started")).toHaveLength(2);
  });

  it("passes progress, log messages and elicitation through unchanged", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await listening(root, stateDir);
    const asked: string[] = [];
    const a = await agent(root, stateDir, { capabilities: { capabilities: { elicitation: { form: {} } } } });
    a.client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: "accept", content: { decision: "allow-once" } };
    });
    const logs: Array<Record<string, unknown>> = [];
    a.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params as Record<string, unknown>));

    // Elicitation: the core asks the agent (this host declared no permission answers) about a
    // command that would run outside the IDE core's sandbox (inside it nothing is asked).
    const touched = await a.client.callTool({ name: "Bash", arguments: { command: "touch made-by-agent.txt", dangerouslyDisableSandbox: true } });
    expect(touched.isError).toBe(false);
    expect(asked[0]).toContain("Bash wants to run:\n  touch made-by-agent.txt");
    expect(existsSync(path.join(root, "made-by-agent.txt"))).toBe(true);
    expect((await waitFor(() => logs.find((l) => l.logger === "permissions")))?.data).toMatchObject({ command: "touch made-by-agent.txt", asked: true });

    // Progress for the agent's own token.
    const updates: Progress[] = [];
    const result = await a.client.callTool({ name: "run_shell_command", arguments: { command: "for i in $(seq 1 30); do echo tick$i; sleep 0.05; done" } }, undefined, {
      onprogress: (p) => void updates.push(p),
    });
    expect(result.structuredContent).toMatchObject({ stdout: expect.stringContaining("tick30"), sandboxed: true });
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates[0]!.message).toMatch(/tick\d+/);
    // The host saw both calls.
    expect(core.notifications("tool/finished").map((m) => m.params.name)).toEqual(["Bash", "run_shell_command"]);
  });

  it("cancellation from the agent stops the command in the IDE's core", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await listening(root, stateDir, ["--allow", "sleep:*"]);
    const a = await agent(root, stateDir);
    const controller = new AbortController();
    const call = a.client.callTool({ name: "Bash", arguments: { command: "sleep 300" } }, undefined, { signal: controller.signal });
    const started = await core.waitFor((m) => m.method === "tool/started");
    const sessionId = started.params.sessionId as string;
    expect(await waitFor(() => processesOfCore(core.child.pid).some((p) => p.command.includes("sleep 300")))).toBe(true);
    controller.abort("user pressed Esc");
    await expect(call).rejects.toThrow();
    const finished = await core.waitFor((m) => m.method === "tool/finished" && m.params.sessionId === sessionId);
    expect(finished.params.summary.fields).toMatchObject({ interrupted: true });
    // The IDE did not make the call; it asks for the whole result.
    const whole = await core.request("calls/result", { callId: finished.params.callId });
    expect(whole.result.structuredContent).toMatchObject({ interrupted: true });
    expect(processesOfCore(core.child.pid).filter((p) => p.command.includes("sleep 300"))).toEqual([]);
    // The connection still works.
    expect((await a.client.listTools()).tools).toHaveLength(8);
  });

  it("the agent's exit ends its session in the core and stops its background tasks", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await listening(root, stateDir, ["--allow", "sleep:*"]);
    const a = await attachedAgent(root, stateDir);
    const bg = await a.client.callTool({ name: "Bash", arguments: { command: "sleep 300", run_in_background: true } });
    const taskId = (bg.structuredContent as { backgroundTaskId: string }).backgroundTaskId;
    const sessionId = (await core.waitFor((m) => m.method === "task/started")).params.task.sessionId as string;
    const pid = (await core.request("tasks/list", {})).result.tasks.find((t: { taskId: string }) => t.taskId === taskId).pid as number;
    expect(isAlive(pid)).toBe(true);
    // An agent that is killed never says goodbye: its event stream closing is what the core sees.
    a.transport.pid && process.kill(a.transport.pid, "SIGKILL");
    await core.waitFor((m) => m.method === "session/disposed" && m.params.sessionId === sessionId, 20_000);
    expect(isAlive(pid)).toBe(false);
    expect((await core.waitFor((m) => m.method === "session/closed")).params.reason).toMatch(/^the agent went away/);
    await a.client.close().catch(() => {});
  });

  it("ignores and removes a stale lock file, even a more specific one", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await listening(root, stateDir, ["--allow", "pwd"]);
    const dead = NO_SUCH_PID;
    const stale = writeLock(path.join(stateDir, "ide"), fakeLock(dead, "http://127.0.0.1:9/mcp", path.join(root, "src")));
    const a = await agent(path.join(root, "src"), stateDir);
    await a.client.callTool({ name: "Bash", arguments: { command: "pwd" } });
    expect(core.notifications("tool/started")).toHaveLength(1);
    expect(existsSync(stale)).toBe(false);
  });

  it("passes over a live process whose endpoint does not answer, and says why", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await listening(root, stateDir, ["--allow", "pwd"]);
    ensureLockDir(path.join(stateDir, "ide"));
    // A lock naming a live pid (ours) but a port nobody listens on: pid reuse, or a hung IDE.
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    writeLock(path.join(stateDir, "ide"), fakeLock(process.pid, `http://127.0.0.1:${closedPort}/mcp`, path.join(root, "src")));
    const a = await agent(path.join(root, "src"), stateDir);
    await a.client.callTool({ name: "Bash", arguments: { command: "pwd" } });
    expect(core.notifications("tool/started")).toHaveLength(1);
    expect(a.stderr()).toMatch(/wave-core: passed over an IDE \(core pid \d+\) for .*\/src: it did not answer \(ECONNREFUSED\)/);
  });

  it("with no live core it runs a local core, as wave-core mcp does, and says so", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const a = await agent(root, stateDir, { args: ["--allow", "pwd"] });
    expect(textOf(await a.client.callTool({ name: "Bash", arguments: { command: "pwd" } }))).toBe(root);
    expect(a.stderr()).toContain(`wave-core: no IDE core serves ${root}; running a local core, as wave-core mcp does`);
  });

  it("--sandbox options loosen nothing for attached calls (the IDE core's sandbox holds); a local fallback core honours them", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    await listening(root, stateDir);
    const attached = await agent(root, stateDir, { args: ["--sandbox", "off", "--permission-mode", "allow-all"] });
    const inIde = await attached.client.callTool({ name: "Bash", arguments: { command: "echo attached" } });
    expect(inIde.structuredContent).toMatchObject({ output: "attached\n", sandboxed: true });
    expect(attached.stderr()).toContain("--sandbox and --sandbox-network apply only to a local core; the IDE's settings (its sandbox included) decide for its core.");

    const alone = makeWorkspace();
    const local = await agent(alone, stateDirForTest(), { args: ["--sandbox", "off"] });
    const unsandboxed = await local.client.callTool({ name: "Bash", arguments: { command: "echo local" } });
    expect(unsandboxed.structuredContent).toMatchObject({ sandboxed: false });
    expect(textOf(unsandboxed)).toBe("local\nRan outside the sandbox: sandbox mode is off.");
  });

  it("a bad --sandbox or permission option with --attach is a usage error at once, whether or not an IDE core serves the directory", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    await listening(root, stateDir);
    for (const [args, message] of [
      [["--sandbox", "sometimes"], 'Unknown sandbox mode "sometimes"; use --sandbox auto|on|off.'],
      [["--sandbox-network", "some"], 'Unknown sandbox network setting "some"; use --sandbox-network allow|deny.'],
      [["--permission-mode", "maybe"], "maybe"],
    ] as const) {
      const run = spawnSync(process.execPath, [BUNDLE, "mcp", "--attach", ...args], { cwd: root, env: { ...process.env, WAVE_STATE_DIR: stateDir }, encoding: "utf8", input: "" });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe("");
    }
  });

  it("answers a line that is not JSON, one over the 10 MiB limit and one that is not UTF-8, as wave-core mcp does, and keeps relaying", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await listening(root, stateDir);
    const proxy = spawn(process.execPath, [BUNDLE, "mcp", "--attach"], { cwd: root, env: { ...process.env, WAVE_STATE_DIR: stateDir }, stdio: ["pipe", "pipe", "pipe"] });
    const lines: Array<Record<string, any>> = [];
    let buffer = "";
    proxy.stdout.setEncoding("utf8");
    proxy.stdout.on("data", (d: string) => {
      buffer += d;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        lines.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
    });
    try {
      proxy.stdin.write("this is not json\n");
      const huge = JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { name: "Write", arguments: { file_path: "big.txt", content: "x".repeat(11 * 1024 * 1024) } }, id: 9 });
      proxy.stdin.write(huge + "\n");
      proxy.stdin.write(
        Buffer.concat([
          Buffer.from('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"Write","arguments":{"file_path":"big.txt","content":"'),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('"}}}\n'),
        ]),
      );
      proxy.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) + "\n");
      expect(await waitFor(() => lines.length >= 4, 20_000)).toBe(true);
      expect(lines[0]).toMatchObject({ id: null, error: { code: -32700 } });
      expect(lines[1]).toMatchObject({ id: 9, error: { code: -32600, message: expect.stringMatching(/^Message too large: a line of \d+ bytes exceeds the 10 MiB limit/) } });
      expect(lines[2]).toMatchObject({ id: 10, error: { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid UTF-8 \(byte \d+ of \d+: c3 28 22 7d\)/) } });
      expect(lines[3]).toMatchObject({ id: 1, result: { serverInfo: { name: "wave-core" } } });
      expect(existsSync(path.join(root, "big.txt"))).toBe(false);
      expect(core.notifications("tool/started")).toEqual([]);
    } finally {
      proxy.stdin.end();
      await new Promise((r) => proxy.once("exit", r));
    }
  });

  it("--attach=required fails without a live core, saying what to do", () => {
    const root = makeWorkspace();
    const run = spawnSync(process.execPath, [BUNDLE, "mcp", "--attach=required"], { cwd: root, env: { ...process.env, WAVE_STATE_DIR: stateDirForTest() }, encoding: "utf8", input: "" });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain(`wave-core: no IDE core serves ${root}. Open this folder (or a parent) as a project in the IDE with the Wave Tools plugin`);
    expect(run.stdout).toBe("");
    const bad = spawnSync(process.execPath, [BUNDLE, "mcp", "--attach=maybe"], { cwd: root, encoding: "utf8", input: "" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--attach=maybe: use --attach or --attach=required.");
  });

  it("when the IDE's core dies mid-call, the call fails with a message and the next one re-attaches", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const first = await listening(root, stateDir, ["--allow", "sleep:*", "--allow", "pwd"]);
    const a = await agent(root, stateDir);
    // The rejection is taken as soon as it comes (it may come while the test waits for the exit).
    const call = a.client.callTool({ name: "Bash", arguments: { command: "sleep 300" } }).then(
      () => undefined,
      (err: Error) => err,
    );
    await first.core.waitFor((m) => m.method === "tool/started");
    first.core.kill();
    await first.core.exited;
    const failed = await call;
    expect(failed?.message).toMatch(/The Wave core this agent was attached to \(an IDE \(core pid \d+\)\) ended before it answered tools\/call/);
    // The IDE restarts its core: the agent's next request finds it without being reconfigured.
    const second = await listening(root, stateDir, ["--allow", "pwd"]);
    expect(textOf(await a.client.callTool({ name: "Bash", arguments: { command: "pwd" } }))).toBe(root);
    expect(second.core.notifications("tool/started")).toHaveLength(1);
    expect(a.stderr()).toContain(`re-attached to an IDE (core pid ${second.core.child.pid})`);
  });
});
