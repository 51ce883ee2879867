// File-tool benchmarks, each against a baseline measured in the same run:
//  1. Read of lines 5,000,000-5,000,100 of a generated 1 GB file vs `sed -n` (wall), and the
//     peak RSS of the read (goal ≤ 64 MiB; the process running it does nothing else).
//  2. Glob `**/*.js` on a generated 100,000-file tree vs `rg --files -g '*.js'`.
//  3. Edit of a 10 MB file: time per Edit, and the atomic write's cost vs a plain in-place write.
//  4. Write of a 2 MB single-line file over another (the whole file is one changed line) vs the
//     atomic write of the same bytes alone (goal ≤ 2×), the size of its reply (goal ≤ 100 KB), and
//     30 such writes while another session keeps reading the file.
// Inputs are generated in a temporary directory and deleted at the end.
import { spawnSync } from "node:child_process";
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, copyFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { coreBundle, median, nowMs, report, startCore } from "./lib.mjs";

// The file tools never wait for the login-environment probe; running it (your real profile) beside
// the measurements only adds noise. env.bench.mjs measures it.
process.env.WAVE_LOGIN_ENV ??= "0";

const here = dirname(fileURLToPath(import.meta.url));
const work = mkdtempSync(join(os.tmpdir(), "wave-fs-bench-"));
const RUNS = 5;
const GLOB_RUNS = 11;

