import { describe, expect, it } from "vitest";
import { captureLogs } from "../../test/support/logs.js";
import { ErrorCode, JsonRpcPeer, LineSplitter, oversizedLineResponse, parseMessage, requestIdOfLine, type FrameEvent } from "./jsonrpc.js";

function split(chunks: (string | Buffer)[], max = 1024): FrameEvent[] {
  const events: FrameEvent[] = [];
  const s = new LineSplitter((e) => events.push(e), max);
  for (const c of chunks) s.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  s.end();
  return events;
}

describe("LineSplitter", () => {
  it("splits on newlines across chunk boundaries and strips a trailing CR", () => {
    expect(split(['{"a":', '1}\r\n{"b"', ":2}\n", "tail"])).toEqual([
      { kind: "line", text: '{"a":1}' },
      { kind: "line", text: '{"b":2}' },
      { kind: "line", text: "tail" },
    ]);
  });

  it("keeps a multi-byte character split across chunks intact", () => {
    const bytes = Buffer.from('"héllo ✓"\n');
    expect(split([bytes.subarray(0, 3), bytes.subarray(3, 10), bytes.subarray(10)])).toEqual([{ kind: "line", text: '"héllo ✓"' }]);
  });

  it("drops an oversized line as it streams, reports its size once, and resumes on the next line", () => {
    const events = split(["x".repeat(600), "y".repeat(600), "z".repeat(600) + "\n", "ok\n"], 1000);
    expect(events).toEqual([
      // The head is taken when the cap is crossed (here before the z's arrived); the tail at the end.
      { kind: "oversized", bytes: 1800, head: "x".repeat(600) + "y".repeat(600), tail: "x".repeat(600) + "y".repeat(600) + "z".repeat(600) },
      { kind: "line", text: "ok" },
    ]);
  });

  it("keeps only the first and last 4 KiB of an oversized line", () => {
    const events = split(["{" + "a".repeat(10_000), "b".repeat(10_000), "c".repeat(10_000) + "}\n"], 1000);
    const e = events[0] as Extract<FrameEvent, { kind: "oversized" }>;
    expect(e.bytes).toBe(30_002);
    expect(e.head).toBe("{" + "a".repeat(4095));
    expect(e.tail).toBe("c".repeat(4095) + "}");
  });

  it("reports a line that is not UTF-8 instead of decoding it (bad bytes would become U+FFFD): where it goes wrong, and its ends", () => {
    const line = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"content":"caf'), Buffer.from([0xe9, 0x21]), Buffer.from('"}}')]);
    const events = split([line, Buffer.from("\n"), Buffer.from('"héllo"\n')]);
    expect(events).toEqual([
      { kind: "notUtf8", bytes: line.length, offset: 70, sample: "e9 21 22 7d", head: line.toString("utf8"), tail: line.toString("utf8") },
      { kind: "line", text: '"héllo"' },
    ]);
  });

  it("never holds more than the cap while skipping", () => {
    const s = new LineSplitter(() => {}, 100);
    for (let i = 0; i < 1000; i++) s.push(Buffer.alloc(1000, 0x61));
    expect((s as unknown as { pendingBytes: number }).pendingBytes).toBe(0);
    expect((s as unknown as { pending: Buffer[] }).pending).toHaveLength(0);
  });
});

describe("the request id of an oversized line", () => {
  const pad = "x".repeat(20_000);
  const ends = (line: string) => requestIdOfLine(line.slice(0, 4096), line.slice(-4096));

  it("is read from the start (jsonrpc, id, method, params) or from the end (the MCP SDK's order)", () => {
    expect(ends(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"content":"${pad}"}}`)).toBe(7);
    expect(ends(`{"method":"tools/call","params":{"arguments":{"content":"${pad}"}},"jsonrpc":"2.0","id":12}`)).toBe(12);
    expect(ends(`{ "id" : "call \\"one\\"", "method": "x", "params": {"c": "${pad}"} }`)).toBe('call "one"');
    expect(ends(`{"method":"x","params":{"c":"${pad}\\\\"},"id":"tail-id"}\r`)).toBe("tail-id");
  });

  it("is not a nested id, nor the id of a response or of a notification", () => {
    expect(ends(`{"jsonrpc":"2.0","method":"x","params":{"id":5,"c":"${pad}","d":{"id":6}}}`)).toBeNull();
    expect(ends(`{"jsonrpc":"2.0","id":5,"result":{"c":"${pad}"}}`)).toBeNull();
    expect(ends(`{"method":"x","params":{"c":"${pad}"},"jsonrpc":"2.0"}`)).toBeNull();
    // A value that merely looks like a member: the quote inside is escaped.
    expect(ends(`{"method":"x","params":{"c":"${pad}\\",\\"id\\":9"}}`)).toBeNull();
  });

  it("is not guessed from a number cut off at the kept bytes' edge", () => {
    expect(requestIdOfLine('{"jsonrpc":"2.0","method":"x","id":12', "")).toBeNull();
  });

  it("makes the error say the limit, and to pass large content by path", () => {
    const r = oversizedLineResponse({ bytes: 12 << 20, head: '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{', tail: "}}" }, 10 << 20);
    expect(r).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: ErrorCode.InvalidRequest, message: "Message too large: a line of 12582912 bytes exceeds the 10 MiB limit and was discarded. Pass large content by file path instead." },
    });
  });
});

