// Replays the golden transcripts in test-fixtures/protocol (format: that folder's README.md).
import { cpSync } from "node:fs";
import path from "node:path";
import { CoreProcess, type Message } from "./support/coreProcess.js";
import { scratchDir } from "./support/scratch.js";

export const TRANSCRIPT_DIR = path.resolve(__dirname, "..", "..", "test-fixtures", "protocol");

export interface Transcript {
  description: string;
  args?: string[];
  steps: Array<{ send?: unknown; sendRaw?: string; expect?: unknown[] }>;
  exitCode?: number;
}

/** Returns undefined when `actual` matches `expected`, otherwise where and why it does not. */
export function mismatch(expected: unknown, actual: unknown, where = "$"): string | undefined {
  if (typeof expected === "string") {
    if (expected === "<<any>>") return actual === undefined ? `${where}: missing` : undefined;
    if (expected === "<<string>>") return typeof actual === "string" ? undefined : `${where}: expected a string, got ${JSON.stringify(actual)}`;
    if (expected === "<<number>>") return typeof actual === "number" ? undefined : `${where}: expected a number, got ${JSON.stringify(actual)}`;
    if (expected === "<<boolean>>") return typeof actual === "boolean" ? undefined : `${where}: expected a boolean, got ${JSON.stringify(actual)}`;
    if (expected === "<<array>>") return Array.isArray(actual) ? undefined : `${where}: expected an array, got ${JSON.stringify(actual)}`;
    if (expected === "<<object>>") {
      return actual !== null && typeof actual === "object" && !Array.isArray(actual) ? undefined : `${where}: expected an object`;
    }
    const re = /^<<regex:([\s\S]*)>>$/.exec(expected);
    if (re) {
      return typeof actual === "string" && new RegExp(re[1]!).test(actual) ? undefined : `${where}: ${JSON.stringify(actual)} does not match /${re[1]}/`;
    }
    return actual === expected ? undefined : `${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${where}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) return `${where}: expected ${expected.length} elements, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const m = mismatch(expected[i], actual[i], `${where}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return `${where}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      const a = (actual as Record<string, unknown>)[k];
      if (v === "<<absent>>") {
        if (k in (actual as object)) return `${where}.${k}: expected to be absent`;
        continue;
      }
      if (!(k in (actual as object))) return `${where}.${k}: missing`;
      const m = mismatch(v, a, `${where}.${k}`);
      if (m) return m;
    }
    return undefined;
  }
  return actual === expected ? undefined : `${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

function substitute<T>(value: T, root: string): T {
  const escaped = JSON.stringify(root).slice(1, -1);
  return JSON.parse(JSON.stringify(value).split("${ROOT}").join(escaped)) as T;
}

export function makeWorkspace(): string {
  const dir = scratchDir("wave-transcript-");
  cpSync(path.join(TRANSCRIPT_DIR, "workspace"), dir, { recursive: true });
  return dir;
}

export async function replay(transcript: Transcript, stepTimeoutMs = 15_000): Promise<void> {
  const root = makeWorkspace();
  const t = substitute(transcript, root);
  const core = new CoreProcess(["serve", "--root", root, ...(t.args ?? [])]);
  try {
    let from = 0;
    for (const [i, step] of t.steps.entries()) {
      from = core.received.length;
      if (step.sendRaw !== undefined) core.sendRaw(step.sendRaw);
      else if (step.send !== undefined) core.send(step.send as object);
      const used = new Set<Message>();
      for (const exp of step.expect ?? []) {
        const matches = (m: Message) => !used.has(m) && core.received.indexOf(m) >= from && mismatch(exp, m) === undefined;
        let got: Message;
        try {
          got = await core.waitFor(matches, stepTimeoutMs);
        } catch {
          const seen = core.received.slice(from).map((m) => `  ${JSON.stringify(m)}\n    -> ${mismatch(exp, m)}`);
          throw new Error(`step ${i}: no message matched ${JSON.stringify(exp)}\nreceived in this step:\n${seen.join("\n")}\nstderr:\n${core.stderr}`);
        }
        used.add(got);
      }
    }
    const exit = await Promise.race([core.close(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error("core did not exit after stdin closed")), 10_000))]);
    if (exit.code !== (t.exitCode ?? 0)) throw new Error(`core exited with ${exit.code ?? exit.signal}, expected ${t.exitCode ?? 0}`);
  } finally {
    core.kill();
  }
}
