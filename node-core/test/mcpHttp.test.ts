// `serve --listen`: the MCP endpoint on loopback, driven by the official SDK client over Streamable
// HTTP and by raw HTTP requests an attacker could send; and the discovery lock file.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CoreProcess } from "./support/coreProcess.js";
import { waitFor } from "./support/processes.js";
import { httpClient, startListeningCore, stateDirForTest, type ListeningCore } from "./support/listening.js";
import { makeWorkspace } from "./transcript.js";

const cores: CoreProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

async function listening(root = makeWorkspace(), args: string[] = []): Promise<ListeningCore & { root: string }> {
  const started = await startListeningCore(root, stateDirForTest(), args);
  cores.push(started.core);
  return { ...started, root };
}

async function client(lock: ListeningCore["lock"], name?: string): Promise<Client> {
  const c = await httpClient(lock, name);
  clients.push(c);
  return c;
}

interface RawResponse {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A request exactly as given (node:http lets a test set Host, as a rebinding attacker's browser does). */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? "POST", headers: opts.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on("error", reject);
    // A server that answers before reading the whole body (413) closes the connection: the rest of
    // the body then meets EPIPE on a socket the finished request no longer listens to.
    req.on("socket", (socket) => socket.on("error", () => undefined));
    req.end(opts.body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

const textOf = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>).map((c) => c.text).join("\n");

describe("MCP over Streamable HTTP (serve --listen)", () => {
  it("an SDK client with the token lists the tools and runs Bash, Read and Edit in a session of its own", async () => {
    const { core, lock, root } = await listening(undefined, ["--allow", "echo:*"]);
    const agent = await client(lock, "claude-code");
    expect(agent.getServerVersion()).toMatchObject({ name: "wave-core" });
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name)).toEqual(["Bash", "TaskStop", "Read", "Edit", "Write", "Glob", "Grep", "run_shell_command"]);

    const bash = await agent.callTool({ name: "Bash", arguments: { command: "echo hi from http" } });
    expect(bash.isError).toBe(false);
    expect(textOf(bash)).toBe("hi from http");
    const read = await agent.callTool({ name: "Read", arguments: { file_path: "notes.txt" } });
    expect(textOf(read)).toMatch(/^\s+1\thello from the workspace/);
    const edit = await agent.callTool({ name: "Edit", arguments: { file_path: "notes.txt", old_string: "hello from the workspace", new_string: "edited over http" } });
    expect(edit.isError).toBe(false);
    expect(readFileSync(path.join(root, "notes.txt"), "utf8")).toMatch(/^edited over http/);

    // The host saw the calls, in the agent's session, not in its own main session.
    const created = core.notifications("session/created").map((m) => m.params);
    expect(created).toHaveLength(1);
    const sessionId = created[0].sessionId as string;
    expect(sessionId).toMatch(/^mcp-/);
    const started = core.notifications("tool/started").map((m) => m.params);
    expect(started.map((p) => [p.name, p.sessionId])).toEqual([
      ["Bash", sessionId],
      ["Read", sessionId],
      ["Edit", sessionId],
    ]);
    expect(core.notifications("tool/finished").map((m) => m.params.sessionId)).toEqual([sessionId, sessionId, sessionId]);

    // Closing the connection ends the session.
    await agent.close();
    await core.waitFor((m) => m.method === "session/disposed" && m.params.sessionId === sessionId);
  });

  it("two agents get two sessions, each with its own working directory", async () => {
    const { core, lock } = await listening(undefined, ["--allow", "cd:*", "--allow", "pwd"]);
    const a = await client(lock, "agent-a");
    const b = await client(lock, "agent-b");
    await a.callTool({ name: "Bash", arguments: { command: "cd src" } });
    expect(textOf(await a.callTool({ name: "Bash", arguments: { command: "pwd" } }))).toMatch(/\/src$/);
    expect(textOf(await b.callTool({ name: "Bash", arguments: { command: "pwd" } }))).not.toMatch(/\/src$/);
    expect(new Set(core.notifications("session/created").map((m) => m.params.sessionId)).size).toBe(2);
  });

  it("a request without the token, or with a wrong one, gets 401 and nothing else", async () => {
    const { core, lock } = await listening();
    const without = await raw(lock.url, { headers: MCP_HEADERS, body: INITIALIZE });
    expect(without).toMatchObject({ status: 401, body: "" });
    expect(without.headers["mcp-session-id"]).toBeUndefined();
    const wrong = await raw(lock.url, { headers: { ...MCP_HEADERS, authorization: `Bearer ${"0".repeat(64)}` }, body: INITIALIZE });
    expect(wrong).toMatchObject({ status: 401, body: "" });
    const almost = await raw(lock.url, { headers: { ...MCP_HEADERS, authorization: `Bearer ${lock.token.slice(0, -1)}` }, body: INITIALIZE });
    expect(almost.status).toBe(401);
    const basic = await raw(lock.url, { headers: { ...MCP_HEADERS, authorization: `Basic ${lock.token}` }, body: INITIALIZE });
    expect(basic.status).toBe(401);
    // Other paths and methods are no way around it.
    expect((await raw(lock.url.replace("/mcp", "/"), { method: "GET" })).status).toBe(401);
    expect((await raw(lock.url, { method: "DELETE" })).status).toBe(401);
    // Nothing was opened.
    expect(core.notifications("session/created")).toEqual([]);
    // The token itself works, so the refusals were about the token.
    const ok = await raw(lock.url, { headers: { ...MCP_HEADERS, authorization: `Bearer ${lock.token}` }, body: INITIALIZE });
    expect(ok.status).toBe(200);
    expect(ok.headers["mcp-session-id"]).toEqual(expect.any(String));
  });

  it("a page from another origin gets 403 even with the token (a browser tab cannot drive the tools)", async () => {
    const { core, lock } = await listening();
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${lock.token}` };
    for (const origin of ["https://evil.example", "null", "http://127.0.0.1.evil.example:80"]) {
      const res = await raw(lock.url, { headers: { ...auth, origin }, body: INITIALIZE });
      expect(res.status, origin).toBe(403);
    }
    expect(core.notifications("session/created")).toEqual([]);
    const local = await raw(lock.url, { headers: { ...auth, origin: "http://localhost:3000" }, body: INITIALIZE });
    expect(local.status).toBe(200);
  });

  it("a Host header that is not our loopback address and port is refused (DNS rebinding)", async () => {
    const { core, lock } = await listening();
    const port = new URL(lock.url).port;
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${lock.token}` };
    for (const host of [`evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, "127.0.0.1", `attacker.127.0.0.1.nip.io:${port}`]) {
      const res = await raw(lock.url, { headers: { ...auth, host }, body: INITIALIZE });
      expect(res.status, host).toBe(421);
      expect(JSON.parse(res.body).error.message).toMatch(/Misdirected request/);
    }
    // Without the token as well: the rebinding check comes first and says nothing about tokens.
    expect((await raw(lock.url, { headers: { ...MCP_HEADERS, host: `evil.example:${port}` }, body: INITIALIZE })).status).toBe(421);
    expect(core.notifications("session/created")).toEqual([]);
    expect((await raw(lock.url, { headers: { ...auth, host: `localhost:${port}` }, body: INITIALIZE })).status).toBe(200);
  });

  it("a request body over the limit is refused with 413 and a message saying the limit; the server keeps serving", async () => {
    const { lock } = await listening();
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${lock.token}` };
    const huge = Buffer.alloc(64 * 1024 * 1024 + 1024, 0x20);
    const res = await raw(lock.url, { headers: auth, body: huge });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.message).toMatch(/Request body must not exceed 67108864 bytes/);
    const agent = await client(lock);
    expect((await agent.listTools()).tools.length).toBe(8);
  });

