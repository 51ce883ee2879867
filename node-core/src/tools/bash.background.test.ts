// Bash timeouts, background tasks, Ctrl+B, cancellation, session ends: real process trees,
// checked through the WAVE_RUN_ID marker in /proc, not just the direct child.
import { readFileSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeCores, markedProcesses, NO_SANDBOX, ourProcesses, testCore, type TestCore } from "../../test/support/core.js";
import { isAlive, waitFor } from "../../test/support/processes.js";
import { PROCESS_TOKEN } from "../shell/outputDir.js";
import { readProcEntry } from "../shell/processTable.js";
import { RUNS } from "../shell/run/index.js";
import { TASKS, type TaskInfo } from "../tasks/manager.js";

afterEach(closeCores);
afterAll(async () => {
  await closeCores();
  expect(await waitFor(() => ourProcesses().length === 0, 5000)).toBe(true);
});

const BG_TEXT = /^Command running in background with ID: (b[0-9a-z]{6})\. Output is being written to: (\/\S+\.log)$/;
const AUTO_TEXT =
  /^Command exceeded the timeout \((\d+(?:\.\d+)?)s\) and was moved to the background with ID: (b[0-9a-z]{6})\. It is still running — you will be notified when it completes\. Output is being written to: (\/\S+\.log)$/;
const USER_TEXT = /^Command was manually backgrounded by user with ID: (b[0-9a-z]{6})\. Output is being written to: (\/\S+\.log)$/;

/** A command whose tree is three levels deep (shell → node → two sleeps); prints "ready" once up. */
const NODE_TREE = `node -e 'const {spawn}=require("child_process"); spawn("sleep",["300"],{stdio:"ignore"}); spawn("sleep",["301"],{stdio:"ignore"}); console.log("ready"); setInterval(()=>{},1000)'`;

/** The tree is up: both grandchildren of NODE_TREE exist. */
const treeUp = (procs: Array<{ command: string }>) => procs.some((p) => p.command === "sleep 301") && procs.some((p) => p.command === "sleep 300");

function finished(t: TestCore, taskId: string): Promise<TaskInfo> {
  return waitFor(() => t.events.find((e) => e.method === "task/finished" && (e.params.task as TaskInfo).taskId === taskId)?.params.task as TaskInfo, 20_000);
}

const fileHas = (file: string, text: string) => {
  try {
    return readFileSync(file, "utf8").includes(text);
  } catch {
    return false;
  }
};

describe("timeouts", () => {
  it("BASH-TO-5 BASH-TO-6 a command past its timeout moves to the background with the exact text and keeps running", async () => {
    const t = testCore();
    const r = await t.bash({ command: "echo begin; sleep 1.5; echo end", timeout: 300, description: "slow" });
    const m = AUTO_TEXT.exec(r.text);
    expect(m, r.text).not.toBeNull();
    expect(m![1]).toBe("0.3");
    expect(r.text).not.toMatch(/timed out/i);
    expect(r.isError).toBe(false);
    expect(r.s).toMatchObject({ success: true, backgroundTaskId: m![2], assistantAutoBackgrounded: true, backgroundedByUser: false, outputPath: m![3] });
    const task = await finished(t, m![2]!);
    expect(task).toMatchObject({ status: "completed", exitCode: 0, origin: "timeout", description: "slow", outputPath: m![3] });
    expect(readFileSync(m![3]!, "utf8")).toBe("begin\nend\n");
  });

  it("BASH-TO-5 a command starting with sleep is stopped at the timeout, still success: true", async () => {
    const t = testCore();
    const r = await t.bash({ command: "sleep 30 && echo never", timeout: 300 });
    expect(r.s).toMatchObject({ success: true, backgroundTaskId: null, assistantAutoBackgrounded: false, timedOut: true });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^Command exceeded the timeout \(0\.3s\) and was stopped/);
    expect(r.text).not.toMatch(/timed out/i);
    expect(ourProcesses()).toEqual([]);
  });

  it("BASH-TO-7 only a user's backgrounding is marked to stop the agent's loop", async () => {
    const t = testCore();
    const auto = await t.bash({ command: "true; sleep 2", timeout: 200 });
    expect(auto.s.assistantAutoBackgrounded).toBe(true);
    expect(auto.s.backgroundedByUser).toBe(false);
    expect(auto.s.interrupted).toBe(false);
  });
});

