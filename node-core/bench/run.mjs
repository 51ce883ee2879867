// Runs every benchmark file (bench/*.bench.mjs) one after another, each in its own process so
// one's memory and timers never skew another. Each prints its own figures as ratios against a
// baseline measured in the same run. `npm run bench -- <filter>` runs only matching files.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.mjs") && (!filter || f.includes(filter)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const r = spawnSync(process.execPath, ["--expose-gc", join(here, f)], { stdio: "inherit" });
  if (r.status !== 0) {
    failed++;
    console.log(`!!! ${f} exited with ${r.status ?? r.signal}`);
  }
}
process.exit(failed ? 1 : 0);
