// Search-shim benchmarks (BASH-SHIM), each against a baseline measured in this same run. Everything
// "through the Bash tool" goes through the bundled core (`wave-core serve`, tools/call), i.e. the
// runner, its start-up file and the real vendor directory:
//   1. prelude cost: median `cd .` through the Bash tool with shims vs a core with `shims: false`
//      (goal: ≤ 1 ms added), for bash and zsh (`cd .`: a bash command with no `cd` and no shimmed
//      tool runs without the start-up file, so without the prelude too); and the same in bare
//      shells started with the runner's start-up file, with and without the prelude (no core in
//      between: less noise).
//   2. `grep -rn NEEDLE .` through the Bash tool in a generated repository with a large gitignored
//      node_modules, vs GNU `grep -r` run directly (goal ≥ 10× faster), vs the bundled ugrep run
//      directly with the shim's flags (goal ≤ 1.2×), and vs that same ugrep command line typed into
//      the Bash tool after `cd . &&`, so that it too runs with the start-up file (the in-shell
//      ratio: what the shim costs beyond the tool's own shell start); and, without a goal, vs the
//      ugrep command line alone, which runs as a plain `bash -c`.
//   3. `find . -name '*.ts'` through the Bash tool vs GNU find run directly and vs GNU find in the
//      Bash tool with `shims: false`.
//   4. starting a vendor tool through its sh launch script vs its loader directly (why the prelude
//      calls the loader itself).
// `SHIMS_BENCH=prelude,grep,find,launch` selects parts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { median, nowMs, report, startCore } from "./lib.mjs";

const nodeCore = join(dirname(fileURLToPath(import.meta.url)), "..");
const vendorRoot = join(nodeCore, "vendor");
if (!existsSync(join(vendorRoot, "linux-x64", "ugrep"))) {
  console.log(`skipped: ${vendorRoot}/linux-x64 is missing (run ./scripts/setup)`);
  process.exit(0);
}
const parts = new Set((process.env.SHIMS_BENCH ?? "prelude,grep,find,launch").split(","));

const tmp = mkdtempSync(join(os.tmpdir(), "wave-shims-bench-"));
const cores = [];
process.on("exit", () => {
  for (const c of cores) c.child.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

// The shim and runner modules, bundled on the fly (the core bundle does not export them).
const shimModule = join(tmp, "shims.mjs");
await build({
  stdin: {
    contents: [
      `export { ShimInjector } from "./shims/index.ts";`,
      `export { InjectionFiles } from "./shims/injectionFiles.ts";`,
      `export { resolveLaunch } from "./shims/launch.ts";`,
      `export { UGREP_FIXED_FLAGS } from "./shims/prelude.ts";`,
      `export { BASH_RC, ZSH_RC, buildInvocation } from "./invocation.ts";`,
    ].join("\n"),
    resolveDir: join(nodeCore, "src", "shell"),
    loader: "ts",
  },
  outfile: shimModule,
  bundle: true,
  platform: "node",
  format: "esm",
  logLevel: "warning",
});
const { ShimInjector, InjectionFiles, resolveLaunch, UGREP_FIXED_FLAGS, BASH_RC, ZSH_RC, buildInvocation } = await import(pathToFileURL(shimModule).href);

const which = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).stdout.trim();
const home = join(tmp, "home");
mkdirSync(home);
const env = { PATH: process.env.PATH, HOME: home, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" };

function run(argv, opts = {}) {
  const t = nowMs();
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28, ...opts });
  const ms = nowMs() - t;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout.toString() };
}

