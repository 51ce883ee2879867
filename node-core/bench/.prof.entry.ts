import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { compileGlob, globWithNode, globWithRipgrep } from "../src/fs/glob.js";
import { resolveRipgrep } from "../src/fs/ripgrep.js";
const cpu = () => { const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" "); return [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0) * 10; };
const rg = resolveRipgrep({ resolveModuleFile: () => "/work/wt/fs/node_modules/@vscode/ripgrep-linux-x64/bin/rg" })!;
const root = "/tmp/fsproto/tree";
const req = { pattern: "**/*.js", root, limit: 100, timeoutMs: 60000 };
const c = compileGlob(req.pattern, root);
const variants: Record<string, () => Promise<unknown>> = {
  base: async () => spawnSync(rg.path, ["--files", "-g", "*.js", root], { stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 }),
  sorted: () => globWithRipgrep({ ...req, strategy: "sorted" }, c, rg, process.env),
  stream: () => globWithRipgrep({ ...req, strategy: "stream" }, c, rg, process.env),
  node: () => globWithNode(req, c),
};
const res: Record<string, { wall: number[]; cpu: number }> = {};
for (let i = 0; i < 7; i++) for (const [k, f] of Object.entries(variants)) {
  const c0 = cpu(); const t = performance.now(); await f(); const w = performance.now() - t;
  (res[k] ??= { wall: [], cpu: 0 }).wall.push(w); res[k]!.cpu += cpu() - c0;
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(8), "wall", v.wall.sort((a, b) => a - b)[3]!.toFixed(0), "cpu/run", (v.cpu / 7).toFixed(0));
