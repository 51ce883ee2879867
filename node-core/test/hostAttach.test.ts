// The IDE's view of an attached agent: a host (this test, speaking the host protocol to the real
// `serve --listen` process over stdio) sees the agent's session open, its calls start and finish,
// answers its permission questions, moves its Bash call to the background and stops its calls.
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CoreProcess, Message } from "./support/coreProcess.js";
import { isAlive, processesOfCore, waitFor } from "./support/processes.js";
import { attachedAgent, startListeningCore, stateDirForTest, type AttachedAgent } from "./support/listening.js";
import { makeWorkspace } from "./transcript.js";

const cores: CoreProcess[] = [];
const agents: AttachedAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.client.close().catch(() => {})));
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** A listening core whose host answers permission questions, and one agent attached to it. */
async function ideWithAgent(args: string[] = [], agentOpts: Parameters<typeof attachedAgent>[2] = {}) {
  const root = makeWorkspace();
  const stateDir = stateDirForTest();
  const { core } = await startListeningCore(root, stateDir, args);
  cores.push(core);
  const init = await core.request("initialize", { hostInfo: { name: "IntelliJ IDEA", version: "2025.3" }, capabilities: { permissionRequests: true } });
  expect(init.error).toBeUndefined();
  // The host learns where agents reach its core (for its status line).
  expect(init.result.agents).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/), lockFile: path.join(stateDir, "ide", `${core.child.pid}.json`) });
  const agent = await attachedAgent(root, stateDir, { name: "claude-code", ...agentOpts });
  agents.push(agent);
  const opened = await core.waitFor((m) => m.method === "session/opened");
  return { root, core, agent, sessionId: opened.params.sessionId as string, opened };
}

function answer(core: CoreProcess, request: Message, result: unknown): void {
  core.send({ jsonrpc: "2.0", id: request.id, result });
}

const sleepers = (core: CoreProcess) => processesOfCore(core.child.pid).filter((p) => p.command.includes("sleep 300"));

