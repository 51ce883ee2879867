// The Bash engine through the bundled core: host protocol (tasks, Ctrl+B, cancel), MCP
// (cancel, notices, end of connection), the CLI, and the core dying in every way it can —
// stdin EOF, SIGTERM, and SIGKILL (the watchdog). Orphans are looked for by the marker
// WAVE_CORE_PID=<core pid> in /proc, not only through the direct child.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE, bundleExists, CoreProcess, stopCores, type Message } from "./support/coreProcess.js";
import { isAlive, processesOfCore, tempDir, waitFor } from "./support/processes.js";

const clients: CoreProcess[] = [];
beforeAll(() => {
  if (!bundleExists()) throw new Error(`Build the bundle first (npm run build): ${BUNDLE} is missing.`);
});
afterEach(() => stopCores(clients));

/** Permissions are not the subject here: the cores run every command (docs/user/permissions.md, "Modes"). */
const ALLOW_ALL = ["--permission-mode", "allow-all"];

function serve(root = tempDir("wave-e2e-"), env?: NodeJS.ProcessEnv): CoreProcess {
  const c = new CoreProcess(["serve", "--root", root, ...ALLOW_ALL], env ? { env, inheritEnv: false } : {});
  clients.push(c);
  return c;
}

const childrenOf = (c: CoreProcess) => processesOfCore(c.child.pid);

function structured(m: Message) {
  return (m.result as { structuredContent: Record<string, unknown> }).structuredContent;
}

/** A tree of processes that all ignore SIGTERM, three levels deep. */
const STUBBORN = `trap '' TERM; bash -c "trap '' TERM; bash -c \\"trap '' TERM; sleep 300\\" & sleep 300" & sleep 300 & wait`;

