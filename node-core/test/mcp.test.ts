// `wave-core mcp` driven by the official MCP TypeScript SDK client — a real client we did not write.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { stdioTransport } from "./support/mcpStdio.js";
import { ElicitRequestSchema, McpError, type ElicitRequestFormParams, type ElicitResult, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE, CoreProcess } from "./support/coreProcess.js";
import { processesOfCore } from "./support/processes.js";
import { makeWorkspace } from "./transcript.js";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(root: string, opts: { args?: string[]; answer?: (params: ElicitRequestFormParams) => ElicitResult } = {}): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = stdioTransport({ command: process.execPath, args: [BUNDLE, "mcp", "--root", root, ...(opts.args ?? [])], stderr: "pipe" });
  client = new Client({ name: "wave-test-client", version: "1.0.0" }, { capabilities: opts.answer ? { elicitation: { form: {} } } : {} });
  const answer = opts.answer;
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (req) => answer(req.params as ElicitRequestFormParams));
  await client.connect(transport);
  return { client, transport };
}

const textOf = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>).map((c) => c.text).join("\n");

describe("MCP server (official SDK client)", () => {
  it("initializes, lists the tools with JSON Schemas, and calls one", async () => {
    const root = makeWorkspace();
    const { client } = await connect(root);
    expect(client.getServerVersion()).toMatchObject({ name: "wave-core" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();

    const { tools } = await client.listTools();
    const read = tools.find((t) => t.name === "Read");
    expect(read?.inputSchema).toMatchObject({ type: "object", required: ["file_path"], additionalProperties: false });
    expect(read?.description).toMatch(/cat -n/);

    const result = await client.callTool({ name: "Read", arguments: { file_path: "notes.txt" } });
    expect(result.isError).toBe(false);
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^\s+1\thello from the workspace/);
    expect(result.structuredContent).toMatchObject({ filePath: `${root}/notes.txt`, totalLines: 3 });
  });

  it("answers an unknown tool with an MCP error, and invalid arguments with a readable tool error", async () => {
    const { client } = await connect(makeWorkspace());
    const err = await client.callTool({ name: "NoSuchTool", arguments: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    expect((err as McpError).message).toMatch(/Unknown tool "NoSuchTool"/);
    expect((err as McpError).message).not.toContain("Did you mean");
    // A model that lower-cases a name is told the one it meant.
    const lower = await client.callTool({ name: "bash", arguments: { command: "true" } }).catch((e: unknown) => e);
    expect((lower as McpError).message).toContain('Unknown tool "bash". Did you mean Bash? Tool names are case-sensitive.');

    const bad = await client.callTool({ name: "Read", arguments: { file_path: 12 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as Array<{ text: string }>)[0]!.text).toMatch(/file_path/);
    expect(bad.structuredContent).toMatchObject({ errorKind: "invalid_argument", issues: [{ path: ["file_path"] }] });

    // The connection is still usable afterwards.
    const ok = await client.callTool({ name: "Read", arguments: { file_path: "src/answer.ts" } });
    expect(ok.isError).toBe(false);
  });

  it("exits when the client closes the connection", async () => {
    const { client, transport } = await connect(makeWorkspace());
    const pid = transport.pid!;
    expect(pid).toBeGreaterThan(0);
    await client.close();
    const deadline = Date.now() + 10_000;
    let alive = true;
    while (alive && Date.now() < deadline) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  });
});

// Without a sandbox (--sandbox off): inside one, these commands would run without a question.
describe("permissions over MCP with the real tools (official SDK client)", () => {
  it("elicitation: the client's answer decides whether a real Bash command runs", async () => {
    const root = makeWorkspace();
    const asked: ElicitRequestFormParams[] = [];
    let decision: ElicitResult = { action: "accept", content: { decision: "allow-once" } };
    const { client, transport } = await connect(root, {
      args: ["--sandbox", "off"],
      answer: (params) => {
        asked.push(params);
        return decision;
      },
    });
    const ok = await client.callTool({ name: "Bash", arguments: { command: "touch allowed.txt", description: "make a file" } });
    expect(ok.isError).toBe(false);
    expect(existsSync(path.join(root, "allowed.txt"))).toBe(true);
    expect(asked[0]!.message).toContain("Bash wants to run:\n  touch allowed.txt");
    expect(asked[0]!.message).toContain("Purpose: make a file");
    expect((asked[0]!.requestedSchema.properties.rules as { default: string }).default).toBe("touch:*");

    decision = { action: "decline" };
    const no = await client.callTool({ name: "Bash", arguments: { command: "sleep 300 & touch declined.txt" } });
    expect(no.isError).toBe(true);
    expect(textOf(no)).toMatch(/^Permission denied: the user did not allow Bash to run `sleep 300 & touch declined\.txt`\. The user said: The user declined\./);
    expect(existsSync(path.join(root, "declined.txt"))).toBe(false);
    expect(processesOfCore(transport.pid)).toEqual([]);

    decision = { action: "accept", content: { decision: "always-allow", rules: "touch:*" } };
    expect((await client.callTool({ name: "Bash", arguments: { command: "touch a.txt" } })).isError).toBe(false);
    expect((await client.callTool({ name: "Bash", arguments: { command: "touch b.txt" } })).isError).toBe(false);
    expect(asked).toHaveLength(3);
  });

  it("without elicitation a command is denied with the --allow rule to add; --allow then lets it run", async () => {
    const root = makeWorkspace();
    const first = await connect(root, { args: ["--sandbox", "off"] });
    const denied = await first.client.callTool({ name: "Bash", arguments: { command: "touch made.txt" } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain(
      "this MCP client does not support elicitation. It did not run. To allow it, the user can start wave-core mcp with --allow 'touch:*' (repeatable) or --permission-mode allow-all.",
    );
    expect(existsSync(path.join(root, "made.txt"))).toBe(false);
    await first.client.close();

    const second = await connect(root, { args: ["--allow", "touch:*", "--sandbox", "off"] });
    expect((await second.client.callTool({ name: "Bash", arguments: { command: "touch made.txt" } })).isError).toBe(false);
    expect(existsSync(path.join(root, "made.txt"))).toBe(true);
    // The rule covers touch, nothing else.
    expect((await second.client.callTool({ name: "Bash", arguments: { command: "touch x.txt && rm made.txt" } })).isError).toBe(true);
    expect(existsSync(path.join(root, "made.txt"))).toBe(true);
  });

  it("RSC progress: run_shell_command sends notifications/progress for the caller's progress token, at most one a second", async () => {
    const { client } = await connect(makeWorkspace(), { args: ["--permission-mode", "allow-all"] });
    const updates: Progress[] = [];
    const result = await client.callTool({ name: "run_shell_command", arguments: { command: "for i in $(seq 1 50); do echo tick$i; sleep 0.05; done" } }, undefined, {
      onprogress: (p) => void updates.push(p),
    });
    const s = result.structuredContent as { durationMs: number; stdout: string };
    expect(s.stdout.split("\n")[49]).toBe("tick50");
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(Math.floor(s.durationMs / 1000) + 1);
    for (const u of updates) expect(u.message).toMatch(/tick\d+$/);
    for (let i = 1; i < updates.length; i++) expect(updates[i]!.progress).toBeGreaterThan(updates[i - 1]!.progress);
  });
});

describe("bad input over MCP (real process)", () => {
  it("a tools/call line over 10 MiB gets an error for that very call, saying to pass content by path; the server keeps serving", async () => {
    const root = makeWorkspace();
    const { client } = await connect(root, { args: ["--permission-mode", "allow-all"] });
    const huge = "x".repeat(12 * 1024 * 1024);
    // The SDK client writes {method, params, jsonrpc, id}: the id comes after the 12 MiB.
    const err = await client.callTool({ name: "Write", arguments: { file_path: "big.txt", content: huge } }, undefined, { timeout: 30_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32600);
    expect((err as McpError).message).toMatch(/a line of \d+ bytes exceeds the 10 MiB limit and was discarded\. Pass large content by file path instead\./);
    expect(existsSync(path.join(root, "big.txt"))).toBe(false);

    const ok = await client.callTool({ name: "Write", arguments: { file_path: "small.txt", content: "fine\n" } });
    expect(ok.isError).toBe(false);
    expect(readFileSync(path.join(root, "small.txt"), "utf8")).toBe("fine\n");
  }, 60_000);

  it("raw lines that are not JSON, not valid MCP, too long or not UTF-8 are each answered; then a normal call works", async () => {
    const root = makeWorkspace();
    const core = new CoreProcess(["mcp", "--root", root, "--permission-mode", "allow-all"]);
    try {
      const init = await core.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
      expect(init.result.serverInfo.name).toBe("wave-core");
      core.notify("notifications/initialized");

      core.sendRaw("this is not json");
      expect((await core.waitFor((m) => m.error?.code === -32700)).id).toBeNull();

      core.sendRaw('{"jsonrpc":"2.0","id":"arr","method":"tools/list","params":[1]}');
      expect((await core.waitFor((m) => m.id === "arr")).error).toMatchObject({ code: -32600, message: expect.stringMatching(/^Invalid request: params/) });

      const big = core.waitFor((m) => m.id === 41, 30_000);
      core.sendRaw(`{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"${"a".repeat(12 * 1024 * 1024)}"}}}`);
      expect((await big).error).toMatchObject({ code: -32600, message: expect.stringContaining("Pass large content by file path instead.") });

      // Bytes that are not UTF-8 are refused, not read as U+FFFD: the Write never runs.
      const latin1 = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"Write","arguments":{"file_path":"latin1.txt","content":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}}}'),
      ]);
      const refused = core.waitFor((m) => m.id === 42);
      core.sendBytes(latin1);
      expect((await refused).error).toMatchObject({
        code: -32700,
        message: expect.stringMatching(/^Parse error: the message is not valid UTF-8 \(byte \d+ of \d+: e9 22 7d 7d\), so it was not run\./),
      });
      expect(existsSync(path.join(root, "latin1.txt"))).toBe(false);

      const read = await core.request("tools/call", { name: "Read", arguments: { file_path: "notes.txt" } });
      expect(read.result.isError).toBe(false);
      expect(read.result.content[0].text).toMatch(/hello from the workspace/);
      expect(core.child.exitCode).toBeNull();
    } finally {
      await core.close();
    }
  }, 60_000);
});
