// Issue 23 end to end. §7 with the real Codex CLI's handshake: Codex 0.171.0's own `initialize` (recorded
// from `codex exec` against wave-core mcp; test-fixtures/agents) negotiates 2025-06-18 and
// declares form elicitation. Replayed byte for byte, it must get the 2025-06-18 question shape,
// and a bare accept must not allow anything. (Codex itself is not a dependency: its npm package
// is 424 MB, and driving a tool call needs its model.)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CoreProcess } from "./support/coreProcess.js";
import { makeWorkspace } from "./transcript.js";

const recorded = JSON.parse(readFileSync(path.resolve(__dirname, "..", "..", "test-fixtures", "agents", "codex-0.171.0-initialize.json"), "utf8")) as {
  message: { id: number; params: Record<string, unknown> };
};
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

// Issue 23 §1 end to end: the subscript that ran its command in deny-all with the sandbox off.
describe("a['$(cmd)']=1 in deny-all without a sandbox (bundled core)", () => {
  it("is denied in Bash and run_shell_command, over the host protocol and over MCP, and runs nothing", async () => {
    const root = makeWorkspace();
    const marker = path.join(root, "MARK");
    const command = `a['$(touch ${marker})']=1`;
    const host = new CoreProcess(["serve", "--root", root, "--permission-mode", "deny-all", "--sandbox", "off"]);
    cores.push(host);
    await host.request("initialize", {});
    for (const name of ["Bash", "run_shell_command"]) {
      const r = await host.request("tools/call", { name, arguments: { command } });
      expect(r.result.isError, name).toBe(true);
      expect(r.result.structuredContent.errorKind).toBe("denied_by_policy");
    }
    const mcp = new CoreProcess(["mcp", "--root", root, "--permission-mode", "deny-all", "--sandbox", "off"]);
    cores.push(mcp);
    mcp.send(recorded.message);
    await mcp.waitFor((m) => m.id === recorded.message.id);
    mcp.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    for (const [id, name] of [
      [11, "Bash"],
      [12, "run_shell_command"],
    ] as const) {
      mcp.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: { command } } });
      const r = await mcp.waitFor((m) => m.id === id);
      expect(r.result.isError, name).toBe(true);
      expect(r.result.content[0].text).toMatch(/deny-all/);
    }
    expect(existsSync(marker)).toBe(false);
  });
});