describe("background tasks", () => {
  it("BASH-BG-1 run_in_background returns at once with the exact text, the task id and a live log", async () => {
    const t = testCore();
    const r = await t.bash({ command: "echo first; sleep 1; echo second", run_in_background: true });
    const m = BG_TEXT.exec(r.text);
    expect(m, r.text).not.toBeNull();
    expect(r.s).toMatchObject({ success: true, backgroundTaskId: m![1], outputPath: m![2], backgroundedByUser: false, assistantAutoBackgrounded: false });
    const started = t.events.find((e) => e.method === "task/started")!.params.task as TaskInfo;
    expect(started).toMatchObject({ taskId: m![1], status: "running", origin: "background", exitCode: null, signal: null });
  });

  it("BASH-BG-2 background commands have no timeout, default or explicit", async () => {
    const t = testCore();
    const r = await t.bash({ command: "sleep 1; echo survived", run_in_background: true, timeout: 100 });
    const id = r.s.backgroundTaskId!;
    const task = await finished(t, id);
    expect(task.status).toBe("completed");
    expect(readFileSync(task.outputPath, "utf8")).toBe("survived\n");
  });

  it("BASH-BG-3 the log file shows the output produced so far", async () => {
    const t = testCore();
    const r = await t.bash({ command: "echo first; sleep 30; echo second", run_in_background: true });
    expect(await waitFor(() => fileHas(r.s.outputPath!, "first"))).toBe(true);
    expect(readFileSync(r.s.outputPath!, "utf8")).toBe("first\n");
    // The Read tool shows it too.
    const read = await t.call("Read", { file_path: r.s.outputPath! });
    expect(read.content[0]).toMatchObject({ type: "text" });
    expect((read.content[0] as { text: string }).text).toContain("first");
  });

  it("BASH-BG-4 TaskStop stops the whole tree; unknown ids get an error naming them", async () => {
    const t = testCore();
    const r = await t.bash({ command: NODE_TREE, run_in_background: true });
    const id = r.s.backgroundTaskId!;
    expect(await waitFor(() => fileHas(r.s.outputPath!, "ready"))).toBe(true);
    await waitFor(() => treeUp(ourProcesses()));
    const before = ourProcesses();
    expect(before.map((p) => p.command).join("\n")).toMatch(/sleep 301/);
    const stop = await t.call("TaskStop", { task_id: id });
    expect(stop.isError).toBe(false);
    expect(stop.structuredContent).toMatchObject({ stopped: true, taskId: id, status: "killed" });
    expect(ourProcesses()).toEqual([]);
    for (const p of before) expect(isAlive(p.pid)).toBe(false);
    const unknown = await t.call("TaskStop", { task_id: "bnosuch" });
    expect(unknown.isError).toBe(true);
    expect((unknown.content[0] as { text: string }).text).toContain('No such task: "bnosuch"');
  });

  it("BASH-BG-5 the user can move a running command to the background (Ctrl+B) with the exact text", async () => {
    const t = testCore();
    const pending = t.bash({ command: "echo started; sleep 2; echo finished" }, { callId: "call-1" });
    await waitFor(() => t.core.inFlightCalls().some((c) => c.callId === "call-1" && c.moveToBackground));
    await waitFor(() => ourProcesses().length > 0);
    const taskId = t.core.moveToBackground("call-1");
    expect(taskId).toMatch(/^b[0-9a-z]{6}$/);
    const r = await pending;
    const m = USER_TEXT.exec(r.text);
    expect(m, r.text).not.toBeNull();
    expect(m![1]).toBe(taskId);
    expect(r.s).toMatchObject({ success: true, backgroundTaskId: taskId, backgroundedByUser: true, assistantAutoBackgrounded: false });
    const task = await finished(t, taskId!);
    expect(task).toMatchObject({ origin: "user", status: "completed", exitCode: 0 });
    expect(readFileSync(task.outputPath, "utf8")).toBe("started\nfinished\n");
    // A finished call cannot be moved.
    expect(t.core.moveToBackground("call-1")).toBeUndefined();
  });

  it("BASH-BG-6 the end of a task is announced with id, exit code, output path and survivors", async () => {
    const t = testCore();
    const r = await t.bash({ command: "sleep 30 & echo out; exit 5", run_in_background: true });
    const task = await finished(t, r.s.backgroundTaskId!);
    expect(task).toMatchObject({ taskId: r.s.backgroundTaskId, status: "failed", exitCode: 5, signal: null, outputPath: r.s.outputPath });
    expect(task.survivors.map((s) => s.command)).toEqual(["sleep 30"]);
    expect(task.endedAt).toBeDefined();
    // TaskStop on it says it already exited, and stops what it left running.
    const stop = await t.call("TaskStop", { task_id: task.taskId });
    const text = (stop.content[0] as { text: string }).text;
    expect(text).toContain(`Task ${task.taskId} had already exited with code 5`);
    expect(text).toMatch(/Stopped the processes it had left running: \d+ sleep 30/);
    expect(ourProcesses()).toEqual([]);
  });

  it("BASH-BG-6 MCP and CLI callers get the notice on the session's next result; hosts do not", async () => {
    for (const origin of ["mcp", "cli", "host"] as const) {
      const t = testCore();
      const r = await t.bash({ command: "echo hi", run_in_background: true }, { origin });
      const id = r.s.backgroundTaskId!;
      await finished(t, id);
      const next = await t.bash({ command: "true" }, { origin });
      if (origin === "host") {
        expect(next.text).not.toContain("task-notifications");
        continue;
      }
      expect(next.text).toContain(`<task-notifications>\nBackground task ${id} completed (exit code 0): echo hi. Output: ${r.s.outputPath}\n</task-notifications>`);
      expect((next.structuredContent.taskNotifications as TaskInfo[])[0]!.taskId).toBe(id);
      const again = await t.bash({ command: "true" }, { origin });
      expect(again.text).not.toContain("task-notifications");
    }
  });

  it("task ids are short and unique", async () => {
    const t = testCore();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await t.bash({ command: "true", run_in_background: true })).s.backgroundTaskId!);
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id).toMatch(/^b[0-9a-z]{6}$/);
  });
});

