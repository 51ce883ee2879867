// tools/list is built once: its answer's text is made once and spliced into every answer.
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../core/registry.js";
import { allTools } from "../tools/index.js";
import { messageJson, serializeOnce } from "./preserialized.js";

describe("answers serialised once", () => {
  it("the tool list is one object, whose JSON every tools/list answer reuses, exactly as JSON.stringify would write it", () => {
    const registry = new ToolRegistry(allTools);
    const result = serializeOnce(registry.listResult());
    expect(registry.listResult()).toBe(result);
    expect(Object.isFrozen(result)).toBe(true);
    for (const id of [1, 'a"b', 0]) {
      const answer = { jsonrpc: "2.0", id, result };
      expect(messageJson(answer)).toBe(JSON.stringify(answer));
    }
    // The SDK's own field order, too.
    const sdk = { result, jsonrpc: "2.0", id: 7 };
    expect(JSON.parse(messageJson(sdk))).toEqual(sdk);
  });

  it("anything else is written as it is", () => {
    const once = serializeOnce({ a: 1 });
    const other = { jsonrpc: "2.0", id: 1, result: { a: 1 } };
    expect(messageJson(other)).toBe(JSON.stringify(other));
    const more = { jsonrpc: "2.0", id: 1, result: once, extra: true };
    expect(messageJson(more)).toBe(JSON.stringify(more));
    const notification = { jsonrpc: "2.0", method: "x", params: once };
    expect(messageJson(notification)).toBe(JSON.stringify(notification));
  });
});
