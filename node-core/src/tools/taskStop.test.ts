import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ALLOWED_DESPITE_WARNINGS, captureLogs } from "../../test/support/logs.js";
import { closeCores, NO_SANDBOX, ourProcesses, testCore, type TestCore } from "../../test/support/core.js";
import { waitFor } from "../../test/support/processes.js";
import { InvalidToolArguments } from "../core/registry.js";
import type { TaskInfo } from "../tasks/manager.js";

// Commands here carry permission warnings only as a side effect (allow-all): their audit line is claimed.
captureLogs(ALLOWED_DESPITE_WARNINGS);

afterEach(closeCores);
afterAll(async () => {
  await closeCores();
  expect(await waitFor(() => ourProcesses().length === 0, 5000)).toBe(true);
});

const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text ?? "").join("\n");

async function finishedTask(t: TestCore, id: string): Promise<TaskInfo> {
  return waitFor(() => t.events.find((e) => e.method === "task/finished" && (e.params.task as TaskInfo).taskId === id)?.params.task as TaskInfo, 15_000);
}

describe("TaskStop", () => {
  it("BASH-BG-4 stops a TERM-ignoring three-level tree (SIGKILL after the grace period)", async () => {
    const t = testCore();
    const cmd = `trap '' TERM; bash -c "trap '' TERM; bash -c \\"trap '' TERM; sleep 300\\" & sleep 300" & sleep 300 & wait`;
    const r = await t.bash({ command: cmd, run_in_background: true, description: "stubborn" });
    await waitFor(() => ourProcesses().filter((p) => p.command === "sleep 300").length === 3);
    const stop = await t.call("TaskStop", { task_id: r.s.backgroundTaskId });
    expect(text(stop)).toBe(`Stopped task ${r.s.backgroundTaskId} (${cmd}) and every process it started. Its output is in ${r.s.outputPath}`);
    expect(stop.structuredContent).toMatchObject({ stopped: true, status: "killed", signal: "SIGKILL" });
    expect(ourProcesses()).toEqual([]);
    // Stopped by the agent itself: no completion notice for it.
    const next = await t.bash({ command: "true" }, { origin: "mcp" });
    expect(next.text).not.toContain("task-notifications");
  });

  it("BASH-BG-4 a finished task says it already exited, with its code", async () => {
    const t = testCore();
    const r = await t.bash({ command: "exit 3", run_in_background: true });
    await finishedTask(t, r.s.backgroundTaskId!);
    const stop = await t.call("TaskStop", { task_id: r.s.backgroundTaskId });
    expect(stop.isError).toBe(false);
    expect(text(stop)).toBe(`Task ${r.s.backgroundTaskId} had already exited with code 3; there was nothing to stop. Output: ${r.s.outputPath}`);
    expect(stop.structuredContent).toMatchObject({ stopped: false, status: "failed", exitCode: 3 });
  });

  it("BASH-BG-4 a finished task killed by a signal says so in a sentence", async () => {
    // Unsandboxed: bwrap reports a shell killed by a signal as exit status 128+N.
    const t = testCore({ sandbox: NO_SANDBOX });
    const r = await t.bash({ command: "kill -TERM $$", run_in_background: true });
    await finishedTask(t, r.s.backgroundTaskId!);
    const stop = await t.call("TaskStop", { task_id: r.s.backgroundTaskId });
    expect(text(stop)).toBe(`Task ${r.s.backgroundTaskId} had already ended: it was killed by SIGTERM; there was nothing to stop. Output: ${r.s.outputPath}`);
  });

  // bwrap sets the sandbox up before it starts the shell; a SIGTERM that came first met only bwrap
  // (its namespace's first process ignores it), the shell started after it, and the grace ran out.
  it.each([
    ["in the sandbox", undefined],
    ["without a sandbox", NO_SANDBOX],
  ] as const)("BASH-BG-4 a TaskStop right after the start ends the task with SIGTERM, as a later one does (%s)", async (_name, sandbox) => {
    const t = testCore({ sandbox });
    for (let i = 0; i < 3; i++) {
      const r = await t.bash({ command: "sleep 300", run_in_background: true });
      const stop = await t.call("TaskStop", { task_id: r.s.backgroundTaskId });
      expect(stop.structuredContent).toMatchObject({ stopped: true, status: "killed", signal: "SIGTERM" });
    }
    expect(ourProcesses()).toEqual([]);
  });

  it("BASH-BG-4 an unknown id is a clear error that names it", async () => {
    const t = testCore();
    const stop = await t.call("TaskStop", { task_id: "b000000" });
    expect(stop.isError).toBe(true);
    expect(text(stop)).toMatch(/^No such task: "b000000"\. Task IDs come from Bash results/);
  });

  it("accepts the legacy shell_id and requires an id", async () => {
    const t = testCore();
    const r = await t.bash({ command: "sleep 300", run_in_background: true });
    const stop = await t.call("TaskStop", { shell_id: r.s.backgroundTaskId });
    expect(stop.structuredContent).toMatchObject({ stopped: true });
    const err = await t.call("TaskStop", {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidToolArguments);
    expect((err as Error).message).toContain("task_id is required");
  });

  it("stops a task of a sub-agent session from the main session (same agent run), not of unrelated sessions", async () => {
    const t = testCore();
    const sub = t.core.sessions.create({ parentId: "main" });
    const r = await t.bash({ command: "sleep 300", run_in_background: true }, { sessionId: sub.id });
    const stop = await t.call("TaskStop", { task_id: r.s.backgroundTaskId });
    expect(stop.structuredContent).toMatchObject({ stopped: true });
    const other = t.core.sessions.create({});
    const r2 = await t.bash({ command: "sleep 300", run_in_background: true }, { sessionId: other.id });
    const denied = await t.call("TaskStop", { task_id: r2.s.backgroundTaskId });
    expect(denied.isError).toBe(true);
  });
});
