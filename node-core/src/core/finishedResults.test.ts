// The store behind calls/result: bounded by count and by bytes, oldest out first, a session's
// results dropped with it.
import { describe, expect, it } from "vitest";
import { FinishedResults } from "./finishedResults.js";
import { textResult } from "./tool.js";

const r = (text: string) => textResult(text);
/** What the core keeps: the JSON text. */
const j = (text: string) => JSON.stringify(r(text));

describe("FinishedResults", () => {
  it("keeps the last maxResults results, dropping the oldest", () => {
    const store = new FinishedResults({ maxResults: 3, maxBytes: 1_000_000 });
    for (let i = 1; i <= 5; i++) store.keep(`c${i}`, "main", j(`result ${i}`), 10);
    expect(store.get("c1")).toBeUndefined();
    expect(store.get("c2")).toBeUndefined();
    expect(store.get("c3")).toEqual(r("result 3"));
    expect(store.get("c5")).toEqual(r("result 5"));
    expect([store.size, store.bytes]).toEqual([3, 30]);
  });

  it("keeps at most maxBytes, dropping as many old results as a large new one needs", () => {
    const store = new FinishedResults({ maxResults: 64, maxBytes: 100 });
    store.keep("a", "main", j("a"), 40);
    store.keep("b", "main", j("b"), 40);
    store.keep("c", "main", j("c"), 20);
    expect(store.bytes).toBe(100);
    store.keep("d", "main", j("d"), 70);
    expect(["a", "b", "c", "d"].map((id) => store.get(id) !== undefined)).toEqual([false, false, true, true]);
    expect(store.bytes).toBe(90);
  });

  it("does not keep a result larger than the whole budget, and loses nothing else for it", () => {
    const store = new FinishedResults({ maxResults: 64, maxBytes: 100 });
    store.keep("a", "main", j("a"), 60);
    expect(store.keep("huge", "main", j("huge"), 101)).toBe(false);
    expect(store.get("huge")).toBeUndefined();
    expect(store.get("a")).toEqual(r("a"));
  });

  it("a call id used again replaces the earlier result and its bytes", () => {
    const store = new FinishedResults({ maxResults: 64, maxBytes: 100 });
    store.keep("x", "main", j("first"), 60);
    store.keep("x", "main", j("second"), 50);
    expect(store.get("x")).toEqual(r("second"));
    expect([store.size, store.bytes]).toEqual([1, 50]);
  });

  it("drops a session's results and only those", () => {
    const store = new FinishedResults();
    store.keep("a1", "agent", j("a1"), 5);
    store.keep("m1", "main", j("m1"), 5);
    store.keep("a2", "agent", j("a2"), 5);
    expect(store.dropSession("agent")).toBe(2);
    expect(store.get("a1")).toBeUndefined();
    expect(store.get("a2")).toBeUndefined();
    expect(store.get("m1")).toEqual(r("m1"));
    expect([store.size, store.bytes]).toEqual([1, 5]);
  });
});
