// The core under load (issue 22, item 8):
//  - a burst of 10,000 small requests (a Read of a 3-line file; tools/list, whose answer is large)
//    written at once on one connection: the core's peak and settled resident memory against its
//    memory before the burst
//  - the CPU a tools/list costs, against the CPU of a tools/call Read of a 3-line file
//  - 16 agents at once, each attached through `wave-core mcp --attach` to one listening core,
//    against 16 agents each with a local `wave-core mcp`: the time for all of them to finish their
//    Read, Glob and Grep calls (goal: Read ≤ 2.5×, on a machine with fewer cores than agents)
// WAVE_BENCH_BUNDLE runs another copy of the bundle (a build of main, say), for before/after.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { coreBundle, report, startCore } from "./lib.mjs";

const bundle = process.env.WAVE_BENCH_BUNDLE ? path.resolve(process.env.WAVE_BENCH_BUNDLE) : coreBundle;
const scratch = mkdtempSync(path.join(os.tmpdir(), "wave-bench-load-"));
const root = path.join(scratch, "ws");
const stateDir = path.join(scratch, "state");
mkdirSync(path.join(root, "src"), { recursive: true });
writeFileSync(path.join(root, "f.txt"), "one\ntwo\nthree\n");
for (let i = 0; i < 200; i++) writeFileSync(path.join(root, "src", `m${i}.ts`), `export const v${i} = ${i};\n// needle ${i % 7}\n`);
const env = { ...process.env, WAVE_LOGIN_ENV: "0", WAVE_LOG_LEVEL: "warn", WAVE_STATE_DIR: stateDir };

function status(pid, key) {
  return Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
}

/** User + system CPU of a process, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function burst(label, method, params) {
  const core = startCore(["--root", root], { bundle, env });
  await core.request("initialize", {});
  await core.request(method, params);
  await sleep(500);
  const before = status(core.child.pid, "VmRSS");
  let peak = before;
  const watch = setInterval(() => (peak = Math.max(peak, status(core.child.pid, "VmRSS"))), 20);
  const n = 10_000;
  const answers = [];
  for (let i = 0; i < n; i++) answers.push(core.request(method, params));
  const results = await Promise.all(answers);
  const refused = results.filter((m) => m.error).length;
  peak = Math.max(peak, status(core.child.pid, "VmRSS"));
  await sleep(3000);
  clearInterval(watch);
  const after = status(core.child.pid, "VmRSS");
  const mb = (kb) => kb / 1024;
  report({ name: `burst of ${n} ${label} requests on one connection: peak resident memory`, value: mb(peak), baseline: mb(before), unit: "MB", baselineName: "before the burst", goal: 3 });
  report({ name: "  resident memory 3 s after the burst", value: mb(after), baseline: mb(before), unit: "MB", baselineName: "before the burst", goal: 1.5 });
  console.log(`  (${refused} of ${n} refused as too many at once)`);
  await core.close();
}

async function toolsListCpu() {
  const core = startCore(["--root", root], { bundle, env });
  await core.request("initialize", {});
  const measure = async (method, params, n) => {
    for (let i = 0; i < 50; i++) await core.request(method, params);
    const t0 = cpuMs(core.child.pid);
    for (let i = 0; i < n; i++) await core.request(method, params);
    return (cpuMs(core.child.pid) - t0) / n;
  };
  const list = await measure("tools/list", {}, 1000);
  const read = await measure("tools/call", { name: "Read", arguments: { file_path: "f.txt" } }, 1000);
  report({ name: "tools/list: core CPU per call", value: list, baseline: read, baselineName: "tools/call Read of 3 lines", goal: 0.75 });
  await core.close();
}

async function mcpClient(args, extraEnv = {}) {
  const client = new Client({ name: "bench-agent", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle, ...args], cwd: root, env: { ...env, ...extraEnv }, stderr: "ignore" }));
  return client;
}

async function waitForLock(pid) {
  for (let i = 0; i < 400; i++) {
    try {
      if (readdirSync(path.join(stateDir, "ide")).includes(`${pid}.json`)) return;
    } catch {
      // not yet
    }
    await sleep(25);
  }
  throw new Error("the listening core wrote no lock file");
}

const CALLS = {
  Read: { name: "Read", arguments: { file_path: "f.txt" } },
  Glob: { name: "Glob", arguments: { pattern: "src/**/*.ts" } },
  Grep: { name: "Grep", arguments: { pattern: "needle 3", output_mode: "files_with_matches" } },
};

/** All agents at once, `perAgent` calls each in a row; the time until the last one is done. */
async function allAgents(clients, call, perAgent) {
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < perAgent; i++) {
        const r = await c.callTool(call);
        if (r.isError) throw new Error(`${call.name} failed: ${JSON.stringify(r.content)}`);
      }
    }),
  );
  return performance.now() - t0;
}

async function sixteenAgents() {
  const agents = 16;
  const ide = startCore(["--root", root, "--listen", "127.0.0.1:0"], { bundle, env });
  await ide.request("initialize", { hostInfo: { name: "bench-host" } });
  await waitForLock(ide.child.pid);
  const attached = await Promise.all(Array.from({ length: agents }, () => mcpClient(["mcp", "--attach"])));
  const local = await Promise.all(Array.from({ length: agents }, () => mcpClient(["mcp", "--root", root])));
  try {
    for (const [tool, call] of Object.entries(CALLS)) {
      const perAgent = tool === "Read" ? 60 : 20;
      // Warm both, then alternate, so both see the same machine.
      await allAgents(attached, call, 3);
      await allAgents(local, call, 3);
      let viaIde = 0;
      let viaLocal = 0;
      for (let round = 0; round < 3; round++) {
        viaIde += await allAgents(attached, call, perAgent);
        viaLocal += await allAgents(local, call, perAgent);
      }
      report({
        name: `${tool}: ${agents} agents × ${perAgent} calls through one listening core (mcp --attach)`,
        value: viaIde / 3,
        baseline: viaLocal / 3,
        baselineName: `${agents} local cores`,
        ...(tool === "Read" ? { goal: 2.5 } : {}),
      });
    }
  } finally {
    await Promise.all([...attached, ...local].map((c) => c.close()));
    await ide.close();
  }
}

try {
  await burst("Read", "tools/call", { name: "Read", arguments: { file_path: "f.txt" } });
  await burst("tools/list", "tools/list", {});
  await toolsListCpu();
  await sixteenAgents();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
