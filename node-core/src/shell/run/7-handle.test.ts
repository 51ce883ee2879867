import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeCores, ourProcesses, testCore } from "../../../test/support/core.js";
import { tempDir, waitFor } from "../../../test/support/processes.js";
import { PROCESS_TOKEN, processOutputDir } from "../outputDir.js";
import { hostPlatform } from "../../util/platform.js";
import { platformWith } from "../../../test/support/platform.js";
import { ShellEngine } from "../engine.js";
import { toGitBashPath } from "../winpath.js";
import { SpawnFailed } from "./1-request.js";
import { startShellRun } from "./4-launcher.js";
import { ShellRun } from "./7-handle.js";

afterEach(closeCores);
const engine = new ShellEngine();
afterAll(async () => {
  engine.dispose();
  await closeCores();
  expect(await waitFor(() => ourProcesses().length === 0, 5000)).toBe(true);
});

let seq = 0;
function spec(command: string, extra: Partial<Parameters<typeof startShellRun>[0]> = {}) {
  const runId = `${PROCESS_TOKEN}.9999.${++seq}`;
  return { command, cwd: tempDir(), runId, outputPath: path.join(processOutputDir(), `runner-${seq}.log`), trackCwd: false, shimsEnabled: true, engine, ...extra };
}

describe("ShellRun", () => {
  it("finds survivors that left the group (setsid) and those that stayed in it", async () => {
    const escaped = await startShellRun(spec("setsid sleep 300 & echo x"));
    await escaped.exited;
    expect((await escaped.findSurvivors()).map((s) => s.command)).toEqual([expect.stringMatching(/^(setsid )?sleep 300$/)]);
    await escaped.stop();
    expect(await escaped.findSurvivors()).toEqual([]);

    const grouped = await startShellRun(spec("sleep 301 & echo x"));
    await grouped.exited;
    expect((await grouped.findSurvivors()).map((s) => s.command)).toEqual(["sleep 301"]);
    await grouped.stop();
    expect(await grouped.findSurvivors()).toEqual([]);

    const clean = await startShellRun(spec("echo clean"));
    await clean.exited;
    expect(await clean.findSurvivors()).toEqual([]);
  });

  it("RSC-2 keeps stdout and stderr apart in files of their own, each in the order written", async () => {
    const errPath = path.join(processOutputDir(), `runner-${seq + 1}.err.log`);
    const run = await startShellRun(spec("for i in 1 2 3; do echo out$i; echo err$i >&2; done; printf tail", { stderrPath: errPath, shellKind: "bash" }));
    expect(run.stderrPath).toBe(errPath);
    await run.exited;
    expect(readFileSync(run.outputPath, "utf8")).toBe("out1\nout2\nout3\ntail");
    expect(readFileSync(errPath, "utf8")).toBe("err1\nerr2\nerr3\n");
    const shared = await startShellRun(spec("echo a; echo b >&2; echo c"));
    await shared.exited;
    expect(readFileSync(shared.outputPath, "utf8")).toBe("a\nb\nc\n");
    expect(shared.stderrPath).toBeUndefined();
  });

  it("RSC-1 shellKind bash runs bash even when the Bash tool's shell is zsh", async () => {
    const saved = process.env.WAVE_SHELL;
    process.env.WAVE_SHELL = "/usr/bin/zsh";
    try {
      const run = await startShellRun(spec("echo ${BASH_VERSION:+bash}${ZSH_VERSION:+zsh}", { shellKind: "bash" }));
      await run.exited;
      expect(readFileSync(run.outputPath, "utf8")).toBe("bash\n");
      expect(run.shell.kind).toBe("bash");
    } finally {
      if (saved === undefined) delete process.env.WAVE_SHELL;
      else process.env.WAVE_SHELL = saved;
    }
  });

  it("says clearly when the stderr file cannot be created, and leaves no process", async () => {
    const err = await startShellRun(spec("sleep 30", { stderrPath: "/nonexistent-dir/x.err" })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpawnFailed);
    expect((err as Error).message).toMatch(/Could not create the output file \/nonexistent-dir\/x\.err \(ENOENT\)/);
    expect(ourProcesses()).toEqual([]);
  });

  it("reports the exit code, or the signal that killed the shell", async () => {
    const a = await startShellRun(spec("exit 9"));
    expect(await a.exited).toEqual({ exitCode: 9, signal: null });
    const b = await startShellRun(spec("kill -KILL $$"));
    expect(await b.exited).toEqual({ exitCode: null, signal: "SIGKILL" });
  });

  it("says clearly when the output file cannot be created", async () => {
    const err = await startShellRun(spec("true", { outputPath: "/nonexistent-dir/x.log" })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpawnFailed);
    expect((err as Error).message).toMatch(/Could not create the output file \/nonexistent-dir\/x\.log \(ENOENT\).*WAVE_OUTPUT_DIR/);
  });

  it("BASH-WIN-4 removes the cwd file after every command: normal, failed, stopped, backgrounded", async () => {
    const t = testCore();
    await t.bash({ command: "echo ok" });
    await t.bash({ command: "cd /; exit 2" });
    await t.bash({ command: "sleep 5", timeout: 100 });
    const ctl = new AbortController();
    const pending = t.bash({ command: "echo x; sleep 5" }, { signal: ctl.signal });
    await waitFor(() => ourProcesses().length > 0);
    ctl.abort();
    await pending;
    const bg = await t.bash({ command: "true; sleep 0.3", timeout: 50 });
    await waitFor(() => t.events.some((e) => e.method === "task/finished" && (e.params.task as { taskId: string }).taskId === bg.s.backgroundTaskId));
    expect(readdirSync(processOutputDir()).filter((f) => f.endsWith(".cwd"))).toEqual([]);
  });

  it("BASH-WIN-5 converts the Git Bash path in the cwd file to a native path (injected Windows shell)", async () => {
    const child = spawn("true");
    await new Promise((r) => child.once("exit", r));
    const cwdFile = path.join(tempDir(), "w.cwd");
    const gitBash = { kind: "bash" as const, path: "C:\\Program Files\\Git\\bin\\bash.exe", platform: "win32" as const };
    const inv = (env: Record<string, string>) => ({ file: "bash", args: ["-c", "pwd"], env });
    const run = new ShellRun({
      child,
      spec: spec("pwd"),
      plan: { shell: gitBash, cwdFile, inv: inv({ TEMP: "C:\\Users\\me\\AppData\\Local\\Temp", WAVE_CWD_FILE: toGitBashPath(cwdFile) }), platform: platformWith({ name: "win32" }) },
    });
    for (const [printed, native] of [
      ["/c/Users/me/github/wave-agent\n", "C:\\Users\\me\\github\\wave-agent"],
      ["/cygdrive/d/src\n", "D:\\src"],
      ["/tmp/build\n", "C:\\Users\\me\\AppData\\Local\\Temp\\build"],
      ["/usr/share\n", "C:\\Program Files\\Git\\usr\\share"],
    ]) {
      writeFileSync(cwdFile, printed!);
      expect(run.readCwd()).toEqual({ cwd: native });
    }
    run.discardCwdFile();
    expect(run.readCwd().reason).toMatch(/no cwd file/);
    // The POSIX branch hands back pwd -P as printed.
    const posix = new ShellRun({
      child,
      spec: spec("pwd"),
      plan: { shell: { kind: "bash", path: "/bin/bash", platform: "linux" }, cwdFile, inv: inv({ WAVE_CWD_FILE: cwdFile }), platform: hostPlatform() },
    });
    writeFileSync(cwdFile, "/home/me/dir with space \n");
    expect(posix.readCwd()).toEqual({ cwd: "/home/me/dir with space " });
    // A shell that was not told of the file (a plain run) did not write it: whatever is there is not read.
    const plain = new ShellRun({ child, spec: spec("pwd"), plan: { shell: { kind: "bash", path: "/bin/bash", platform: "linux" }, cwdFile, inv: inv({}), platform: hostPlatform() } });
    expect(plain.readCwd()).toEqual({ reason: "cwd tracking was off" });
  });
});