function timeSpawn(cmd, args) {
  const t0 = nowMs();
  const r = spawnSync(cmd, args, { stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 30 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} failed: ${r.status}`);
  return { ms: nowMs() - t0, stdout: r.stdout };
}

async function timeCall(core, name, args) {
  const t0 = nowMs();
  const resp = await core.request("tools/call", { name, arguments: args });
  const ms = nowMs() - t0;
  if (resp.error || resp.result.isError) throw new Error(`${name} failed: ${JSON.stringify(resp.error ?? resp.result.content)}`);
  return { ms, result: resp.result };
}

/** CPU time (user + system, ms) of a process and of its children it has reaped. */
function cpuMs(pid = "self") {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // After "pid (comm) ": state is field 0; utime, stime, cutime, cstime are fields 11-14.
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return (ticks * 1000) / CLK_TCK;
}
const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

function status(pid) {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]);
  return { rssMiB: kb("VmRSS") / 1024, hwmMiB: kb("VmHWM") / 1024 };
}

/** Bundles a small entry that imports core sources, for measurements outside the protocol. */
async function bundleEntry(name, source) {
  const entry = join(work, `${name}.entry.ts`);
  // The entry lives in the temporary directory; point its imports at this checkout's sources.
  writeFileSync(entry, source.replaceAll('"../src/', `"${join(here, "..", "src")}/`));
  const out = join(work, `${name}.mjs`);
  try {
    await build({
      entryPoints: [entry],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node18",
      logLevel: "warning",
      define: { __WAVE_CORE_VERSION__: '"bench"' },
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
  } finally {
    rmSync(entry, { force: true });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 1. Read a window deep in a 1 GB file.

function generateBigFile(file) {
  // Fixed 100-byte lines: "line 0000000001 xxxx…\n"; a 10 MB block is patched per block.
  const LINE = 100;
  const PER_BLOCK = 100_000;
  const block = Buffer.alloc(LINE * PER_BLOCK, "x".charCodeAt(0));
  for (let i = 0; i < PER_BLOCK; i++) {
    block.write("line ", i * LINE, "latin1");
    block[i * LINE + 15] = 0x20;
    block[i * LINE + LINE - 1] = 0x0a;
  }
  const blocks = Math.ceil((1 << 30) / block.length);
  const fd = openSync(file, "w");
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < PER_BLOCK; i++) {
      let n = b * PER_BLOCK + i + 1;
      for (let d = 14; d >= 5; d--) {
        block[i * LINE + d] = 48 + (n % 10);
        n = Math.floor(n / 10);
      }
    }
    writeSync(fd, block);
  }
  closeSync(fd);
  return blocks * PER_BLOCK;
}

async function benchRead() {
  const file = join(work, "big.log");
  const t0 = nowMs();
  const lines = generateBigFile(file);
  console.log(`generated ${file}: ${lines.toLocaleString("en-US")} lines, 1 GB, in ${(nowMs() - t0).toFixed(0)} ms`);
  const args = { file_path: file, offset: 5_000_000, limit: 101 };
  const sedArgs = ["-n", "5000000,5000100p", file];
  timeSpawn("sed", sedArgs); // warm the page cache

  const core = startCore(["--root", work]);
  await core.request("initialize", {});
  const idle = status(core.child.pid);
  const ours = [];
  const sed = [];
  const sedQuit = [];
  let first;
  let sedOut;
  // Interleaved, so load from other processes hits both sides alike.
  for (let i = 0; i < RUNS; i++) {
    // A repeated Read of the same range would be answered "unchanged": forget it first.
    await core.request("fs/clearReadState", {});
    const { ms, result } = await timeCall(core, "Read", args);
    if (result.structuredContent.type !== "text") throw new Error("Read did not return the text window");
    ours.push(ms);
    first ??= result;
    const r = timeSpawn("sed", sedArgs);
    sed.push(r.ms);
    sedOut = r.stdout.toString();
    sedQuit.push(timeSpawn("sed", ["-n", "5000000,5000100p;5000100q", file]).ms);
  }
  const after = status(core.child.pid);
  await core.close();

  const ourLines = first.content[0].text
    .split("\n")
    .slice(0, 101)
    .map((l) => l.slice(l.indexOf("\t") + 1));
  if (ourLines.join("\n") + "\n" !== sedOut) throw new Error("Read returned different lines than sed");

  // The same Read in a process that does nothing else, for its absolute peak RSS.
  const isolated = await bundleEntry(
    "read-rss",
    `import { WaveCore } from "../src/core/runtime.js";
     import { allTools } from "../src/tools/index.js";
     import { readFileSync } from "node:fs";
     const core = new WaveCore({ root: process.argv[2], tools: allTools });
     const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]);
     const before = rss();
     const r = await core.callTool({ name: "Read", arguments: JSON.parse(process.argv[3]), origin: "cli" });
     if (r.isError) throw new Error(JSON.stringify(r.content));
     const hwm = Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]);
     console.log(JSON.stringify({ hwmKiB: hwm, beforeKiB: before }));`,
  );
  const alone = JSON.parse(spawnSync(process.execPath, [isolated, work, JSON.stringify(args)], { encoding: "utf8" }).stdout);
  const baseline = JSON.parse(
    spawnSync(process.execPath, ["-e", 'console.log(JSON.stringify({hwmKiB:Number(/VmHWM:\\s+(\\d+)/.exec(require("fs").readFileSync("/proc/self/status","utf8"))[1])}))'], {
      encoding: "utf8",
    }).stdout,
  );

  report({ name: "Read lines 5,000,000-5,000,100 of 1 GB (wall)", value: median(ours), baseline: median(sed), baselineName: "sed -n", goal: 1.5 });
  report({ name: "  same, against sed that quits after the window", value: median(ours), baseline: median(sedQuit), baselineName: "sed -n …;q" });
  const peak = alone.hwmKiB / 1024;
  const loaded = alone.beforeKiB / 1024;
  const growth = peak - loaded;
  console.log(
    `Read peak RSS above the loaded core: ${growth.toFixed(1)} MiB [goal ≤ 64 MiB ${growth <= 64 ? "OK" : "MISSED"}]; process peak ${peak.toFixed(1)} MiB = node ${(baseline.hwmKiB / 1024).toFixed(1)} MiB + core code ${(loaded - baseline.hwmKiB / 1024).toFixed(1)} MiB + the Read`,
  );
  console.log(`  in the serving core: idle RSS ${idle.rssMiB.toFixed(1)} MiB, peak after ${RUNS} reads ${after.hwmMiB.toFixed(1)} MiB (growth ${(after.hwmMiB - idle.rssMiB).toFixed(1)} MiB)`);
  rmSync(file, { force: true });
}

// ---------------------------------------------------------------------------------------------
// 2. Glob on a 100,000-file tree.

function generateTree(root) {
  const exts = [".js", ".ts", ".json", ".md", ".css"];
  let n = 0;
  for (let a = 0; a < 20; a++) {
    for (let b = 0; b < 50; b++) {
      const dir = join(root, `pkg${a}`, "src", `mod${b}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100; f++, n++) writeFileSync(join(dir, `file${f}${exts[f % exts.length]}`), "");
    }
  }
  return n;
}

async function benchGlob() {
  const root = join(work, "tree");
  const t0 = nowMs();
  const files = generateTree(root);
  console.log(`generated ${files.toLocaleString("en-US")} files in ${(nowMs() - t0).toFixed(0)} ms`);
  const rg = JSON.parse(
    spawnSync(process.execPath, [await bundleEntry("rg-path", `import { resolveRipgrep } from "../src/fs/ripgrep.js"; console.log(JSON.stringify(resolveRipgrep() ?? null));`)], {
      encoding: "utf8",
    }).stdout,
  );
  if (!rg) throw new Error("ripgrep is needed for the Glob baseline");
  const rgArgs = ["--files", "-g", "*.js", root];
  timeSpawn(rg.path, rgArgs); // warm the dentry cache

  const core = startCore(["--root", root]);
  await core.request("initialize", {});
  await timeCall(core, "Glob", { pattern: "**/*.js" });
  const ours = [];
  const base = [];
  let oursCpu = 0;
  let baseCpu = 0;
  let result;
  for (let i = 0; i < GLOB_RUNS; i++) {
    const c0 = cpuMs(core.child.pid);
    const r = await timeCall(core, "Glob", { pattern: "**/*.js" });
    oursCpu += cpuMs(core.child.pid) - c0;
    ours.push(r.ms);
    result = r.result;
    const b0 = cpuMs();
    base.push(timeSpawn(rg.path, rgArgs).ms);
    baseCpu += cpuMs() - b0;
  }
  await core.close();
  if (result.structuredContent.totalMatches !== files / 5) throw new Error(`Glob found ${result.structuredContent.totalMatches} files`);
  report({ name: "Glob **/*.js on 100k files, newest 100 (wall)", value: median(ours), baseline: median(base), baselineName: `rg --files -g '*.js' (${rg.source})`, goal: 1.5 });
  report({ name: "  CPU time per call (core + its rg processes)", value: oursCpu / GLOB_RUNS, baseline: baseCpu / GLOB_RUNS, baselineName: "rg" });

  // The fallback without ripgrep: the bundle alone, no node_modules, no vendor dir, no rg on PATH.
  const isolated = join(work, "isolated");
  mkdirSync(join(isolated, "bin"), { recursive: true });
  copyFileSync(coreBundle, join(isolated, "wave-core.js"));
  const walkerCore = spawnNodeWalkerCore(isolated, root);
  await walkerCore.request("initialize", {});
  await timeCall(walkerCore, "Glob", { pattern: "**/*.js" });
  const walker = [];
  for (let i = 0; i < RUNS; i++) walker.push((await timeCall(walkerCore, "Glob", { pattern: "**/*.js" })).ms);
  await walkerCore.close();
  report({ name: "  same without ripgrep (Node walker fallback)", value: median(walker), baseline: median(base), baselineName: "rg --files -g '*.js'" });
  rmSync(root, { recursive: true, force: true });
}

function spawnNodeWalkerCore(isolated, root) {
  // startCore() runs the repository bundle by default; this one runs the isolated copy.
  return startCore(["--root", root], {
    bundle: join(isolated, "wave-core.js"),
    env: { ...process.env, PATH: join(isolated, "bin"), WAVE_VENDOR_DIR: join(isolated, "none") },
  });
}

// ---------------------------------------------------------------------------------------------
// 3. Edit a 10 MB file; atomic write vs plain in-place write.

async function benchEdit() {
  const file = join(work, "ten.txt");
  const lines = Array.from({ length: 200_000 }, (_, i) => `const value${i} = compute(${i}); // padding for a 10 MB file ...`);
  const content = lines.join("\n") + "\n";
  writeFileSync(file, content);
  const mb = Buffer.byteLength(content) / (1 << 20);

  // Inside the workspace: Edit's permission check allows without a question, in any mode.
  const core = startCore(["--root", work]);
  await core.request("initialize", {});
  await timeCall(core, "Read", { file_path: file, offset: 100_000, limit: 5 });
  const edits = [];
  for (let i = 0; i < RUNS; i++) {
    const a = i % 2 === 0 ? "compute(100000);" : "computeFast(100000);";
    const b = i % 2 === 0 ? "computeFast(100000);" : "compute(100000);";
    edits.push((await timeCall(core, "Edit", { file_path: file, old_string: a, new_string: b })).ms);
  }
  await core.close();

  const atomicModule = await bundleEntry("atomic", `export { writeFileAtomic } from "../src/fs/atomicWrite.js";`);
  const { writeFileAtomic } = await import(atomicModule);
  const data = Buffer.from(content);
  const atomic = [];
  const plain = [];
  const plainSynced = [];
  for (let i = 0; i < RUNS; i++) {
    let t = nowMs();
    await writeFileAtomic(file, data);
    atomic.push(nowMs() - t);
    t = nowMs();
    writeFileSync(file, data);
    plain.push(nowMs() - t);
    t = nowMs();
    const fd = openSync(file, "w");
    writeSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    plainSynced.push(nowMs() - t);
  }
  console.log(`Edit of a ${mb.toFixed(1)} MB file (one replacement, atomic write, diff): median ${median(edits).toFixed(1)} ms over ${RUNS} edits`);
  report({ name: `Atomic write of ${mb.toFixed(1)} MB (temp + fsync + rename)`, value: median(atomic), baseline: median(plain), baselineName: "plain in-place writeFile" });
  report({ name: "  same, against an in-place write that also fsyncs", value: median(atomic), baseline: median(plainSynced), baselineName: "in-place write + fsync" });
  rmSync(file, { force: true });
}

// ---------------------------------------------------------------------------------------------
// 4. Write a 2 MB single-line file over another.

/** `bytes` characters of words on one line, different for each seed. */
function oneLine(bytes, seed) {
  const words = [];
  let length = 0;
  let x = seed;
  while (length < bytes) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const w = `w${x % 100000}`;
    words.push(w);
    length += w.length + 1;
  }
  return words.join(" ").slice(0, bytes);
}

async function benchWriteLongLine() {
  const SIZE = 2 * 1024 * 1024;
  const WRITES = 15;
  // In one process: the Write tool through WaveCore.callTool, interleaved with writeFileAtomic of
  // the same bytes to another file (the baseline the goal is stated against).
  const inProcess = await bundleEntry(
    "write-long-line",
    `import { WaveCore } from "../src/core/runtime.js";
     import { allTools } from "../src/tools/index.js";
     import { writeFileAtomic } from "../src/fs/atomicWrite.js";
     import { writeFileSync } from "node:fs";
     import { join } from "node:path";
     const [root, size, writes] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
     const contents = JSON.parse(process.argv[5]).map((seed) => (${oneLine.toString()})(size, seed));
     const buffers = contents.map((c) => Buffer.from(c));
     const file = join(root, "one-line.txt");
     const baselineFile = join(root, "one-line-baseline.txt");
     writeFileSync(file, contents[0]);
     writeFileSync(baselineFile, contents[0]);
     const core = new WaveCore({ root, tools: allTools, permissions: { mode: "allow-all", allow: [], deny: [] } });
     await core.callTool({ name: "Read", arguments: { file_path: file, limit: 1 }, origin: "cli" });
     const ours = [], atomic = [];
     let largest = 0;
     // Work either side leaves for after its answer (Write: the read-state hash, the replaced file's
     // last close) must not land in the other side's measurement: a pause between the two.
     const settle = () => new Promise((r) => setTimeout(r, 20));
     for (let i = 0; i < writes + 2; i++) {
       const next = (i + 1) % 2;
       await settle();
       let t = performance.now();
       const r = await core.callTool({ name: "Write", arguments: { file_path: file, content: contents[next] }, origin: "cli" });
       const ms = performance.now() - t;
       if (r.isError) throw new Error(JSON.stringify(r.content));
       largest = Math.max(largest, Buffer.byteLength(JSON.stringify(r)));
       await settle();
       t = performance.now();
       await writeFileAtomic(baselineFile, buffers[next]);
       if (i >= 2) { ours.push(ms); atomic.push(performance.now() - t); }
     }
     await core.shutdown();
     console.log(JSON.stringify({ ours, atomic, largest }));`,
  );
  const run = spawnSync(process.execPath, [inProcess, work, String(SIZE), String(WRITES), "[1,2]"], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`in-process Write bench failed: ${run.stderr}`);
  const measured = JSON.parse(run.stdout.trim().split("\n").pop());
  report({ name: "Write of a 2 MB single-line file over another (in the core)", value: median(measured.ours), baseline: median(measured.atomic), baselineName: "atomic write alone", goal: 2 });

  // The same through tools/call: the 2 MB of arguments cross a pipe as JSON, both ways of the
  // host's JSON work included.
  const file = join(work, "one-line.txt");
  const contents = [oneLine(SIZE, 1), oneLine(SIZE, 2)];
  writeFileSync(file, contents[0]);
  const core = startCore(["--root", work]);
  await core.request("initialize", {});
  // A 2 MB file is read in windows; one window counts as the Read that Write requires.
  await timeCall(core, "Read", { file_path: file, limit: 1 });
  const atomicModule = await bundleEntry("atomic-long", `export { writeFileAtomic } from "../src/fs/atomicWrite.js";`);
  const { writeFileAtomic } = await import(atomicModule);
  const baselineFile = join(work, "one-line-baseline.txt");
  writeFileSync(baselineFile, contents[0]);
  const buffers = contents.map((c) => Buffer.from(c));
  const ours = [];
  const atomic = [];
  let largestReply = measured.largest;
  for (let i = 0; i < WRITES + 2; i++) {
    const next = (i + 1) % 2;
    const t0 = nowMs();
    const resp = await core.request("tools/call", { name: "Write", arguments: { file_path: file, content: contents[next] } });
    const ms = nowMs() - t0;
    if (resp.error || resp.result.isError) throw new Error(`Write failed: ${JSON.stringify(resp.error ?? resp.result.content)}`);
    largestReply = Math.max(largestReply, Buffer.byteLength(JSON.stringify(resp)));
    const t1 = nowMs();
    await writeFileAtomic(baselineFile, buffers[next]);
    const atomicMs = nowMs() - t1;
    if (i >= 2) {
      // The first two warm up both sides (jsdiff loads on the first diff).
      ours.push(ms);
      atomic.push(atomicMs);
    }
  }
  report({ name: "  same through tools/call (wall, 2 MB of JSON over a pipe)", value: median(ours), baseline: median(atomic), baselineName: "atomic write alone" });
  console.log(`  largest reply: ${(largestReply / 1024).toFixed(1)} KB [goal ≤ 100 KB ${largestReply <= 100 * 1024 ? "OK" : "MISSED"}]`);

  // Thirty writes while another session reads the file over and over.
  let reading = true;
  let reads = 0;
  const reader = (async () => {
    while (reading) {
      await core.request("tools/call", { name: "Read", arguments: { file_path: file, limit: 1 }, sessionId: "busy-reader" });
      reads++;
    }
  })();
  const t0 = nowMs();
  for (let i = 0; i < 30; i++) {
    const resp = await core.request("tools/call", { name: "Write", arguments: { file_path: file, content: contents[i % 2] } });
    if (resp.error || resp.result.isError) throw new Error(`Write failed: ${JSON.stringify(resp.error ?? resp.result.content)}`);
  }
  const busyMs = nowMs() - t0;
  reading = false;
  await reader;
  const t1 = nowMs();
  for (let i = 0; i < 30; i++) await writeFileAtomic(baselineFile, buffers[i % 2]);
  report({ name: `  30 such Writes beside a busy reader (${reads} Reads meanwhile)`, value: busyMs, baseline: nowMs() - t1, baselineName: "30 atomic writes alone" });
  await core.close();
  rmSync(file, { force: true });
  rmSync(baselineFile, { force: true });
}

// FS_BENCH=read,glob,edit,write runs only those parts.
const only = process.env.FS_BENCH ? new Set(process.env.FS_BENCH.split(",")) : undefined;
try {
  if (!only || only.has("read")) await benchRead();
  if (!only || only.has("glob")) await benchGlob();
  if (!only || only.has("edit")) await benchEdit();
  if (!only || only.has("write")) await benchWriteLongLine();
} finally {
  rmSync(work, { recursive: true, force: true });
}
