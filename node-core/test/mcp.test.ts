// `wave-core mcp` driven by the official MCP TypeScript SDK client — a real client we did not write.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE } from "./coreProcess.js";
import { makeWorkspace } from "./transcript.js";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(root: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE, "mcp", "--root", root], stderr: "pipe" });
  client = new Client({ name: "wave-test-client", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

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

    const bad = await client.callTool({ name: "Read", arguments: { file_path: 12 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as Array<{ text: string }>)[0]!.text).toMatch(/file_path/);

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