describe("parseMessage", () => {
  it("classifies requests, notifications and responses", () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"method":"a","params":{}}')?.kind).toBe("request");
    expect(parseMessage('{"jsonrpc":"2.0","method":"a"}')?.kind).toBe("notification");
    expect(parseMessage('{"jsonrpc":"2.0","id":"x","result":null}')?.kind).toBe("response");
    expect(parseMessage("   ")).toBeNull();
  });

  it.each([
    ["{", ErrorCode.ParseError, null],
    ["[]", ErrorCode.InvalidRequest, null],
    ["42", ErrorCode.InvalidRequest, null],
    ['{"id":3,"method":"a"}', ErrorCode.InvalidRequest, 3],
    ['{"jsonrpc":"2.0","id":4}', ErrorCode.InvalidRequest, 4],
    ['{"jsonrpc":"2.0","id":{"x":1},"method":"a"}', ErrorCode.InvalidRequest, null],
    ['{"jsonrpc":"2.0","id":5,"method":"a","params":"str"}', ErrorCode.InvalidRequest, 5],
  ])("rejects %s with code %i", (line, code, id) => {
    const m = parseMessage(line);
    expect(m?.kind).toBe("invalid");
    if (m?.kind === "invalid") {
      expect(m.error.code).toBe(code);
      expect(m.id).toBe(id);
    }
  });
});

function pair() {
  const out: any[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const peer = new JsonRpcPeer((line) => out.push(JSON.parse(line)), {
    request: async (method, _params, ctx) => {
      if (method === "slow") {
        await Promise.race([gate, new Promise((_, rej) => ctx.signal.addEventListener("abort", () => rej(new Error("aborted"))))]);
        return "slow done";
      }
      if (method === "fast") return "fast done";
      throw new Error("boom");
    },
    notification: () => {},
  });
  const send = (m: object) => peer.push(Buffer.from(JSON.stringify(m) + "\n"));
  return { peer, out, send, release };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe("JsonRpcPeer", () => {
  it("answers a fast request while a slow one is still running", async () => {
    const { out, send, release } = pair();
    send({ jsonrpc: "2.0", id: 1, method: "slow" });
    send({ jsonrpc: "2.0", id: 2, method: "fast" });
    await tick();
    expect(out).toEqual([{ jsonrpc: "2.0", id: 2, result: "fast done" }]);
    release();
    await tick();
    expect(out[1]).toEqual({ jsonrpc: "2.0", id: 1, result: "slow done" });
  });

  it("aborts a request's signal on cancelIncoming and refuses a duplicate in-flight id", async () => {
    const { peer, out, send } = pair();
    send({ jsonrpc: "2.0", id: "a", method: "slow" });
    send({ jsonrpc: "2.0", id: "a", method: "fast" });
    await tick();
    expect(out[0].error.code).toBe(ErrorCode.InvalidRequest);
    expect(peer.cancelIncoming("a")).toBe(true);
    await tick();
    expect(out[1]).toMatchObject({ id: "a", error: { code: ErrorCode.RequestCancelled } });
    expect(peer.cancelIncoming("a")).toBe(false);
  });

  it("answers a request that is not UTF-8 with a parse error for its id, never runs it, and keeps serving", async () => {
    const out: Array<Record<string, any>> = [];
    const seen: unknown[] = [];
    const peer = new JsonRpcPeer((line) => out.push(JSON.parse(line)), {
      request: async (_method, params) => (seen.push(params), "ran"),
      notification: () => {},
    });
    peer.push(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"content":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}\n')]));
    peer.push(Buffer.from('{"jsonrpc":"2.0","id":2,"method":"ok"}\n'));
    await new Promise((r) => setImmediate(r));
    expect(out[0]).toEqual({
      jsonrpc: "2.0",
      id: "w",
      error: {
        code: ErrorCode.ParseError,
        message: "Parse error: the message is not valid UTF-8 (byte 69 of 74: ff fe 22 7d), so it was not run. Send every message as UTF-8 text; write other characters as JSON escapes (\\u00e9).",
      },
    });
    expect(out[1]).toEqual({ jsonrpc: "2.0", id: 2, result: "ran" });
    expect(seen).toEqual([{}]);
  });

  it("turns a thrown handler error into -32603 and keeps serving", async () => {
    const logs = captureLogs();
    const { out, send } = pair();
    send({ jsonrpc: "2.0", id: 1, method: "explode" });
    send({ jsonrpc: "2.0", id: 2, method: "fast" });
    await tick();
    expect(out.find((m) => m.id === 1).error).toMatchObject({ code: ErrorCode.InternalError, message: expect.stringContaining("boom") });
    expect(out.find((m) => m.id === 2).result).toBe("fast done");
    expect(logs.lines()).toEqual(["ERROR jsonrpc: request handler failed"]);
  });

  it("correlates its own outgoing requests with the answers, and rejects them when the connection ends", async () => {
    const { peer, out } = pair();
    const answered = peer.request("permission/ask", { q: 1 });
    const pending = peer.request("permission/ask", { q: 2 });
    const [first, second] = out;
    peer.push(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: first.id, result: { ok: true } }) + "\n"));
    await expect(answered).resolves.toEqual({ ok: true });
    expect(second.id).not.toBe(first.id);
    peer.end();
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.RequestCancelled });
  });

  it("times out an outgoing request the other side never answers, and tells it to drop the request", async () => {
    const { peer, out } = pair();
    await expect(peer.request("x", {}, { timeoutMs: 20 })).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    expect(out).toEqual([
      { jsonrpc: "2.0", id: "core-1", method: "x", params: {} },
      { jsonrpc: "2.0", method: "$/cancelRequest", params: { id: "core-1" } },
    ]);
  });
});