/** A Bash-tool caller on its own bundled core; `shims: false` in `initialize` for the baseline. */
async function bashTool(kind, root, shims) {
  // Permissions are measured in permissions.bench.mjs; allow-all still runs the check on every call.
  // Shims against the system tools, so without the sandbox (sandbox.bench.mjs measures that).
  const core = startCore(["--root", root, "--permission-mode", "allow-all", "--sandbox", "off"], {
    env: { ...process.env, HOME: home, WAVE_SHELL: which(kind), WAVE_OUTPUT_DIR: join(tmp, "output"), WAVE_LOG_LEVEL: "warn", WAVE_LOGIN_ENV: "0" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  cores.push(core);
  await core.request("initialize", { protocolVersion: "1.0", hostInfo: { name: "bench" }, settings: { shims } });
  const call = async (command) => {
    const t = nowMs();
    const msg = await core.request("tools/call", { name: "Bash", arguments: { command } });
    const ms = nowMs() - t;
    if (msg.error) throw new Error(JSON.stringify(msg.error));
    if (typeof msg.result.structuredContent?.output !== "string") throw new Error(`Bash \`${command}\` failed: ${msg.result.content?.[0]?.text}`);
    return { ms, status: msg.result.structuredContent.exitCode, stdout: msg.result.structuredContent.output };
  };
  return { core, call };
}

/** Medians of interleaved runs of each case (interleaving spreads machine noise evenly). */
async function compare(cases, runs, warmup = 2) {
  const once = (c) => (typeof c === "function" ? c() : run(c.argv, c.opts));
  for (let i = 0; i < warmup; i++) for (const c of Object.values(cases)) await once(c);
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [k, c] of Object.entries(cases)) times[k].push((await once(c)).ms);
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

const version = (argv) => run(argv).stdout.split("\n")[0];
const ugrepLaunch = resolveLaunch(join(vendorRoot, "linux-x64", "ugrep"));
console.log(
  `tools: bundled ${version([join(vendorRoot, "linux-x64", "ugrep"), "--version"])
    .split(" ")
    .slice(0, 2)
    .join(" ")}, ` +
    `${version([join(vendorRoot, "linux-x64", "bfs"), "--version"])}, ${version([join(vendorRoot, "linux-x64", "rg"), "--version"])}; ` +
    `system ${version(["grep", "--version"])}, ${version(["find", "--version"])}`,
);

// 1. Prelude cost.
if (parts.has("prelude")) {
  const scratch = join(tmp, "scratch");
  mkdirSync(scratch);
  for (const kind of ["bash", "zsh"]) {
    const on = await bashTool(kind, scratch, true);
    const off = await bashTool(kind, scratch, false);
    const m = await compare({ shims: () => on.call("cd ."), plain: () => off.call("cd .") }, 200, 20);
    const added = m.shims - m.plain;
    report({ name: `prelude: Bash tool \`cd .\` in ${kind} with shims`, value: m.shims, baseline: m.plain, baselineName: "shims: false" });
    console.log(`prelude: ${kind} through the Bash tool adds ${added.toFixed(2)} ms per command (median) [goal ≤ 1 ms ${added <= 1 ? "OK" : "MISSED"}]`);
  }

  // The same start-up in bare shells: the runner's start-up file, with and without the prelude.
  const injector = new ShimInjector({ vendorRoots: () => [vendorRoot], files: new InjectionFiles(() => tmp) });
  mkdirSync(join(tmp, "rc", "zsh"), { recursive: true });
  writeFileSync(join(tmp, "rc", "bash_env.sh"), BASH_RC);
  writeFileSync(join(tmp, "rc", "zsh", ".zshenv"), ZSH_RC);
  for (const kind of ["bash", "zsh"]) {
    const shell = { kind, path: which(kind), platform: "linux" };
    const invocation = (shims) =>
      buildInvocation({
        shell,
        command: "true",
        baseEnv: env,
        shims,
        runId: "bench.1.1",
        cwdFile: join(tmp, "bench.cwd"),
        bashRcFile: join(tmp, "rc", "bash_env.sh"),
        zshRcDir: join(tmp, "rc", "zsh"),
        corePid: process.pid,
      });
    const withShims = invocation(await injector.injection(shell));
    const without = invocation({});
    const m = await compare(
      {
        shims: { argv: [withShims.file, ...withShims.args], opts: { env: withShims.env } },
        plain: { argv: [without.file, ...without.args], opts: { env: without.env } },
        bare: { argv: [kind, "-c", "true"], opts: { env } },
      },
      300,
      20,
    );
    report({ name: `prelude: bare ${kind} -c true, start-up file with the prelude`, value: m.shims, baseline: m.plain, baselineName: "without" });
    // What the prelude itself costs, without the noise of process starts: sourced 1000 times in one shell.
    const prelude = withShims.env.WAVE_SHIMS_FILE;
    const loop = (body) => run([kind, "-c", `for i in {1..1000}; do ${body}; done`], { env }).ms;
    const inShell = median([1, 2, 3].map(() => loop(`. '${prelude}'`) - loop(":")));
    console.log(`prelude: sourcing it in a running ${kind} takes ${((inShell / 1000) * 1000).toFixed(0)} µs`);
    console.log(
      `prelude: ${kind} start-up file alone adds ${(m.plain - m.bare).toFixed(2)} ms (cwd tracking), the prelude ${(m.shims - m.plain).toFixed(2)} ms more [goal ≤ 1 ms ${m.shims - m.plain <= 1 ? "OK" : "MISSED"}]`,
    );
  }
}

// 2. A repository whose ignored node_modules dwarfs its sources.
const repo = join(tmp, "repo");
const NEEDLE = "ZQX_SHIM_BENCH_NEEDLE";
function generateRepo() {
  const filler = "export function f(a: number): number {\n  return a * 2 + 1; // filler text for the benchmark\n}\n".repeat(110);
  let files = 0;
  const write = (rel, text) => {
    const file = join(repo, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    files++;
  };
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, ".gitignore"), "node_modules\ndist/\n*.log\n");
  for (let i = 0; i < 400; i++) write(`src/mod${i % 20}/file${i}.ts`, filler + (i % 80 === 0 ? `const x = "${NEEDLE}";\n` : ""));
  // About 45,000 files and 400 MB, the size of a mid-sized web project's dependencies.
  for (let p = 0; p < 600; p++) {
    for (let i = 0; i < 75; i++) write(`node_modules/pkg${p}/lib/file${i}.js`, filler + (i === 0 && p % 150 === 0 ? `var x = "${NEEDLE}";\n` : ""));
  }
  for (let i = 0; i < 1000; i++) write(`dist/chunk${i}.js`, filler);
  return files;
}
if (parts.has("grep") || parts.has("find")) {
  const t0 = nowMs();
  const files = generateRepo();
  console.log(`repo: ${files} files (${(files - 400).toLocaleString()} ignored) generated in ${(nowMs() - t0).toFixed(0)} ms`);
}

if (parts.has("grep")) {
  const on = await bashTool("bash", repo, true);
  const ugrepWords = [...ugrepLaunch.command, ...UGREP_FIXED_FLAGS, "-rn", NEEDLE, "."];
  const grepCases = {
    tool: () => on.call(`grep -rn ${NEEDLE} .`),
    gnu: { argv: ["grep", "-rn", NEEDLE, "."], opts: { cwd: repo, env } },
    ugrep: { argv: ugrepWords, opts: { cwd: repo, env } },
    // The shim's own ugrep command line typed into the Bash tool after `cd . &&`: the tool, the shell
    // start and the start-up file are paid on both sides, so the ratio is what the shim itself costs.
    ugrepInTool: () => on.call(`cd . && ${ugrepWords.map((w) => `'${w}'`).join(" ")}`),
    // The same typed alone: no cd and no shimmed tool, so it runs as a plain `bash -c`.
    ugrepPlain: () => on.call(ugrepWords.map((w) => `'${w}'`).join(" ")),
  };
  const found = {};
  for (const [k, c] of Object.entries(grepCases)) found[k] = (typeof c === "function" ? await c() : run(c.argv, c.opts)).stdout.split("\n").filter(Boolean).length;
  console.log(`grep -rn: lines found: Bash tool ${found.tool}, GNU ${found.gnu}, ugrep ${found.ugrep} (GNU also searches the ignored files)`);
  const g = await compare(grepCases, 10);
  report({ name: "grep -rn NEEDLE . through the Bash tool vs GNU grep -r run directly", value: g.tool, baseline: g.gnu, baselineName: "GNU grep", goal: 0.1 });
  console.log(`grep -rn: the Bash tool's grep is ${(g.gnu / g.tool).toFixed(1)}× faster than GNU grep -r [goal ≥ 10× ${g.gnu / g.tool >= 10 ? "OK" : "MISSED"}]`);
  report({ name: "grep -rn NEEDLE . through the Bash tool vs the bundled ugrep run directly", value: g.tool, baseline: g.ugrep, baselineName: "ugrep", goal: 1.2 });
  report({
    name: "grep -rn NEEDLE . through the Bash tool vs the same ugrep typed into the Bash tool (in-shell)",
    value: g.tool,
    baseline: g.ugrepInTool,
    baselineName: "cd . && ugrep in the tool",
    goal: 1.2,
  });
  report({ name: "  same, vs the ugrep command line alone in the Bash tool (a plain bash -c)", value: g.tool, baseline: g.ugrepPlain, baselineName: "ugrep alone in the tool" });
  const t = await compare({ tool: () => on.call("true") }, 30);
  console.log(`grep -rn: of the ${(g.tool - g.ugrep).toFixed(1)} ms over ugrep run directly, ${t.tool.toFixed(1)} ms is the Bash tool's own \`true\` (core round trip + shell start)`);
}

// 3. find.
if (parts.has("find")) {
  const on = await bashTool("bash", repo, true);
  const off = await bashTool("bash", repo, false);
  const f = await compare(
    {
      tool: () => on.call("find . -name '*.ts'"),
      gnu: { argv: ["find", ".", "-name", "*.ts"], opts: { cwd: repo, env } },
      gnuInTool: () => off.call("find . -name '*.ts'"),
    },
    10,
  );
  report({ name: "find . -name '*.ts' through the Bash tool vs GNU find run directly", value: f.tool, baseline: f.gnu, baselineName: "GNU find" });
  report({ name: "find . -name '*.ts' through the Bash tool vs GNU find in the Bash tool (shims: false)", value: f.tool, baseline: f.gnuInTool, baselineName: "GNU find in the tool", goal: 1.2 });
}

// 4. Launch script vs loader.
if (parts.has("launch")) {
  const launch = await compare(
    {
      script: { argv: [join(vendorRoot, "linux-x64", "ugrep"), "--version"], opts: { env } },
      loader: { argv: [...ugrepLaunch.command, "--version"], opts: { env } },
    },
    200,
    10,
  );
  report({ name: "ugrep --version through its sh launch script vs its loader directly", value: launch.script, baseline: launch.loader, baselineName: "loader" });
  console.log(`launch: the sh script adds ${(launch.script - launch.loader).toFixed(2)} ms per call`);
}

for (const c of cores.splice(0)) await c.close();
