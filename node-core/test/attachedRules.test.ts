// Issue 23 §5: attached agents cannot loosen the project's rules. Two agents attach to one
// listening core whose host takes no permission questions, so each agent is asked through its
// own client (elicitation). One answers "Always allow": the rule holds for its own session only,
// is never labelled as the host's, never reaches the host's persisted rules, and is proposed to
// the host instead; the other agent is still asked.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CoreProcess } from "./support/coreProcess.js";
import { waitFor } from "./support/processes.js";
import { attachedAgent, startListeningCore, stateDirForTest, type AttachedAgent } from "./support/listening.js";
import { makeWorkspace } from "./transcript.js";

const cores: CoreProcess[] = [];
const agents: AttachedAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.client.close().catch(() => {})));
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** An agent that answers every question with `answer` and records what it was asked. */
async function agentAnswering(root: string, stateDir: string, name: string, answer: Record<string, unknown>): Promise<{ agent: AttachedAgent; asked: string[] }> {
  const asked: string[] = [];
  const agent = await attachedAgent(root, stateDir, { name, capabilities: { capabilities: { elicitation: { form: {} } } } });
  agents.push(agent);
  agent.client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    return { action: "accept", content: answer };
  });
  return { agent, asked };
}

describe("issue 23 §5: an attached agent's Always allow stays in its own session", () => {
  it("two agents on one listening core: A's rule does not cover B, is not the host's, and is proposed to the host", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await startListeningCore(root, stateDir, ["--permission-mode", "ask", "--sandbox", "off"]);
    cores.push(core);
    expect((await core.request("initialize", {})).error).toBeUndefined();

    const a = await agentAnswering(root, stateDir, "agent-a", { decision: "always-allow", rules: "touch:*" });
    const b = await agentAnswering(root, stateDir, "agent-b", { decision: "deny", message: "not you" });

    const first = await a.agent.client.callTool({ name: "Bash", arguments: { command: "touch a1.txt" } });
    expect(first.isError).toBe(false);
    expect(a.asked).toHaveLength(1);

    // The same agent is not asked again…
    const again = await a.agent.client.callTool({ name: "Bash", arguments: { command: "touch a2.txt" } });
    expect(again.isError).toBe(false);
    expect(a.asked).toHaveLength(1);
    expect(existsSync(path.join(root, "a2.txt"))).toBe(true);

    // …but the other agent is: A's answer is not the project's rule.
    const other = await b.agent.client.callTool({ name: "Bash", arguments: { command: "touch b1.txt" } });
    expect(other.isError).toBe(true);
    expect(other.structuredContent).toMatchObject({ errorKind: "denied_by_user" });
    expect(b.asked).toHaveLength(1);
    expect(existsSync(path.join(root, "b1.txt"))).toBe(false);

    // The host's view: the rule is A's session's, never `host`; nothing for the host to persist.
    const list = (await core.request("permissions/list", {})).result;
    expect(list.allow.filter((r: { source: string }) => r.source === "host")).toEqual([]);
    const sessionRules = list.allow.filter((r: { source: string }) => r.source === "session");
    expect(sessionRules).toEqual([{ rule: "touch:*", source: "session", sessionId: expect.stringMatching(/^mcp-/) }]);
    expect(core.notifications("permission/rulesChanged")).toEqual([]);
    const proposed = await waitFor(() => core.notifications("permission/rulesProposed")[0]);
    expect(proposed!.params).toMatchObject({ sessionId: sessionRules[0].sessionId, client: { name: "agent-a" }, rules: ["touch:*"] });
    // permissions/evaluate for the host's own main session does not see it either.
    expect((await core.request("permissions/evaluate", { command: "touch c.txt", sandboxed: false })).result.outcome).toBe("ask");

    // When A leaves, its rules go with its session.
    await a.agent.client.close();
    await waitFor(async () => ((await core.request("permissions/list", {})).result.allow.length === 0 ? true : undefined), 10_000);
  });

  it("the host's own answer (the IDE user) still makes a project rule for every session", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await startListeningCore(root, stateDir, ["--permission-mode", "ask", "--sandbox", "off"]);
    cores.push(core);
    expect((await core.request("initialize", { capabilities: { permissionRequests: true } })).error).toBeUndefined();
    const agent = await attachedAgent(root, stateDir, { name: "agent-c" });
    agents.push(agent);
    const call = agent.client.callTool({ name: "Bash", arguments: { command: "touch c1.txt" } });
    const ask = await core.waitFor((m) => m.method === "permission/request");
    core.send({ jsonrpc: "2.0", id: ask.id, result: { decision: "always-allow", rules: ["touch:*"] } });
    expect((await call).isError).toBe(false);
    const changed = await core.waitFor((m) => m.method === "permission/rulesChanged");
    expect(changed.params).toMatchObject({ allow: ["touch:*"], change: { type: "always-allow" } });
    expect((await core.request("permissions/list", {})).result.allow).toEqual([{ rule: "touch:*", source: "host" }]);
  });

  // Issue 23 §7 over the listening core's Streamable HTTP endpoint, as attached agents reach it.
  it.each([
    ["2025-06-18", (d: Record<string, unknown>) => expect(d).toMatchObject({ enum: ["allow-once", "always-allow", "deny"], enumNames: expect.any(Array) })],
    ["2025-11-25", (d: Record<string, unknown>) => expect(d).toMatchObject({ oneOf: expect.any(Array) })],
  ] as const)("an agent that negotiated %s is asked in that version's shape", async (version, shape) => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core, lock } = await startListeningCore(root, stateDir, ["--permission-mode", "ask", "--sandbox", "off"]);
    cores.push(core);
    expect((await core.request("initialize", {})).error).toBeUndefined();
    const transport = new StreamableHTTPClientTransport(new URL(lock.url), { requestInit: { headers: { authorization: `Bearer ${lock.token}` } } });
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) =>
      send("method" in message && message.method === "initialize" ? ({ ...message, params: { ...message.params, protocolVersion: version } } as JSONRPCMessage) : message, options);
    const client = new Client({ name: `agent-${version}`, version: "1" }, { capabilities: { elicitation: {} } });
    const asked: Array<Record<string, any>> = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params as Record<string, any>);
      return { action: "accept", content: { decision: "allow-once" } };
    });
    await client.connect(transport);
    try {
      expect((await client.callTool({ name: "Bash", arguments: { command: "touch v.txt" } })).isError).toBe(false);
      expect(asked).toHaveLength(1);
      expect("mode" in asked[0]!).toBe(version !== "2025-06-18");
      shape(asked[0]!.requestedSchema.properties.decision);
      expect(asked[0]!.message).toMatch(/Runs OUTSIDE the sandbox, with your full permissions: sandbox mode is "off"/);
    } finally {
      await client.close();
    }
  });
});
