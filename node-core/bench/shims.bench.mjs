// Search-shim benchmarks (BASH-SHIM), each against a baseline measured in this same run:
//   - prelude cost: `true` in bash/zsh started with the injection vs without (goal: ≤ 1 ms added)
//   - `grep -rn NEEDLE .` through the shim in a generated repository with a large gitignored
//     node_modules, vs GNU `grep -r` (goal ≥ 10× faster) and vs the bundled ugrep started directly
//     with the same flags (goal ≤ 1.2×)
//   - `find . -name '*.ts'` through the shim vs GNU find
//   - starting a vendor tool through its sh launch script vs its loader directly (why the prelude
//     calls the loader itself)
// The shells are started as the Bash runner will start them (environment + `-c` script), and the GNU
// baselines in a plain `bash -c`, so both sides pay the same shell start; the variants through the
// Bash tool itself come with the runner.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { median, nowMs, report } from "./lib.mjs";

const nodeCore = join(dirname(fileURLToPath(import.meta.url)), "..");
const vendorRoot = join(nodeCore, "vendor");
if (!existsSync(join(vendorRoot, "linux-x64", "ugrep"))) {
  console.log(`skipped: ${vendorRoot}/linux-x64 is missing (run ./scripts/setup)`);
  process.exit(0);
}

const tmp = mkdtempSync(join(os.tmpdir(), "wave-shims-bench-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

// The shim modules, bundled on the fly (the core bundle does not export them).
const shimModule = join(tmp, "shims.mjs");
await build({
  stdin: {
    contents: [
      `export { ShimInjector } from "./index.ts";`,
      `export { InjectionFiles } from "./injectionFiles.ts";`,
      `export { resolveLaunch } from "./launch.ts";`,
      `export { UGREP_FIXED_FLAGS } from "./prelude.ts";`,
    ].join("\n"),
    resolveDir: join(nodeCore, "src", "shell", "shims"),
    loader: "ts",
  },
  outfile: shimModule,
  bundle: true,
  platform: "node",
  format: "esm",
  logLevel: "warning",
});
const { ShimInjector, InjectionFiles, resolveLaunch, UGREP_FIXED_FLAGS } = await import(pathToFileURL(shimModule).href);

const injector = new ShimInjector({ vendorRoots: () => [vendorRoot], files: new InjectionFiles(() => tmp) });
const home = join(tmp, "home");
mkdirSync(home);
const env = { PATH: process.env.PATH, HOME: home, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" };
const injected = {
  bash: (await injector.injection({ kind: "bash", path: "/bin/bash", platform: "linux" }, env)).env,
  zsh: (await injector.injection({ kind: "zsh", path: "/bin/zsh", platform: "linux" }, env)).env,
};

function run(argv, opts = {}) {
  const t = nowMs();
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28, ...opts });
  const ms = nowMs() - t;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout };
}

/** Medians of interleaved runs of each case (interleaving spreads machine noise evenly). */
function compare(cases, runs, warmup = 2) {
  for (let i = 0; i < warmup; i++) for (const c of Object.values(cases)) run(c.argv, c.opts);
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [k, c] of Object.entries(cases)) times[k].push(run(c.argv, c.opts).ms);
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

