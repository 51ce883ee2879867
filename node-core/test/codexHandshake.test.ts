// Issue 23 §7 with the real Codex CLI's handshake: Codex 0.171.0's own `initialize` (recorded
// from `codex exec` against wave-core mcp; test-fixtures/agents) negotiates 2025-06-18 and
// declares form elicitation. Replayed byte for byte, it must get the 2025-06-18 question shape,
// and a bare accept must not allow anything. (Codex itself is not a dependency: its npm package
// is 424 MB, and driving a tool call needs its model.)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CoreProcess } from "./support/coreProcess.js";
import { makeWorkspace } from "./transcript.js";

const recorded = JSON.parse(readFileSync(path.resolve(__dirname, "..", "..", "test-fixtures", "agents", "codex-0.171.0-initialize.json"), "utf8")) as { message: { id: number; params: Record<string, unknown> } };
const cores: CoreProcess[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.kill();
});

describe("Codex CLI 0.171.0's recorded initialize (2025-06-18)", () => {
  it("negotiates 2025-06-18 and is asked with enum + enumNames and no mode; a bare accept denies", async () => {
    const root = makeWorkspace();
    const core = new CoreProcess(["mcp", "--root", root, "--permission-mode", "ask", "--sandbox", "off"]);
    cores.push(core);
    core.send(recorded.message);
    const init = await core.waitFor((m) => m.id === recorded.message.id);
    expect(init.result.protocolVersion).toBe("2025-06-18");
    core.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    core.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "Bash", arguments: { command: "touch codex.txt" } } });
    const ask = await core.waitFor((m) => m.method === "elicitation/create");
    expect(ask.params).not.toHaveProperty("mode");
    expect(ask.params.requestedSchema.properties.decision).toMatchObject({ type: "string", enum: ["allow-once", "always-allow", "deny"], enumNames: expect.any(Array) });
    expect(ask.params.requestedSchema.properties.decision).not.toHaveProperty("oneOf");
    expect(ask.params.message).toContain("Runs OUTSIDE the sandbox");
    core.send({ jsonrpc: "2.0", id: ask.id, result: { action: "accept" } });
    const result = await core.waitFor((m) => m.id === 1);
    expect(result.result.isError).toBe(true);
    expect(result.result.content[0].text).toMatch(/accepted without a decision/);
    expect(existsSync(path.join(root, "codex.txt"))).toBe(false);
  });
});
