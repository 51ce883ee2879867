// run_shell_command benchmarks. Each figure is a ratio against a baseline measured in this run:
//  1. `echo hi` through tools/call vs a raw child_process.spawn of `bash -c 'echo hi'` (p50); the
//     call includes the permission check, the syntax pre-check and the background-process scan.
//  2. 1 GiB on stdout and 1 MiB on stderr: wall time vs the same command redirected to two files by
//     a raw spawn, and the core's peak RSS (the streams go to files; memory must stay flat).
//  3. Progress on a command that prints for ~3 s: updates per second of run time (goal ≤ 1).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { compareEchoLatency, median, nowMs, peakRssKb, rawShell, report, startCore } from "./lib.mjs";

const bash = execFileSync("bash", ["-c", "command -v bash"], { encoding: "utf8" }).trim();
const root = mkdtempSync(path.join(os.tmpdir(), "wave-bench-rsc-"));
const outDir = mkdtempSync(path.join(os.tmpdir(), "wave-bench-rsc-out-"));
// Not the developer's own login profile: its speed is not the subject.
const env = { ...process.env, WAVE_OUTPUT_DIR: outDir, WAVE_LOG_LEVEL: "warn", WAVE_LOGIN_ENV: "0" };

const rawSpawn = (script, stdio) => rawShell(bash, script, env, stdio);

// Permissions are measured in permissions.bench.mjs; allow-all still runs the check on every call.
// Against a raw bash, so without the sandbox (sandbox.bench.mjs measures that against raw bwrap).
const core = startCore(["--root", root, "--permission-mode", "allow-all", "--sandbox", "off"], { env, stdio: ["pipe", "pipe", "inherit"] });
await core.request("initialize", { protocolVersion: "1.0", hostInfo: { name: "bench" } });
const rsc = async (args) => {
  const msg = await core.request("tools/call", { name: "run_shell_command", arguments: args });
  if (msg.error) throw new Error(JSON.stringify(msg.error));
  return msg.result;
};

// 1. echo hi
await compareEchoLatency({
  name: "run_shell_command `echo hi` via tools/call, p50",
  callTool: () => rsc({ command: "echo hi" }),
  raw: () => rawSpawn("echo hi"),
  check: (r) => {
    if (r.structuredContent.stdout !== "hi\n") throw new Error(JSON.stringify(r));
  },
});

// 2. 1 GiB on stdout, 1 MiB on stderr (three interleaved runs each; medians)
{
  const GiB = 1024 * 1024 * 1024;
  const cmd = `yes 'abcdefghijklmnopqrstuvwxyz0123456789' | head -c ${GiB}; yes 'warning: something' | head -c 1048576 >&2`;
  const hwmBeforeKb = peakRssKb(core.child.pid);
  const baseline = [];
  const viaCore = [];
  let last;
  for (let i = 0; i < 3; i++) {
    const out = path.join(outDir, "baseline.out");
    const err = path.join(outDir, "baseline.err");
    let t = nowMs();
    await rawSpawn(`{ ${cmd}; } > ${out} 2> ${err}`, "ignore");
    baseline.push(nowMs() - t);
    rmSync(out, { force: true });
    rmSync(err, { force: true });
    t = nowMs();
    const r = await rsc({ command: cmd, timeout: 600_000 });
    viaCore.push(nowMs() - t);
    last = r.structuredContent;
    if (last.stdoutBytes !== GiB || last.stderrBytes !== 1048576 || !last.stdoutTruncated)
      throw new Error(`unexpected result: ${JSON.stringify({ ...last, stdout: last.stdout.length, stderr: last.stderr.length })}`);
    rmSync(last.stdoutPath, { force: true });
    rmSync(last.stderrPath, { force: true });
  }
  const hwmKb = peakRssKb(core.child.pid);
  report({ name: "1 GiB stdout + 1 MiB stderr: wall, median of 3", value: median(viaCore), baseline: median(baseline), baselineName: "same command > two files", goal: 1.5 });
  const peakMiB = hwmKb / 1024;
  console.log(
    `  core peak RSS ${peakMiB.toFixed(1)} MiB [goal ≤ 100 MiB ${peakMiB <= 100 ? "OK" : "MISSED"}] (before these runs: ${(hwmBeforeKb / 1024).toFixed(1)} MiB; result ${last.stdout.length + last.stderr.length} chars)`,
  );
}

// 3. Progress rate
{
  const id = "bench-progress";
  let updates = 0;
  const stop = core.onNotification((n) => {
    if (n.method === "tool/progress" && n.params.callId === id) updates++;
  });
  const msg = await core.request("tools/call", { name: "run_shell_command", callId: id, arguments: { command: "for i in $(seq 1 60); do echo line$i; sleep 0.05; done" } });
  stop();
  const seconds = msg.result.structuredContent.durationMs / 1000;
  report({ name: "progress updates per second of run time", value: updates / seconds, baseline: 1, unit: "/s", baselineName: "one a second", goal: 1 });
}

await core.close();
rmSync(root, { recursive: true, force: true });
rmSync(outDir, { recursive: true, force: true });