// 1. Prelude cost.
for (const kind of ["bash", "zsh"]) {
  const m = compare(
    {
      plain: { argv: [kind, "-c", "true"], opts: { env } },
      shims: { argv: [kind, "-c", "true"], opts: { env: { ...env, ...injected[kind] } } },
    },
    300,
    20,
  );
  const added = m.shims - m.plain;
  report({ name: `prelude: ${kind} -c true with shims`, value: m.shims, baseline: m.plain, baselineName: "without" });
  console.log(`prelude: ${kind} adds ${added.toFixed(2)} ms per command (median) [goal ≤ 1 ms ${added <= 1 ? "OK" : "MISSED"}]`);
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
  writeFileSync(join((mkdirSync(repo, { recursive: true }), repo), ".gitignore"), "node_modules\ndist/\n*.log\n");
  for (let i = 0; i < 400; i++) write(`src/mod${i % 20}/file${i}.ts`, filler + (i % 80 === 0 ? `const x = "${NEEDLE}";\n` : ""));
  // About 45,000 files and 400 MB, the size of a mid-sized web project's dependencies.
  for (let p = 0; p < 600; p++) {
    for (let i = 0; i < 75; i++) write(`node_modules/pkg${p}/lib/file${i}.js`, filler + (i === 0 && p % 150 === 0 ? `var x = "${NEEDLE}";\n` : ""));
  }
  for (let i = 0; i < 1000; i++) write(`dist/chunk${i}.js`, filler);
  return files;
}
const t0 = nowMs();
const files = generateRepo();
console.log(`repo: ${files} files (${(files - 400).toLocaleString()} ignored) generated in ${(nowMs() - t0).toFixed(0)} ms`);

const ugrepLaunch = resolveLaunch(join(vendorRoot, "linux-x64", "ugrep"));
const grepCases = {
  shim: { argv: ["bash", "-c", `grep -rn ${NEEDLE} .`], opts: { cwd: repo, env: { ...env, ...injected.bash } } },
  gnu: { argv: ["bash", "-c", `grep -rn ${NEEDLE} .`], opts: { cwd: repo, env } },
  ugrep: { argv: [...ugrepLaunch.command, ...UGREP_FIXED_FLAGS, "-rn", NEEDLE, "."], opts: { cwd: repo, env } },
  // The same ugrep typed into a plain shell: what the shim costs beyond the shell start itself.
  ugrepInBash: { argv: ["bash", "-c", [...ugrepLaunch.command, ...UGREP_FIXED_FLAGS, "-rn", NEEDLE, "."].map((w) => `'${w}'`).join(" ")], opts: { cwd: repo, env } },
};
const lines = Object.fromEntries(Object.entries(grepCases).map(([k, c]) => [k, run(c.argv, c.opts).stdout.toString().split("\n").filter(Boolean).length]));
console.log(`grep -rn: lines found: shim ${lines.shim}, GNU ${lines.gnu}, ugrep ${lines.ugrep} (GNU also searches the ignored files)`);
const g = compare(grepCases, 10);
report({ name: "grep -rn NEEDLE . through the shim vs GNU grep -r", value: g.shim, baseline: g.gnu, baselineName: "GNU grep", goal: 0.1 });
console.log(`grep -rn: shim is ${(g.gnu / g.shim).toFixed(1)}× faster than GNU grep -r [goal ≥ 10× ${g.gnu / g.shim >= 10 ? "OK" : "MISSED"}]`);
report({ name: "grep -rn NEEDLE . through the shim vs the bundled ugrep run directly", value: g.shim, baseline: g.ugrep, baselineName: "ugrep", goal: 1.2 });
report({ name: "grep -rn NEEDLE . through the shim vs the same ugrep in a plain bash -c", value: g.shim, baseline: g.ugrepInBash, baselineName: "ugrep in bash", goal: 1.2 });

// 3. find.
const findCases = {
  shim: { argv: ["bash", "-c", "find . -name '*.ts'"], opts: { cwd: repo, env: { ...env, ...injected.bash } } },
  gnu: { argv: ["bash", "-c", "find . -name '*.ts'"], opts: { cwd: repo, env } },
};
const f = compare(findCases, 10);
report({ name: "find . -name '*.ts' through the shim vs GNU find", value: f.shim, baseline: f.gnu, baselineName: "GNU find", goal: 1.2 });

// 4. Launch script vs loader.
const launch = compare(
  {
    script: { argv: [join(vendorRoot, "linux-x64", "ugrep"), "--version"], opts: { env } },
    loader: { argv: [...ugrepLaunch.command, "--version"], opts: { env } },
  },
  200,
  10,
);
report({ name: "ugrep --version through its sh launch script vs its loader directly", value: launch.script, baseline: launch.loader, baselineName: "loader" });
console.log(`launch: the sh script adds ${(launch.script - launch.loader).toFixed(2)} ms per call`);
