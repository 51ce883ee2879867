// The MCP Streamable HTTP server transport on node:http: one session's requests, their event
// streams, and the bound on how many run at once.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { StreamableHttpServerTransport } from "./streamableHttpServer.js";

let server: Server | undefined;
afterEach(
  () =>
    new Promise<void>((r) => {
      if (!server) return r();
      server.closeAllConnections();
      server.close(() => r());
    }),
);

async function serve(transport: StreamableHttpServerTransport): Promise<string> {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => void transport.handleRequest(req, res, body ? JSON.parse(body) : undefined));
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`;
}

/** POSTs `body`; resolves with the status, headers and every SSE `data:` message, once the response ends. */
function post(url: string, body: unknown, headers: Record<string, string> = {}, onEvent?: (m: any) => void): Promise<{ status: number; session?: string; messages: any[] }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      const messages: any[] = [];
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        text += d;
        for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n")) {
          const data = /^data: (.*)$/m.exec(text.slice(0, end));
          text = text.slice(end + 2);
          if (data) {
            messages.push(JSON.parse(data[1]!));
            onEvent?.(messages.at(-1));
          }
        }
      });
      res.on("end", () => resolve({ status: res.statusCode!, session: res.headers["mcp-session-id"] as string | undefined, messages }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

describe("StreamableHttpServerTransport", () => {
  it("runs one request at a time when so bounded: the next waits for an answer, one past the queue is refused on its stream", async () => {
    const transport = new StreamableHttpServerTransport({ sessionIdGenerator: () => "s1", limits: { maxInFlight: 1, maxQueued: 1, maxQueuedBytes: 1 << 20 } });
    const delivered: JSONRPCMessage[] = [];
    transport.onmessage = (m) => {
      delivered.push(m);
      if ("id" in m && (m as { method?: string }).method === "initialize")
        void transport.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } } } as JSONRPCMessage);
    };
    const url = await serve(transport);
    const init = await post(url, initialize);
    expect([init.status, init.session, init.messages[0].id]).toEqual([200, "s1", 0]);

    const batch = [1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "Read", arguments: {} } }));
    let refused!: () => void;
    const refusal = new Promise<void>((r) => (refused = r));
    const answered = post(url, batch, { "mcp-session-id": "s1" }, (m) => m.id === 3 && refused());
    await refusal;
    const deliveredIds = () => delivered.map((m) => ("id" in m ? m.id : undefined));
    expect(deliveredIds()).toEqual([0, 1]);
    await transport.send({ jsonrpc: "2.0", id: 1, result: { content: [] } } as JSONRPCMessage);
    expect(deliveredIds()).toEqual([0, 1, 2]);
    await transport.send({ jsonrpc: "2.0", id: 2, result: { content: [] } } as JSONRPCMessage);
    const { status, messages } = await answered;
    expect(status).toBe(200);
    expect(messages.map((m) => [m.id, m.error?.code ?? "ok"])).toEqual([
      [3, -32004],
      [1, "ok"],
      [2, "ok"],
    ]);
  });

  it("refuses what the protocol refuses, as the SDK's transport does", async () => {
    const transport = new StreamableHttpServerTransport({ sessionIdGenerator: () => "s2" });
    transport.onmessage = () => {};
    const url = await serve(transport);
    expect((await post(url, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(400);
    expect((await post(url, initialize, { accept: "application/json" })).status).toBe(406);
    expect((await post(url, { not: "json-rpc" })).status).toBe(400);
  });
});
