// Permission checks: what judging a command costs on top of the protocol round trip.
//  - first check after start-up (it compiles the lazily loaded shell parser) vs a first
//    `permissions/list` in another fresh core (same round trip, no parsing)
//  - steady state: `permissions/evaluate` of a typical compound agent command vs `permissions/list`,
//    and vs spawning `bash -c true` to exit (the least any command costs; goal ≤ 0.5×: deciding
//    must stay small next to running the command)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { median, nowMs, percentile, report, startCore } from "./lib.mjs";

const COMMAND = "cd packages/app && npm run test:unit -- --reporter=dot 2>&1 | tee /tmp/test.log && git status --short && rm -rf build dist $(git rev-parse --show-toplevel)/tmp";
const RULES = ["--allow", "npm run test:*", "--allow", "git status:*", "--allow", "rm:*", "--deny", "git push --force:*"];

const root = mkdtempSync(path.join(os.tmpdir(), "wave-bench-perm-"));
try {
  const firsts = { check: [], list: [] };
  for (let i = 0; i < 9; i++) {
    for (const kind of ["check", "list"]) {
      const core = startCore(["--root", root, ...RULES]);
      await core.request("initialize", {});
      const t0 = nowMs();
      const r = kind === "list" ? await core.request("permissions/list", {}) : await core.request("permissions/evaluate", { command: COMMAND });
      firsts[kind].push(nowMs() - t0);
      if (r.error) throw new Error(JSON.stringify(r.error));
      await core.close();
    }
  }
  report({ name: "first permission check after start (compiles the parser)", value: median(firsts.check), baseline: median(firsts.list), baselineName: "first permissions/list" });

  const core = startCore(["--root", root, ...RULES]);
  await core.request("initialize", {});
  const evals = [];
  const lists = [];
  for (let i = 0; i < 400; i++) {
    let t0 = nowMs();
    const r = await core.request("permissions/evaluate", { command: COMMAND });
    evals.push(nowMs() - t0);
    if (r.error || r.result.parts.length !== 6) throw new Error("unexpected decision: " + JSON.stringify(r).slice(0, 500));
    t0 = nowMs();
    await core.request("permissions/list", {});
    lists.push(nowMs() - t0);
  }
  await core.close();
  const spawns = [];
  for (let i = 0; i < 60; i++) {
    const t0 = nowMs();
    await new Promise((resolve, reject) => spawn("bash", ["-c", "true"], { stdio: "ignore" }).on("exit", resolve).on("error", reject));
    spawns.push(nowMs() - t0);
  }
  const steady = (xs) => xs.slice(100);
  report({ name: "permissions/evaluate of a 6-part command p50", value: median(steady(evals)), baseline: median(steady(lists)), baselineName: "permissions/list" });
  report({ name: "permissions/evaluate of a 6-part command p50", value: median(steady(evals)), baseline: median(spawns.slice(10)), baselineName: "spawn bash -c true", goal: 0.5 });
  console.log(`permissions/evaluate p90: ${percentile(steady(evals), 90).toFixed(3)} ms, p99: ${percentile(steady(evals), 99).toFixed(3)} ms`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