describe("host protocol", () => {
  it("BASH-BG-1 BASH-BG-4 BASH-BG-6 tasks/list, tasks/stop, task/started and task/finished", async () => {
    const c = serve();
    const init = await c.request("initialize", { protocolVersion: "2.0", hostInfo: { name: "e2e" } });
    expect((init.result!.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(expect.arrayContaining(["Bash", "TaskStop"]));
    expect(init.result!.capabilities).toMatchObject({ methods: expect.arrayContaining(["tasks/list", "tasks/stop"]) });

    const started = await c.request("tools/call", { name: "Bash", arguments: { command: STUBBORN, run_in_background: true, description: "stubborn" } });
    const s = structured(started);
    const taskId = s.backgroundTaskId as string;
    const ev = await c.waitFor((m) => m.method === "task/started");
    expect(ev.params!.task).toMatchObject({ taskId, sessionId: "main", command: STUBBORN, description: "stubborn", origin: "background", status: "running", outputPath: s.outputPath });

    const list = await c.request("tasks/list", {});
    expect(list.result!.tasks).toEqual([expect.objectContaining({ taskId, status: "running", pid: expect.any(Number), exitCode: null, survivors: [] })]);
    expect(await waitFor(() => childrenOf(c).filter((p) => p.command === "sleep 300").length === 3)).toBe(true);

    const stop = await c.request("tasks/stop", { taskId });
    expect(stop.result).toMatchObject({ stopped: true, task: { taskId, status: "killed", signal: "SIGKILL" } });
    expect(childrenOf(c)).toEqual([]);
    const fin = await c.waitFor((m) => m.method === "task/finished");
    expect(fin.params!.task).toMatchObject({ taskId, status: "killed", outputPath: s.outputPath, survivors: [] });

    const again = await c.request("tasks/stop", { taskId });
    expect(again.result).toMatchObject({ stopped: false, message: expect.stringContaining(`Task ${taskId}`) });
    const unknown = await c.request("tasks/stop", { taskId: "bzzzzzz" });
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringContaining('"bzzzzzz"') });
    const badSession = await c.request("tasks/list", { sessionId: "nope" });
    expect(badSession.error?.code).toBe(-32602);
  });

  it("BASH-BG-5 calls/moveToBackground answers the pending call at once with backgroundedByUser", async () => {
    const c = serve();
    const pending = c.request("tools/call", { name: "Bash", arguments: { command: "echo up; sleep 300" }, callId: "ctrl-b" });
    await waitFor(() => childrenOf(c).some((p) => p.command === "sleep 300"));
    const moved = await c.request("calls/moveToBackground", { callId: "ctrl-b" });
    expect(moved.result).toMatchObject({ moved: true, taskId: expect.stringMatching(/^b[0-9a-z]{6}$/) });
    const r = await pending;
    expect(structured(r)).toMatchObject({ backgroundedByUser: true, backgroundTaskId: moved.result!.taskId, success: true });
    expect((r.result!.content as Array<{ text: string }>)[0]!.text).toBe(
      `Command was manually backgrounded by user with ID: ${moved.result!.taskId}. Output is being written to: ${structured(r).outputPath}`,
    );
    const tasks = await c.request("tasks/list", {});
    expect(tasks.result!.tasks).toEqual([expect.objectContaining({ origin: "user", status: "running" })]);
    expect((await c.request("calls/moveToBackground", { callId: "ctrl-b" })).result).toMatchObject({ moved: false });
  });

  it("BASH-BG-5 Ctrl+B before the shell has started (it waits for the login environment) is kept and honoured", async () => {
    const home = tempDir("wave-slow-home-");
    // A login profile that takes a second: the command's shell waits for the probe that long.
    writeFileSync(path.join(home, ".bashrc"), "sleep 1\n");
    writeFileSync(path.join(home, ".bash_profile"), ". ~/.bashrc\n");
    const c = serve(tempDir("wave-e2e-"), { ...process.env, HOME: home, SHELL: "/bin/bash", WAVE_LOGIN_ENV: "" });
    const pending = c.request("tools/call", { name: "Bash", arguments: { command: "sleep 300" }, callId: "early" });
    await c.waitFor((m) => m.method === "tool/started" && (m.params as { callId?: string }).callId === "early");
    const moved = await c.request("calls/moveToBackground", { callId: "early" });
    expect(moved.result).toMatchObject({ moved: true, taskId: expect.stringMatching(/^b[0-9a-z]{6}$/) });
    // The shell was not running yet when the answer came.
    expect(childrenOf(c).some((p) => p.command === "sleep 300")).toBe(false);
    const r = await pending;
    expect(structured(r)).toMatchObject({ backgroundedByUser: true, backgroundTaskId: moved.result!.taskId });
    await waitFor(() => childrenOf(c).some((p) => p.command === "sleep 300"));
    const tasks = await c.request("tasks/list", {});
    expect(tasks.result!.tasks).toEqual([expect.objectContaining({ taskId: moved.result!.taskId, origin: "user", status: "running" })]);
  });

  it("BASH-KILL-1 $/cancelRequest kills the tree and answers with the output so far", async () => {
    const c = serve();
    const pending = c.request("tools/call", { name: "Bash", arguments: { command: `echo partial; ${STUBBORN}` } }, "to-cancel");
    expect(await waitFor(() => childrenOf(c).filter((p) => p.command === "sleep 300").length === 3)).toBe(true);
    c.notify("$/cancelRequest", { id: "to-cancel" });
    const r = await pending;
    expect(structured(r)).toMatchObject({ interrupted: true, success: false, output: "partial\n" });
    expect((r.result!.content as Array<{ text: string }>)[0]!.text).toContain("Command was aborted before it finished");
    expect(childrenOf(c)).toEqual([]);
  });

  it("HOST-5 end of stdin stops every tree the core started, then the core exits 0", async () => {
    const c = serve();
    await c.request("tools/call", { name: "Bash", arguments: { command: "sleep 300", run_in_background: true } });
    await c.request("tools/call", { name: "Bash", arguments: { command: "setsid sleep 301 & echo left" } });
    const pending = c.request("tools/call", { name: "Bash", arguments: { command: STUBBORN } });
    await waitFor(() => childrenOf(c).length >= 6);
    c.child.stdin!.end();
    const r = await pending;
    expect(structured(r).interrupted).toBe(true);
    expect((await c.exited).code).toBe(0);
    expect(childrenOf(c)).toEqual([]);
  });

  it("HOST-5 SIGTERM of the core stops every tree it started", async () => {
    const c = serve();
    await c.request("tools/call", { name: "Bash", arguments: { command: STUBBORN, run_in_background: true } });
    expect(await waitFor(() => childrenOf(c).filter((p) => p.command === "sleep 300").length === 3)).toBe(true);
    c.child.kill("SIGTERM");
    await c.exited;
    expect(childrenOf(c)).toEqual([]);
  });

  it("kill -9 of the core: the watchdog takes its children down within a couple of seconds", async () => {
    const c = serve();
    await c.request("tools/call", { name: "Bash", arguments: { command: STUBBORN, run_in_background: true } });
    // Never answered: the core is killed while it runs.
    c.request("tools/call", { name: "Bash", arguments: { command: "setsid sleep 302 & node -e 'setInterval(()=>{},1000)'" } }).catch(() => undefined);
    await waitFor(() => childrenOf(c).filter((p) => /^sleep 30[02]$/.test(p.command)).length === 4 && childrenOf(c).some((p) => p.command.startsWith("node -e")));
    expect(childrenOf(c).length).toBeGreaterThanOrEqual(7);
    const watchdog = spawnSync("pgrep", ["-P", String(c.child.pid), "-f", "wave-core-watchdog"], { encoding: "utf8" }).stdout.trim();
    expect(watchdog).toMatch(/^\d+$/);
    c.child.kill("SIGKILL");
    await c.exited;
    // TERM first, SIGKILL one second later for the TERM-ignoring ones.
    expect(await waitFor(() => childrenOf(c).length === 0, 4000, 100)).toBe(true);
    // Its work done, the watchdog exits too.
    expect(await waitFor(() => !isAlive(Number(watchdog)), 3000)).toBe(true);
  });
});

