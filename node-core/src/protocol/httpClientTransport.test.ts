// The relay's HTTP client: a request that meets a kept-alive connection the core closed at that
// very moment is sent again on a new one (it failed 1 run in 3 of the 16-agent benchmark).
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { StreamableHttpClient } from "./httpClientTransport.js";

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

describe("StreamableHttpClient", () => {
  it("sends a request again when the kept-alive connection it went out on is reset before any answer", async () => {
    const seen: string[] = [];
    let connections = 0;
    const server = createServer((socket) => {
      sockets.push(socket);
      const n = ++connections;
      let requests = 0;
      socket.on("data", (d) => {
        const text = d.toString("latin1");
        if (!text.includes("\r\n\r\n")) return;
        requests++;
        seen.push(`${n}:${/"method":"([^"]+)"/.exec(text)?.[1]}`);
        // The first connection's second request comes as the server gives the connection up.
        if (n === 1 && requests === 2) {
          socket.resetAndDestroy();
          return;
        }
        socket.write("HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\nconnection: keep-alive\r\n\r\n");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const client = new StreamableHttpClient(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), {});
    try {
      await client.send({ jsonrpc: "2.0", method: "notifications/first" } as JSONRPCMessage);
      // Its connection goes back to the pool once the answer is read to its end.
      const pool = (client as unknown as { agent: { freeSockets: Record<string, unknown[]> } }).agent;
      for (let i = 0; i < 500 && Object.values(pool.freeSockets).flat().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await client.send({ jsonrpc: "2.0", method: "notifications/second" } as JSONRPCMessage);
      expect(seen).toEqual(["1:notifications/first", "1:notifications/second", "2:notifications/second"]);
    } finally {
      await client.close();
      server.close();
    }
  });
});