describe("the host sees and steers an attached agent", () => {
  it("session/opened names the agent; its calls carry its session id; closing it sends session/closed", async () => {
    const { core, agent, sessionId, opened } = await ideWithAgent(["--allow", "pwd"]);
    expect(opened.params).toMatchObject({ sessionId, client: { name: "claude-code", version: "4.5.6" }, transport: "mcp-http" });
    expect(sessionId).toMatch(/^mcp-/);
    // A host that looks later finds the agent's session by its client.
    const listed = (await core.request("sessions/list", {})).result.sessions;
    expect(listed).toContainEqual(expect.objectContaining({ sessionId, client: { name: "claude-code", version: "4.5.6" } }));
    expect(listed.find((s: { sessionId: string }) => s.sessionId === "main").client).toBeUndefined();

    await agent.client.callTool({ name: "Bash", arguments: { command: "pwd" } });
    const started = core.notifications("tool/started").map((m) => m.params);
    const finished = core.notifications("tool/finished").map((m) => m.params);
    expect(started).toEqual([expect.objectContaining({ sessionId, name: "Bash", arguments: { command: "pwd" } })]);
    expect(finished).toEqual([expect.objectContaining({ sessionId, callId: started[0].callId, isError: false })]);
    // session/opened came before the call.
    const order = core.received.map((m) => m.method);
    expect(order.indexOf("session/opened")).toBeLessThan(order.indexOf("tool/started"));

    await agent.client.close();
    const closed = await core.waitFor((m) => m.method === "session/closed");
    // Closing its stdin makes mcp --attach end the session at once (DELETE), not after the grace period.
    expect(closed.params).toMatchObject({ sessionId, client: { name: "claude-code", version: "4.5.6" }, reason: "the agent disconnected" });
    expect(core.notifications("session/disposed").map((m) => m.params.sessionId)).toContain(sessionId);
  });

  it("the agent's Bash runs in the IDE core's sandbox without a question; its dangerouslyDisableSandbox is the host's to approve", async () => {
    const elicited: string[] = [];
    const { root, core, agent, sessionId } = await ideWithAgent([], { name: "claude-code", capabilities: { capabilities: { elicitation: { form: {} } } } });
    agent.client.setRequestHandler(ElicitRequestSchema, async (req) => {
      elicited.push(req.params.message);
      return { action: "accept", content: { decision: "allow-once" } };
    });

    // Inside the sandbox the kernel holds the boundary: no question, and the result says where it ran.
    const inside = await agent.client.callTool({ name: "Bash", arguments: { command: "touch inside.txt" } });
    expect(inside.structuredContent).toMatchObject({ success: true, sandboxed: true });
    expect(existsSync(path.join(root, "inside.txt"))).toBe(true);
    const outsideRoot = path.join(root, "..", `outside-${core.child.pid}.txt`);
    const blocked = await agent.client.callTool({ name: "Bash", arguments: { command: `touch ${outsideRoot}` } });
    expect(blocked.structuredContent).toMatchObject({ success: false, sandboxed: true });
    expect(String((blocked.structuredContent as { output: string }).output)).toContain("Read-only file system");
    expect(existsSync(outsideRoot)).toBe(false);
    expect(core.notifications("permission/request")).toEqual([]);

    // Asking to leave the sandbox goes to the host, which hears that it would run outside.
    const allowed = agent.client.callTool({ name: "Bash", arguments: { command: "touch allowed.txt", description: "make a file", dangerouslyDisableSandbox: true } });
    const ask = await core.waitFor((m) => m.method === "permission/request" && m.id !== undefined);
    const started = core.notifications("tool/started").at(-1)!;
    expect(ask.params).toMatchObject({
      sessionId,
      callId: started.params.callId,
      tool: "Bash",
      command: "touch allowed.txt",
      description: "make a file",
      sandboxed: false,
      outsideSandboxReason: expect.stringContaining("dangerouslyDisableSandbox"),
    });
    answer(core, ask, { decision: "allow-once" });
    const allowedResult = await allowed;
    expect(allowedResult.isError).toBe(false);
    expect(allowedResult.structuredContent).toMatchObject({ sandboxed: false });
    expect(existsSync(path.join(root, "allowed.txt"))).toBe(true);

    const denied = agent.client.callTool({ name: "Bash", arguments: { command: "touch denied.txt", dangerouslyDisableSandbox: true } });
    const second = await core.waitFor((m) => m.method === "permission/request" && m.id !== ask.id);
    expect(second.params).toMatchObject({ sessionId, sandboxed: false });
    answer(core, second, { decision: "deny", message: "not in this project" });
    const result = await denied;
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^Permission denied: the user did not allow Bash to run `touch denied\.txt`\. The user said: not in this project\./);
    expect(existsSync(path.join(root, "denied.txt"))).toBe(false);
    // The host answered; the agent was never asked.
    expect(elicited).toEqual([]);
  });

  it("Move to Background answers the agent's pending Bash call with backgroundedByUser, and tasks/stop leaves no process", async () => {
    const { core, agent, sessionId } = await ideWithAgent(["--allow", "sleep:*"]);
    const call = agent.client.callTool({ name: "Bash", arguments: { command: "sleep 300", description: "a long build" } });
    const started = await core.waitFor((m) => m.method === "tool/started");
    expect(await waitFor(() => sleepers(core).length > 0)).toBe(true);
    const moved = await core.request("calls/moveToBackground", { callId: started.params.callId });
    expect(moved.result).toMatchObject({ moved: true, taskId: expect.any(String) });
    const result = await call;
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ backgroundedByUser: true, backgroundTaskId: moved.result.taskId });
    const taskStarted = await core.waitFor((m) => m.method === "task/started");
    expect(taskStarted.params).toMatchObject({ sessionId, task: { taskId: moved.result.taskId, sessionId, origin: "user", status: "running" } });

    const pid = taskStarted.params.task.pid as number;
    const stopped = await core.request("tasks/stop", { taskId: moved.result.taskId });
    expect(stopped.result).toMatchObject({ stopped: true, task: { status: "killed" } });
    expect(isAlive(pid)).toBe(false);
    expect(sleepers(core)).toEqual([]);
    const finished = await core.waitFor((m) => m.method === "task/finished");
    expect(finished.params).toMatchObject({ sessionId, stoppedBy: "host", task: { taskId: moved.result.taskId, status: "killed" } });
  });

  it("Stop ($/cancelRequest with the call id) ends the agent's call with the aborted result and kills its process tree", async () => {
    const { core, agent, sessionId } = await ideWithAgent(["--allow", "sleep:*"]);
    const call = agent.client.callTool({ name: "Bash", arguments: { command: "sleep 300" } });
    const started = await core.waitFor((m) => m.method === "tool/started");
    expect(await waitFor(() => sleepers(core).length > 0)).toBe(true);
    core.notify("$/cancelRequest", { callId: started.params.callId });
    const result = await call;
    expect(result.structuredContent).toMatchObject({ interrupted: true });
    expect(sleepers(core)).toEqual([]);
    const finished = await core.waitFor((m) => m.method === "tool/finished");
    expect(finished.params).toMatchObject({ sessionId, callId: started.params.callId });
    // The agent goes on working.
    expect((await agent.client.listTools()).tools).toHaveLength(8);
  });

  it("the agent's session ending stops its background tasks, and the host is told", async () => {
    const { core, agent, sessionId } = await ideWithAgent(["--allow", "sleep:*"]);
    await agent.client.callTool({ name: "Bash", arguments: { command: "sleep 300", run_in_background: true } });
    const task = (await core.waitFor((m) => m.method === "task/started")).params.task;
    expect(isAlive(task.pid)).toBe(true);
    await agent.client.close();
    await core.waitFor((m) => m.method === "session/closed" && m.params.sessionId === sessionId);
    expect(isAlive(task.pid)).toBe(false);
    expect(sleepers(core)).toEqual([]);
    const finished = await core.waitFor((m) => m.method === "task/finished");
    expect(finished.params).toMatchObject({ sessionId, stoppedBy: "session", task: { status: "killed" } });
  });
});