describe("stopping process trees", () => {
  it("BASH-KILL-1 cancelling a foreground command kills the whole tree and returns the output so far", async () => {
    const t = testCore();
    const ctl = new AbortController();
    const pending = t.bash({ command: `echo before; ${NODE_TREE}` }, { signal: ctl.signal });
    await waitFor(() => treeUp(ourProcesses()));
    const procs = ourProcesses();
    ctl.abort(new Error("cancelled by the client"));
    const r = await pending;
    expect(r.s).toMatchObject({ success: false, interrupted: true });
    expect(r.s.output).toBe("before\nready\n");
    expect(r.text).toContain("Command was aborted before it finished (cancelled by the client)");
    expect(ourProcesses()).toEqual([]);
    for (const p of procs) expect(isAlive(p.pid)).toBe(false);
  });

  it("BASH-KILL-2 the shell leads its own process group", async () => {
    // As the shell sees it, without a sandbox (whose PID namespace hides the group's leader, bwrap).
    const t = testCore({ sandbox: NO_SANDBOX });
    const r = await t.bash({ command: "ps -o pid=,pgid= -p $$" });
    const [pid, pgid] = r.s.output.trim().split(/\s+/);
    expect(pid).toBe(pgid);
    // In the sandbox the group is the one the core started (bwrap), the shell in it, the core outside it.
    const s = testCore();
    const bg = await s.bash({ command: "sleep 300", run_in_background: true });
    const task = s.core.sessions.main.service(TASKS).get(bg.s.backgroundTaskId!)!;
    const shell = await waitFor(() => markedProcesses(PROCESS_TOKEN).find((p) => p.command === "sleep 300"));
    expect(readProcEntry(shell!.pid)!.pgid).toBe(task.pid);
    expect(readProcEntry(process.pid)!.pgid).not.toBe(task.pid);
  });

  it("BASH-KILL-4 background tasks stopped at session end use the same tree kill", async () => {
    const t = testCore();
    const sub = t.core.sessions.create({});
    const r = await t.bash({ command: `trap '' TERM; ${NODE_TREE}`, run_in_background: true }, { sessionId: sub.id });
    expect(await waitFor(() => fileHas(r.s.outputPath!, "ready"))).toBe(true);
    const prefix = `${PROCESS_TOKEN}.${sub.service(RUNS).tag}.`;
    await waitFor(() => treeUp(markedProcesses(prefix)));
    await t.core.sessions.dispose(sub.id);
    expect(markedProcesses(prefix)).toEqual([]);
    const task = t.events.find((e) => e.method === "task/finished")!.params.task as TaskInfo;
    expect(task.status).toBe("killed");
  });

  it("BASH-KILL-5 a sub-agent's end stops its own tasks then, and not its parent's", async () => {
    for (const ending of ["success", "failure"] as const) {
      const t = testCore();
      const main = await t.bash({ command: "sleep 300", run_in_background: true });
      const sub = t.core.sessions.create({ parentId: "main" });
      const child = await t.bash({ command: `sleep 301; exit ${ending === "success" ? 0 : 1}`, run_in_background: true }, { sessionId: sub.id });
      const subPrefix = `${PROCESS_TOKEN}.${sub.service(RUNS).tag}.`;
      await waitFor(() => markedProcesses(subPrefix).length >= 2);
      await t.core.sessions.dispose(sub.id);
      expect(markedProcesses(subPrefix)).toEqual([]);
      expect(t.core.sessions.main.service(TASKS).get(main.s.backgroundTaskId!)?.status).toBe("running");
      expect(child.s.backgroundTaskId).not.toBe(main.s.backgroundTaskId);
      await t.core.shutdown();
      expect(ourProcesses()).toEqual([]);
    }
  });

  it("BASH-KILL-5 an in-flight foreground command of a disposed sub-agent is stopped with its tree", async () => {
    const t = testCore();
    const sub = t.core.sessions.create({});
    const pending = t.bash({ command: NODE_TREE }, { sessionId: sub.id });
    const prefix = `${PROCESS_TOKEN}.${sub.service(RUNS).tag}.`;
    await waitFor(() => treeUp(markedProcesses(prefix)));
    await t.core.sessions.dispose(sub.id);
    const r = await pending;
    expect(r.s.interrupted).toBe(true);
    expect(r.text).toContain("ended");
    expect(markedProcesses(prefix)).toEqual([]);
  });

  it("shutdown stops every tree the core started, background and foreground stragglers alike", async () => {
    const t = testCore();
    await t.bash({ command: NODE_TREE, run_in_background: true });
    await t.bash({ command: "setsid sleep 300 & sleep 301 & echo left" });
    await waitFor(() => treeUp(ourProcesses()) && ourProcesses().length >= 5);
    await t.core.shutdown();
    expect(ourProcesses()).toEqual([]);
  });
});
