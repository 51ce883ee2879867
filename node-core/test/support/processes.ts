// Test helpers that look at real processes: who carries a marker in /proc/<pid>/environ, whether
// a pid is alive (zombies count as dead), and polling without wall-clock assertions.
import { mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface LiveProcess {
  pid: number;
  command: string;
}

function state(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie. */
export function isAlive(pid: number): boolean {
  const s = state(pid);
  return s !== undefined && s !== "Z" && s !== "X";
}

/** Live processes whose environment has a variable `name` whose value contains `needle`. */
export function processesWithEnv(name: string, needle: string): LiveProcess[] {
  const out: LiveProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, "latin1");
    } catch {
      continue;
    }
    const hit = environ.split("\0").some((kv) => kv.startsWith(name + "=") && kv.slice(name.length + 1).includes(needle));
    if (!hit || !isAlive(pid)) continue;
    let command = "?";
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replace(/\0/g, " ");
    } catch {
      // raced with exit
    }
    out.push({ pid, command });
  }
  return out;
}

/** Polls until `check` returns a truthy value or the budget runs out; returns the last value. */
export async function waitFor<T>(check: () => T | Promise<T>, budgetMs = 10_000, everyMs = 50): Promise<T> {
  const end = Date.now() + budgetMs;
  for (;;) {
    const v = await check();
    if (v || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function tempDir(prefix = "wave-test-"): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}
