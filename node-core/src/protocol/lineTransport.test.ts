// `wave-core mcp`'s stdio framing in front of the SDK's server: a bounded number of requests at
// once (the SDK has no bound of its own); a cancellation frees a place.
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { LineTransport } from "./lineTransport.js";

function setUp() {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Array<Record<string, any>> = [];
  let buffer = "";
  output.setEncoding("utf8");
  output.on("data", (d: string) => {
    buffer += d;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      lines.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  });
  const transport = new LineTransport(input, output, 1 << 20, { maxInFlight: 2, maxQueued: 1, maxQueuedBytes: 1 << 20 });
  const delivered: JSONRPCMessage[] = [];
  transport.onmessage = (m) => delivered.push(m);
  const request = (id: number) => input.write(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "Read", arguments: {} } }) + "\n");
  return { input, transport, delivered, lines, request };
}

const tick = () => new Promise((r) => setImmediate(r));
const ids = (ms: JSONRPCMessage[]) => ms.map((m) => ("id" in m ? m.id : (m as { method: string }).method));

describe("LineTransport", () => {
  it("hands the server two requests at a time, queues one, refuses the next; an answer lets the next one in", async () => {
    const { transport, delivered, lines, request } = setUp();
    await transport.start();
    for (const id of [1, 2, 3, 4]) request(id);
    await tick();
    expect(ids(delivered)).toEqual([1, 2]);
    expect(lines).toEqual([{ jsonrpc: "2.0", id: 4, error: expect.objectContaining({ code: -32004 }) }]);
    await transport.send({ jsonrpc: "2.0", id: 1, result: {} } as JSONRPCMessage);
    await tick();
    expect(ids(delivered)).toEqual([1, 2, 3]);
  });

  it("a cancelled request that waits never reaches the server; one that runs frees its place (the SDK sends it no answer)", async () => {
    const { input, transport, delivered, request } = setUp();
    await transport.start();
    for (const id of [1, 2, 3]) request(id);
    const cancel = (requestId: number) => input.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } }) + "\n");
    cancel(3);
    await tick();
    expect(ids(delivered)).toEqual([1, 2]);
    cancel(1);
    request(5);
    await tick();
    expect(ids(delivered)).toEqual([1, 2, "notifications/cancelled", 5]);
  });
});
