// Bash engine benchmarks (issues 3 and 24). Each figure is a ratio against a baseline measured in this run:
//  1. Foreground unsandboxed `echo hi` through tools/call vs a raw child_process.spawn of the same shell command (p50);
//     also `ls /`, run plain, and `cd . && ls /`, run with the start-up file (no goal: where time goes).
//  2. A command printing 1 GiB: the core's peak RSS (VmHWM), and wall time vs the same command
//     redirected to a file by a raw spawn.
//  3. Stopping a three-level tree that ignores SIGTERM: time until every process is gone, against the
//     1000 ms SIGTERM→SIGKILL grace period (goal: within 1.2 s), and against a hand-written group kill.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { compareEchoLatency, median, nowMs, peakRssKb, rawShell, report, startCore } from "./lib.mjs";

const bash = execFileSync("bash", ["-c", "command -v bash"], { encoding: "utf8" }).trim();
const root = mkdtempSync(path.join(os.tmpdir(), "wave-bench-"));
const outDir = mkdtempSync(path.join(os.tmpdir(), "wave-bench-out-"));
// Not the developer's own login profile: its speed is not the subject.
const env = { ...process.env, WAVE_SHELL: bash, WAVE_OUTPUT_DIR: outDir, WAVE_LOG_LEVEL: "warn", WAVE_LOGIN_ENV: "0" };

const rawSpawn = (script, stdio) => rawShell(bash, script, env, stdio);

// Permissions are measured in permissions.bench.mjs; here every command runs (allow-all), which still
// takes the permission check (parse and danger analysis) that every real call pays. The engine
// against a raw bash: without the sandbox, whose cost sandbox.bench.mjs measures against raw bwrap.
const core = startCore(["--root", root, "--permission-mode", "allow-all", "--sandbox", "off"], { env, stdio: ["pipe", "pipe", "inherit"] });
await core.request("initialize", { protocolVersion: "1.0", hostInfo: { name: "bench" } });
const bashCall = async (args) => {
  const msg = await core.request("tools/call", { name: "Bash", arguments: args });
  if (msg.error) throw new Error(JSON.stringify(msg.error));
  return msg.result;
};

// 1. echo hi, unsandboxed: always a cold start (shells started ahead serve sandboxed commands only,
// src/shell/run/5-ahead.ts; sandbox.bench.mjs measures those): the plain `bash -c` a raw spawn is.
await compareEchoLatency({
  name: "Unsandboxed Bash `echo hi` via tools/call (cold start), p50",
  goal: 1.5,
  callTool: () => bashCall({ command: "echo hi" }),
  raw: () => rawSpawn("echo hi"),
  check: (r) => {
    if (r.structuredContent.output !== "hi\n" || r.structuredContent.sandboxed !== false) throw new Error(`unexpected result: ${JSON.stringify(r.structuredContent)}`);
  },
});

// 1b. A single program, as most commands are: a command that cannot change directory and calls no
// search shim runs as a plain `bash -c` (no start-up file), so bash runs `ls` in place of itself as
// a raw spawn's does; with `cd .` in front it keeps the start-up file and its trap, and forks. In a
// core of its own: the main one's memory before the 1 GiB run stays as it was.
{
  const other = startCore(["--root", root, "--permission-mode", "allow-all", "--sandbox", "off"], { env, stdio: ["pipe", "pipe", "inherit"] });
  await other.request("initialize", { protocolVersion: "1.0", hostInfo: { name: "bench" } });
  const call = async (command) => {
    const msg = await other.request("tools/call", { name: "Bash", arguments: { command } });
    if (msg.error || msg.result.isError) throw new Error(JSON.stringify(msg.error ?? msg.result));
  };
  await compareEchoLatency({ name: "  Bash `ls /` via tools/call (plain bash -c), p50", callTool: () => call("ls /"), raw: () => rawSpawn("ls /"), goal: null });
  await compareEchoLatency({
    name: "  Bash `cd . && ls /` via tools/call (start-up file, cwd trap), p50",
    callTool: () => call("cd . && ls /"),
    raw: () => rawSpawn("cd . && ls /"),
    goal: null,
  });
  await other.close();
}

// 1c. Where the rest goes: the same shell started the way the core starts it (its environment:
// BASH_ENV start-up file with the cwd trap, the shims prelude, the run markers; detached, output to
// a file) but by a raw spawn, against the plain raw spawn. The difference is what the shell itself
// spends on the core's start-up file; what remains of the tools/call figure is the core's own work
// (protocol, permission check, files, spawning from a larger process).
{
  // `cd .` keeps the start-up file (a command that cannot change directory runs without it).
  const seen = await bashCall({ command: "cd .; tr '\\0' '\\n' < /proc/$$/environ" });
  const shellEnv = {};
  for (const line of seen.structuredContent.output.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) shellEnv[line.slice(0, eq)] = line.slice(eq + 1);
  }
  const cwdFile = path.join(outDir, "baseline.cwd");
  const outFile = path.join(outDir, "baseline.log");
  // Its own cwd file, and markers of no run of the core's (values of the same length).
  shellEnv.WAVE_CWD_FILE = cwdFile;
  shellEnv.WAVE_RUN_ID = "x".repeat(shellEnv.WAVE_RUN_ID.length);
  shellEnv.WAVE_CORE_PID = "0".repeat(shellEnv.WAVE_CORE_PID.length);
  if (!shellEnv.BASH_ENV || !shellEnv.WAVE_SHIMS_FILE) throw new Error(`the core's shell environment lacks its start-up files: ${Object.keys(shellEnv)}`);
  const { openSync, closeSync } = await import("node:fs");
  const asCore = () =>
    new Promise((resolve) => {
      const fd = openSync(outFile, "w");
      const child = spawn(bash, ["-c", "echo hi"], { env: shellEnv, stdio: ["ignore", fd, fd], detached: true });
      closeSync(fd);
      child.once("close", resolve);
    });
  const plain = [];
  const withStartup = [];
  for (let i = 0; i < 20; i++) {
    await rawSpawn("echo hi");
    await asCore();
  }
  for (let i = 0; i < 150; i++) {
    let t = nowMs();
    await rawSpawn("echo hi");
    plain.push(nowMs() - t);
    t = nowMs();
    await asCore();
    withStartup.push(nowMs() - t);
  }
  report({ name: "  the shell alone, started as the core starts it (start-up file, cwd trap, shims prelude)", value: median(withStartup), baseline: median(plain), baselineName: "raw spawn p50" });
}