describe("MCP server", () => {
  function mcp(root = tempDir("wave-mcp-")): CoreProcess {
    const c = new CoreProcess(["mcp", "--root", root, ...ALLOW_ALL]);
    clients.push(c);
    return c;
  }

  async function init(c: CoreProcess) {
    await c.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } });
    c.notify("notifications/initialized");
  }

  const text = (m: Message) => (m.result!.content as Array<{ text: string }>).map((x) => x.text).join("\n");

  it("BASH-BG-6 attaches finished-task notices to the next result; notifications/cancelled kills the tree", async () => {
    const c = mcp();
    await init(c);
    const bg = await c.request("tools/call", { name: "Bash", arguments: { command: "echo done; exit 4", run_in_background: true } });
    const taskId = structured(bg).backgroundTaskId as string;
    await waitFor(() => !childrenOf(c).some((p) => p.command.includes("exit 4")));
    let next: Message | undefined;
    await waitFor(async () => {
      next = await c.request("tools/call", { name: "Bash", arguments: { command: "true" } });
      return text(next).includes("<task-notifications>");
    });
    expect(text(next!)).toContain(`Background task ${taskId} failed (exit code 4): echo done; exit 4. Output: ${structured(bg).outputPath}`);

    // Never answered: MCP sends no response to a cancelled request.
    c.request("tools/call", { name: "Bash", arguments: { command: `echo so-far; ${STUBBORN}` } }, 77).catch(() => undefined);
    expect(await waitFor(() => childrenOf(c).filter((p) => p.command === "sleep 300").length === 3)).toBe(true);
    c.notify("notifications/cancelled", { requestId: 77, reason: "user stop" });
    await waitFor(() => childrenOf(c).length === 0, 5000);
    expect(childrenOf(c)).toEqual([]);
  });

  it("closing the connection stops the session's background tasks", async () => {
    const c = mcp();
    await init(c);
    await c.request("tools/call", { name: "Bash", arguments: { command: STUBBORN, run_in_background: true } });
    expect(await waitFor(() => childrenOf(c).filter((p) => p.command === "sleep 300").length === 3)).toBe(true);
    c.child.stdin!.end();
    await c.exited;
    expect(childrenOf(c)).toEqual([]);
  });
});

