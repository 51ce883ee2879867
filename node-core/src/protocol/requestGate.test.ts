// Bounded work in flight on one connection: how many run, who waits, who is refused, and the
// memory a burst used being given back.
import { describe, expect, it } from "vitest";
import { ErrorCode, JsonRpcPeer } from "./jsonrpc.js";
import { overloadedError, RequestGate } from "./requestGate.js";

describe("RequestGate", () => {
  it("runs up to its limit, queues the rest in order, refuses past the queue's bounds, and starts the next as each is done", () => {
    const started: string[] = [];
    const gate = new RequestGate<string>((item) => started.push(item), { maxInFlight: 2, maxQueued: 2, maxQueuedBytes: 100 });
    expect(["a", "b", "c", "d", "e"].map((k) => gate.offer(k, k, 10))).toEqual(["started", "started", "queued", "queued", "refused"]);
    // Bytes count too: one of 100 does not fit beside what waits.
    gate.done("a");
    expect(started).toEqual(["a", "b", "c"]);
    expect(gate.offer("f", "f", 95)).toBe("refused");
    expect(gate.offer("g", "g", 10)).toBe("queued");
    expect(gate.withdraw("d")).toBe("d");
    expect(gate.has("d")).toBe(false);
    gate.done("b");
    gate.done("c");
    expect(started).toEqual(["a", "b", "c", "g"]);
    expect([gate.inFlight, gate.waiting]).toEqual([1, 0]);
    // Once nothing waits, a new one starts at once again.
    expect(gate.offer("h", "h", 10)).toBe("started");
  });

  it("says what to do when it refuses", () => {
    expect(overloadedError({ maxInFlight: 64, maxQueued: 16384, maxQueuedBytes: 64 << 20 })).toEqual({
      code: -32004,
      message: "Too many requests at once on this connection: 64 are running and 16384 (or 64 MiB) more wait, so this one was refused and not run. Wait for answers before sending more.",
    });
  });
});

describe("JsonRpcPeer with a bounded gate", () => {
  function peer(opts: { hold?: boolean } = {}) {
    const out: Array<Record<string, any>> = [];
    const running: string[] = [];
    const release = new Map<string, () => void>();
    const writes: Array<() => void> = [];
    const p = new JsonRpcPeer(
      (line) => {
        out.push(JSON.parse(line));
        // A slow reader: the line is out only when the test lets it go.
        if (opts.hold) return new Promise<void>((r) => writes.push(r));
        return undefined;
      },
      {
        request: (method, params) =>
          new Promise((resolve) => {
            const id = (params as { n: string }).n;
            running.push(id);
            release.set(id, () => resolve(`${method} ${id}`));
          }),
        notification: () => {},
      },
      { limits: { maxInFlight: 2, maxQueued: 1, maxQueuedBytes: 1 << 20 }, ungated: new Set(["steer"]) },
    );
    const send = (id: number, method = "work") => p.push(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, method, params: { n: String(id) } }) + "\n"));
    return { p, out, running, release, writes, send };
  }
  const tick = () => new Promise((r) => setImmediate(r));

  it("runs two at a time, queues one, refuses the next with a clear error; a steering method never waits", async () => {
    const { out, running, release, send } = peer();
    for (const id of [1, 2, 3, 4]) send(id);
    send(5, "steer");
    await tick();
    expect(running).toEqual(["1", "2", "5"]);
    expect(out).toEqual([{ jsonrpc: "2.0", id: 4, error: expect.objectContaining({ code: ErrorCode.Overloaded, message: expect.stringMatching(/^Too many requests at once/) }) }]);
    release.get("1")!();
    await tick();
    await tick();
    expect(running).toEqual(["1", "2", "5", "3"]);
  });

  it("holds a request's place until its answer is written out (a client that reads slowly holds at most the limit in answers)", async () => {
    const { out, running, release, writes, send } = peer({ hold: true });
    for (const id of [1, 2, 3]) send(id);
    await tick();
    release.get("1")!();
    release.get("2")!();
    await tick();
    expect(out.map((m) => m.id)).toEqual([1, 2]);
    // Both answers are still in the pipe: the third waits.
    expect(running).toEqual(["1", "2"]);
    writes[0]!();
    await tick();
    await tick();
    expect(running).toEqual(["1", "2", "3"]);
  });

  it("a request cancelled while it waits never starts and is answered as cancelled", async () => {
    const { p, out, running, send } = peer();
    for (const id of [1, 2, 3]) send(id);
    await tick();
    expect(p.cancelIncoming(3)).toBe(true);
    expect(out).toEqual([{ jsonrpc: "2.0", id: 3, error: { code: ErrorCode.RequestCancelled, message: "work was cancelled before it started (cancelled by the client)." } }]);
    expect(running).toEqual(["1", "2"]);
  });
});
