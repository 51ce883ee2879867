// Sandbox benchmark (issues 12, 24 and 26): a sandboxed Bash `echo hi` through tools/call against a raw
// child_process.spawn of the same bubblewrap argv (`bwrap <the core's own options and mounts> --
// bash -c 'echo hi'`), interleaved in the same run: with shells started ahead (the default for
// sandboxed commands, src/shell/run/5-ahead.ts), and without them (WAVE_WARM_SHELL=0: each command
// starts bwrap cold, as the first command of a session or one after a settings change does). The argv is the one the core used: read from
// /proc/1/cmdline inside a sandboxed command (bwrap's reaper is pid 1 there and carries it).
import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { compareEchoLatency, startCore } from "./lib.mjs";

const bash = execFileSync("bash", ["-c", "command -v bash"], { encoding: "utf8" }).trim();
const root = path.join(os.tmpdir(), `wave-bench-sandbox-${process.pid}`);
const outDir = path.join(os.tmpdir(), `wave-bench-sandbox-out-${process.pid}`);
mkdirSync(root, { recursive: true });
mkdirSync(outDir, { recursive: true });
const env = { ...process.env, WAVE_SHELL: bash, WAVE_OUTPUT_DIR: outDir, WAVE_LOG_LEVEL: "warn", WAVE_LOGIN_ENV: "0" };

const core = startCore(["--root", root, "--permission-mode", "allow-all"], { env, stdio: ["pipe", "pipe", "inherit"] });
await core.request("initialize", { protocolVersion: "1.0", hostInfo: { name: "bench" } });
const status = (await core.request("env/status", {})).result.sandbox;
if (!status.active) {
  console.log(`Sandbox benchmark skipped: no sandbox is active (${status.reason} ${status.remedy ?? ""})`);
  await core.close();
  process.exit(0);
}
const bashCall = async (args) => {
  const msg = await core.request("tools/call", { name: "Bash", arguments: args });
  if (msg.error) throw new Error(JSON.stringify(msg.error));
  return msg.result;
};

// The argv the core ran bwrap with, for a command like this one.
const seen = await bashCall({ command: "tr '\\0' '\\n' < /proc/1/cmdline" });
const argv = seen.structuredContent.output.replace(/\n$/, "").split("\n");
const bwrap = argv[0];
const options = argv.slice(1, argv.indexOf("--"));
// Its run files (output and cwd file) are the core's, removed after the call: the baseline binds
// stand-ins of its own in their place.
let standIns = 0;
for (let i = 0; i < options.length; i++) {
  if (options[i] === "--bind" && options[i + 1].startsWith(outDir) && /\.(log|cwd)$/.test(options[i + 1])) {
    const standIn = path.join(outDir, `baseline-${++standIns}${path.extname(options[i + 1])}`);
    closeSync(openSync(standIn, "a"));
    options[i + 1] = options[i + 2] = standIn;
  }
}
// The seccomp program the core hands bwrap on descriptor 5 (--seccomp 5): the baseline gives it the same file.
const seccompAt = options.indexOf("--seccomp");
const seccompFile =
  seccompAt < 0
    ? undefined
    : readdirSync(outDir)
        .map((d) => path.join(outDir, d, "sandbox", "seccomp-no-unix.bpf"))
        .find((f) => {
          try {
            closeSync(openSync(f, "r"));
            return true;
          } catch {
            return false;
          }
        });
if (seccompAt >= 0 && !seccompFile) throw new Error("the core runs bwrap with --seccomp, but its program was not found");
const raw = () =>
  new Promise((resolve, reject) => {
    // fd 3: bwrap's --info-fd, a pipe as the core gives it; fd 5: the seccomp program.
    const stdio = ["ignore", "pipe", "pipe", "pipe"];
    let program;
    if (seccompFile) stdio.push("ignore", (program = openSync(seccompFile, "r")));
    const child = spawn(bwrap, [...options, "--", bash, "-c", "echo hi"], { stdio, env, detached: true });
    if (program !== undefined) closeSync(program);
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.stdio[3].resume();
    child.once("close", (code) => (code === 0 && out === "hi\n" ? resolve() : reject(new Error(`the baseline failed (${code}): ${out}${err}`))));
  });

console.log(`bwrap options per command: ${options.length} (${options.filter((o) => o.startsWith("--") && o !== "--chdir").length} flags and mounts)`);
await compareEchoLatency({
  name: "Sandboxed Bash `echo hi` via tools/call, p50",
  // Issue 26: every new protection (user namespace, seccomp, all of .git, the git search, lapse watch) within a raw spawn of the same argv.
  goal: 1.0,
  callTool: () => bashCall({ command: "echo hi" }),
  raw,
  check: (r) => {
    if (r.structuredContent.output !== "hi\n" || r.structuredContent.sandboxed !== true) throw new Error(`unexpected result: ${JSON.stringify(r.structuredContent)}`);
  },
});

{
  const cold = startCore(["--root", root, "--permission-mode", "allow-all"], { env: { ...env, WAVE_WARM_SHELL: "0" }, stdio: ["pipe", "pipe", "inherit"] });
  await cold.request("initialize", { protocolVersion: "1.0", hostInfo: { name: "bench" } });
  await compareEchoLatency({
    name: "  the same, each command starting bwrap cold (WAVE_WARM_SHELL=0), p50",
    goal: null,
    callTool: async () => {
      const msg = await cold.request("tools/call", { name: "Bash", arguments: { command: "echo hi" } });
      if (msg.error || msg.result.structuredContent.output !== "hi\n" || msg.result.structuredContent.sandboxed !== true) throw new Error(JSON.stringify(msg.error ?? msg.result));
    },
    raw,
  });
  await cold.close();
}

await core.close();
rmSync(root, { recursive: true, force: true });
rmSync(outDir, { recursive: true, force: true });