describe("host-relayed client sessions", () => {
  const text = (m: Message) => (m.result!.content as Array<{ text: string }>).map((x) => x.text).join("\n");

  it("BASH-BG-6 a session the host relays for an MCP client gets the task notices; the host's own session does not", async () => {
    const c = new CoreProcess(["serve", "--root", tempDir("wave-relay-"), ...ALLOW_ALL]);
    clients.push(c);
    const created = await c.request("sessions/create", { client: { name: "claude-code", version: "2.1.0" } });
    const sessionId = created.result!.sessionId as string;
    for (const session of [sessionId, undefined]) {
      const bg = await c.request("tools/call", { name: "Bash", sessionId: session, arguments: { command: "echo done; exit 4", run_in_background: true } });
      const taskId = structured(bg).backgroundTaskId as string;
      await waitFor(() => !childrenOf(c).some((p) => p.command.includes("exit 4")));
      // The task/finished notification has been sent by now: a result after it carries the notice, or never will.
      await c.waitFor((m) => m.method === "task/finished" && (m.params as { task: { taskId: string } }).task.taskId === taskId);
      const next = await c.request("tools/call", { name: "Bash", sessionId: session, arguments: { command: "true" } });
      if (session) {
        expect(text(next)).toContain(`Background task ${taskId} failed (exit code 4): echo done; exit 4.`);
        expect(structured(next).taskNotifications).toEqual([expect.objectContaining({ taskId, status: "failed" })]);
      } else {
        expect(text(next)).not.toContain("<task-notifications>");
      }
    }
  });
});

describe("CLI and environment", () => {
  it('README: `call Bash \'{"command":"git status"}\'` works from the repository root', () => {
    const repoRoot = path.resolve(path.dirname(BUNDLE), "..", "..");
    const r = spawnSync(process.execPath, [BUNDLE, "call", "Bash", '{"command":"git status"}'], { cwd: repoRoot, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/On branch|HEAD detached/);
  });

  it("BASH-SH-3 $SHELL pointing to zsh makes commands run in zsh; bash otherwise", () => {
    const run = (shell: string) => {
      const env: NodeJS.ProcessEnv = { ...process.env, SHELL: shell };
      delete env.WAVE_SHELL;
      return spawnSync(process.execPath, [BUNDLE, "call", "Bash", '{"command":"echo ${ZSH_VERSION:+zsh}${BASH_VERSION:+bash}"}'], { env, encoding: "utf8" }).stdout;
    };
    expect(run("/usr/bin/zsh")).toBe("zsh\n");
    expect(run("/bin/bash")).toBe("bash\n");
    expect(run("/usr/bin/fish")).toBe("bash\n");
  });

  it("BASH-SH-5 the user's rc files never apply: aliases, functions and shell options from them are absent", () => {
    const home = tempDir("wave-home-");
    const rc = "alias ll='echo ALIAS'\nrcfn() { echo FUNCTION; }\nexport FROM_RC=yes\n";
    writeFileSync(path.join(home, ".bashrc"), rc + "shopt -s expand_aliases\n");
    writeFileSync(path.join(home, ".bash_profile"), rc);
    writeFileSync(path.join(home, ".profile"), rc);
    writeFileSync(path.join(home, ".zshenv"), rc);
    writeFileSync(path.join(home, ".zshrc"), rc);
    mkdirSync(path.join(home, "ws"));
    for (const shell of ["/usr/bin/bash", "/usr/bin/zsh"]) {
      const env = { ...process.env, HOME: home, SHELL: shell, WAVE_SHELL: shell };
      const r = spawnSync(
        process.execPath,
        [BUNDLE, "call", "Bash", JSON.stringify({ command: 'll 2>/dev/null || echo no-alias; rcfn 2>/dev/null || echo no-function; echo "rc=${FROM_RC:-unset}"' }), "--root", path.join(home, "ws")],
        { env, encoding: "utf8" },
      );
      expect(r.stdout, `${shell}: ${r.stderr}`).toBe("no-alias\nno-function\nrc=unset\n");
    }
  });
});