  it("a request body that is not UTF-8 is refused with a parse error for its id, not run with U+FFFD; the session keeps serving", async () => {
    const { core, lock, root } = await listening();
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${lock.token}` };
    const init = await raw(lock.url, { headers: auth, body: INITIALIZE });
    const session = init.headers["mcp-session-id"] as string;
    const inSession = { ...auth, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    await raw(lock.url, { headers: inSession, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"Write","arguments":{"file_path":"latin1.txt","content":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}}}'),
    ]);
    const res = await raw(lock.url, { headers: inSession, body });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: {
        code: -32700,
        message: `Parse error: the message is not valid UTF-8 (byte ${body.indexOf(0xe9)} of ${body.length}: e9 22 7d 7d), so it was not run. Send every message as UTF-8 text; write other characters as JSON escapes (\\u00e9).`,
      },
    });
    expect(existsSync(path.join(root, "latin1.txt"))).toBe(false);
    expect(core.notifications("tool/started")).toEqual([]);
    // The same session still runs a call sent as UTF-8.
    const ok = await raw(lock.url, { headers: inSession, body: body.toString("latin1").replace("caf\u00e9", "café") });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('"isError":false');
    expect(readFileSync(path.join(root, "latin1.txt"), "utf8")).toBe("café");
  });

  it("pushes a finished background task to the client as a log message (logger tasks)", async () => {
    const { lock } = await listening(undefined, ["--allow", "sleep:*"]);
    const agent = await client(lock);
    const messages: Array<Record<string, unknown>> = [];
    agent.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params as Record<string, unknown>));
    const started = await agent.callTool({ name: "Bash", arguments: { command: "sleep 0.2; exit 3", run_in_background: true } });
    const taskId = (started.structuredContent as { backgroundTaskId: string }).backgroundTaskId;
    const pushed = await waitFor(() => messages.find((m) => m.logger === "tasks"));
    expect(pushed).toMatchObject({ level: "notice", logger: "tasks" });
    expect(pushed!.data).toMatchObject({ taskId, status: "failed", exitCode: 3, signal: null, outputPath: expect.stringContaining(taskId) });
    expect((pushed!.data as { message: string }).message).toMatch(new RegExp(`^Background task ${taskId} failed \\(exit code 3\\)`));
  });
});

describe("the discovery lock file", () => {
  it("is 0600 in a 0700 folder, says where and for what the core listens, follows the host, and goes when the core ends", async () => {
    const { core, lock, root, stateDir } = await listening();
    const file = path.join(stateDir, "ide", `${core.child.pid}.json`);
    expect(statSync(path.join(stateDir, "ide")).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lock).toEqual({
      pid: core.child.pid,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      workspaceFolders: [root],
      protocolVersion: "2.0",
      startedAt: expect.any(String),
      lockVersion: 1,
    });

    await core.request("initialize", { hostInfo: { name: "IntelliJ IDEA", version: "2025.3" } });
    await core.request("workspace/addDirectory", { path: "/tmp" });
    const updated = JSON.parse(readFileSync(file, "utf8"));
    expect(updated).toMatchObject({ ideName: "IntelliJ IDEA", ideVersion: "2025.3", token: lock.token, url: lock.url });
    expect(updated.workspaceFolders[0]).toBe(root);
    expect(updated.workspaceFolders).toContain(realpathSync("/tmp"));

    await core.close();
    expect(existsSync(file)).toBe(false);
  });

  it("when it cannot be written the endpoint still serves, and initialize says why agents cannot find the core", async () => {
    const root = makeWorkspace();
    const notADir = path.join(stateDirForTest(), "state-is-a-file");
    writeFileSync(notADir, "");
    const core = new CoreProcess(["serve", "--root", root, "--listen"], { env: { WAVE_STATE_DIR: notADir } });
    cores.push(core);
    const init = await core.request("initialize", {});
    expect(init.result.agents).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/), lockFile: null });
    expect(init.result.agents.problem).toMatch(/the lock file in .*state-is-a-file\/ide could not be written .* so wave-core mcp --attach cannot find this core/);
    expect(core.stderr).toContain("cannot find this core");
  });

  it("is removed when the core is stopped by a signal", async () => {
    const { core, stateDir } = await listening();
    const file = path.join(stateDir, "ide", `${core.child.pid}.json`);
    core.child.kill("SIGTERM");
    await core.exited;
    expect(existsSync(file)).toBe(false);
  });

  it("a second core on the same port is refused with what to do", async () => {
    const { lock, root } = await listening();
    const port = new URL(lock.url).port;
    const second = new CoreProcess(["serve", "--root", root, "--listen", `127.0.0.1:${port}`], {
      env: { WAVE_STATE_DIR: stateDirForTest() },
    });
    expect((await second.exited).code).toBe(2);
    expect(second.stderr).toContain(`--listen 127.0.0.1:${port}: the port is in use; use port 0 to pick a free one.`);
  });

  it("--listen refuses a non-loopback address before starting anything", async () => {
    const stateDir = stateDirForTest();
    const core = new CoreProcess(["serve", "--listen", "0.0.0.0:0"], { env: { WAVE_STATE_DIR: stateDir } });
    expect((await core.exited).code).toBe(2);
    expect(core.stderr).toMatch(/only listens on a loopback address/);
    expect(existsSync(path.join(stateDir, "ide"))).toBe(false);
  });
});
