// Runs every benchmark file (bench/*.bench.mjs) one after another, each in its own process so
// one's memory and timers never skew another. Each prints its own figures as ratios against a
// baseline measured in the same run; the figures with a goal are repeated at the end, so one look
// shows which goals this run met. `npm run bench -- <filter>` runs only matching files.
import { readdirSync } from "node:fs";
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.mjs") && (!filter || f.includes(filter)))
  .sort();
let failed = 0;
const goals = [];
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const child = spawn(process.execPath, ["--expose-gc", join(here, f)], { stdio: ["inherit", "pipe", "inherit"] });
  let pending = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d) => {
    process.stdout.write(d);
    pending += d;
    const lines = pending.split("\n");
    pending = lines.pop();
    for (const line of lines) if (/\[goal [^\]]*\]/.test(line)) goals.push(`${f.replace(/\.bench\.mjs$/, "")}: ${line.trim()}`);
  });
  const [code, signal] = await new Promise((resolve) => child.once("close", (c, s) => resolve([c, s])));
  if (code !== 0) {
    failed++;
    console.log(`!!! ${f} exited with ${code ?? signal}`);
  }
}
console.log(`\n=== goals (${goals.filter((g) => /OK\]/.test(g)).length} of ${goals.length} met) ===`);
for (const g of goals) console.log(g);
process.exit(failed ? 1 : 0);
