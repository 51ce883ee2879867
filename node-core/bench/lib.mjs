// Shared helpers for benchmarks: timing, medians, a protocol client for the bundled core, and
// one consistent report line format.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const coreBundle = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "wave-core.js");

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Prints one result: `name: value unit (baseline: b unit) ratio r× [goal ≤ g× OK|MISSED]`.
 * `lowerIsBetter` ratios are value/baseline.
 */
export function report({ name, value, baseline, unit = "ms", goal, baselineName = "baseline" }) {
  const ratio = value / baseline;
  const verdict = goal === undefined ? "" : ` [goal ≤ ${goal}× ${ratio <= goal ? "OK" : "MISSED"}]`;
  console.log(`${name}: ${value.toFixed(2)} ${unit} (${baselineName}: ${baseline.toFixed(2)} ${unit}) ratio ${ratio.toFixed(2)}×${verdict}`);
  return ratio;
}

/**
 * Starts `wave-core serve` and returns a minimal request/notification client. `opts.bundle` runs
 * another copy of the bundle; the other options go to spawn().
 */
export function startCore(args = [], { bundle = coreBundle, ...opts } = {}) {
  const child = spawn(process.execPath, [bundle, "serve", ...args], {
    stdio: ["pipe", "pipe", "inherit"],
    ...opts,
  });
  let buf = "";
  let next = 1;
  const pending = new Map();
  const listeners = new Set();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const msg = JSON.parse(line);
      if (msg.id !== undefined && msg.id !== null && pending.has(msg.id)) {
        pending.get(msg.id)(msg);
        pending.delete(msg.id);
      } else for (const l of listeners) l(msg);
    }
  });
  return {
    child,
    request(method, params) {
      const id = next++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
      });
    },
    onNotification(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async close() {
      child.stdin.end();
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** Peak resident memory (VmHWM) of a running process, in KiB. */
export function peakRssKb(pid) {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
}

/** Runs `<shell> -c <script>` the plain way, draining its pipes; resolves when it has closed. */
export function rawShell(shell, script, env, stdio = ["ignore", "pipe", "pipe"]) {
  return new Promise((resolve) => {
    const child = spawn(shell, ["-c", script], { stdio, env });
    if (child.stdout) child.stdout.resume();
    if (child.stderr) child.stderr.resume();
    child.once("close", resolve);
  });
}

/**
 * `echo hi` through a tool, interleaved with a raw spawn of the same command: 20 warm-up pairs,
 * then 3 rounds of 60; reports the p50 ratio (goal ≤ 1.3×) and the p90s. `check` validates each
 * tool result.
 */
export async function compareEchoLatency({ name, callTool, raw, check = () => {}, goal = 1.3 }) {
  for (let i = 0; i < 20; i++) {
    check(await callTool());
    await raw();
  }
  const viaCore = [];
  const direct = [];
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 60; i++) {
      let t = nowMs();
      check(await callTool());
      viaCore.push(nowMs() - t);
      t = nowMs();
      await raw();
      direct.push(nowMs() - t);
    }
  }
  report({ name, value: median(viaCore), baseline: median(direct), baselineName: "raw spawn p50", ...(goal !== null ? { goal } : {}) });
  console.log(`  (p90: ${percentile(viaCore, 90).toFixed(2)} ms vs ${percentile(direct, 90).toFixed(2)} ms, ${viaCore.length} runs each)`);
}