// 2. 1 GiB of output (three interleaved runs each; medians)
{
  const GiB = 1024 * 1024 * 1024;
  const cmd = `yes 'abcdefghijklmnopqrstuvwxyz0123456789' | head -c ${GiB}`;
  const target = path.join(outDir, "baseline.out");
  const hwmBeforeKb = peakRssKb(core.child.pid);
  const baseline = [];
  const viaCore = [];
  let last;
  for (let i = 0; i < 3; i++) {
    let t = nowMs();
    await rawSpawn(`${cmd} > ${target}`, "ignore");
    baseline.push(nowMs() - t);
    rmSync(target, { force: true });
    t = nowMs();
    const r = await bashCall({ command: cmd });
    viaCore.push(nowMs() - t);
    last = r.structuredContent;
    if (last.outputBytes !== GiB || !last.truncated) throw new Error(`unexpected result: ${JSON.stringify({ ...last, output: last.output.length })}`);
    rmSync(last.outputPath, { force: true });
  }
  const hwmKb = peakRssKb(core.child.pid);
  report({ name: "1 GiB of output: wall, median of 3", value: median(viaCore), baseline: median(baseline), baselineName: "same command > file", goal: 1.5 });
  const peakMiB = hwmKb / 1024;
  console.log(
    `1 GiB of output: core peak RSS ${peakMiB.toFixed(1)} MiB [goal ≤ 100 MiB ${peakMiB <= 100 ? "OK" : "MISSED"}] (peak before these runs: ${(hwmBeforeKb / 1024).toFixed(1)} MiB; result ${last.output.length} chars)`,
  );
}

// 3. Stop a TERM-ignoring three-level tree.
{
  const STUBBORN = `trap '' TERM; bash -c "trap '' TERM; bash -c \\"trap '' TERM; sleep 300\\" & sleep 300" & sleep 300 & wait`;
  const corePid = String(core.child.pid);
  const marked = () =>
    readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          const stat = readFileSync(`/proc/${d}/stat`, "latin1");
          if (/^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0])) return false;
          // The shell started ahead for the next command (src/shell/run/5-ahead.ts) is no part of any tree.
          if (readFileSync(`/proc/${d}/cmdline`, "latin1").includes("__wave_warm_command")) return false;
          return readFileSync(`/proc/${d}/environ`, "latin1").split("\0").includes(`WAVE_CORE_PID=${corePid}`);
        } catch {
          return false;
        }
      });
  const sleepsUp = async (count) => {
    for (let i = 0; i < 200; i++) {
      const sleeps = marked().filter((d) => readFileSync(`/proc/${d}/cmdline`, "latin1") === "sleep\u0000300\u0000");
      if (sleeps.length >= count) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("tree did not come up");
  };
  const times = [];
  for (let i = 0; i < 3; i++) {
    const r = await bashCall({ command: STUBBORN, run_in_background: true });
    await sleepsUp(3);
    const t = nowMs();
    const stop = await core.request("tasks/stop", { taskId: r.structuredContent.backgroundTaskId });
    const elapsed = nowMs() - t;
    if (!stop.result?.stopped || marked().length > 0) throw new Error(`tree survived: ${JSON.stringify(stop)} ${marked()}`);
    times.push(elapsed);
  }
  // Hand-written group kill of the same tree for comparison: TERM, wait 1 s, KILL.
  const manual = [];
  for (let i = 0; i < 3; i++) {
    const child = spawn(bash, ["-c", STUBBORN], { detached: true, stdio: "ignore", env });
    await new Promise((r) => setTimeout(r, 300));
    const t = nowMs();
    process.kill(-child.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 1000));
    process.kill(-child.pid, "SIGKILL");
    await new Promise((r) => child.once("exit", r));
    manual.push(nowMs() - t);
  }
  report({ name: "Stop a TERM-ignoring 3-level tree (all gone), median", value: median(times), baseline: 1000, baselineName: "SIGKILL grace", goal: 1.2 });
  report({ name: "  same, vs hand-written TERM/sleep 1 s/KILL of the group", value: median(times), baseline: median(manual), baselineName: "manual group kill" });
}

await core.close();
rmSync(root, { recursive: true, force: true });
rmSync(outDir, { recursive: true, force: true });
