// Core start-up and protocol round trip.
//  - cold start: spawn → `initialize` answered, vs `node -e 0` run to exit (goal ≤ 2×), with the
//    code cache a previous start stored, and without it
//  - round trip of a trivial tools/call (Read of a 3-line file) over the protocol, vs a bare node
//    process echoing JSON lines over the same kind of pipes
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { coreBundle, median, nowMs, percentile, report, startCore } from "./lib.mjs";

const RUNS = 21;

function timeNodeNoop() {
  return new Promise((resolve) => {
    const t0 = nowMs();
    const c = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    c.on("exit", () => resolve(nowMs() - t0));
  });
}

/** Spawn → `initialize` answered; the core then stays up `stayMs` (it stores its code cache after 500 ms). */
function timeInitialize(root, env = process.env, stayMs = 0) {
  return new Promise((resolve, reject) => {
    const t0 = nowMs();
    const c = spawn(process.execPath, [coreBundle, "serve", "--root", root], { stdio: ["pipe", "pipe", "inherit"], env });
    let out = "";
    c.stdout.on("data", (d) => {
      out += d;
      if (out.includes('"id":1')) {
        const t = nowMs() - t0;
        setTimeout(() => c.stdin.end(), stayMs);
        c.on("exit", () => resolve(t));
      }
    });
    c.on("error", reject);
    c.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n');
  });
}

const ECHO = `let b="";process.stdin.setEncoding("utf8");process.stdin.on("data",d=>{b+=d;let i;while((i=b.indexOf("\\n"))>=0){const l=b.slice(0,i);b=b.slice(i+1);const m=JSON.parse(l);process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:m.id,result:{content:[{type:"text",text:"echo"}]}})+"\\n")}})`;

async function echoRoundTrips(n) {
  const c = spawn(process.execPath, ["-e", ECHO], { stdio: ["pipe", "pipe", "inherit"] });
  let buf = "";
  let waiting;
  c.stdout.setEncoding("utf8");
  c.stdout.on("data", (d) => {
    buf += d;
    if (buf.includes("\n")) {
      buf = "";
      waiting?.();
    }
  });
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    await new Promise((r) => {
      waiting = r;
      c.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "Read", arguments: { file_path: "f.txt" } } }) + "\n");
    });
    times.push(nowMs() - t0);
  }
  c.stdin.end();
  return times;
}

const root = mkdtempSync(path.join(os.tmpdir(), "wave-bench-core-"));
writeFileSync(path.join(root, "f.txt"), "one\ntwo\nthree\n");
try {
  // The first start of a build stores its code cache (scripts/compileCache.cjs); every later one uses it.
  await timeInitialize(root, process.env, 800);
  const noCache = { ...process.env, WAVE_COMPILE_CACHE: "0" };
  const noop = [];
  const init = [];
  const initNoCache = [];
  for (let i = 0; i < RUNS; i++) {
    noop.push(await timeNodeNoop());
    init.push(await timeInitialize(root));
    initNoCache.push(await timeInitialize(root, noCache));
  }
  report({ name: "cold start to initialize answered (median)", value: median(init), baseline: median(noop), baselineName: "node -e 0", goal: 2 });
  report({ name: "  same without the code cache (WAVE_COMPILE_CACHE=0)", value: median(initNoCache), baseline: median(noop), baselineName: "node -e 0" });

  const core = startCore(["--root", root]);
  await core.request("initialize", {});
  const calls = [];
  for (let i = 0; i < 300; i++) {
    const t0 = nowMs();
    const r = await core.request("tools/call", { name: "Read", arguments: { file_path: "f.txt" } });
    calls.push(nowMs() - t0);
    if (r.error || r.result.isError) throw new Error("Read failed: " + JSON.stringify(r));
  }
  await core.close();
  const echo = await echoRoundTrips(300);
  const steady = (xs) => xs.slice(50);
  report({ name: "tools/call Read round trip p50", value: median(steady(calls)), baseline: median(steady(echo)), baselineName: "bare JSON echo process" });
  console.log(`tools/call Read round trip p90: ${percentile(steady(calls), 90).toFixed(3)} ms, p99: ${percentile(steady(calls), 99).toFixed(3)} ms`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
