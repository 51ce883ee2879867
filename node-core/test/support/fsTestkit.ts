// Helpers for the file-tool tests: real temporary directories and a real core to call tools on.
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WaveCore } from "../../src/core/runtime.js";
import { scratchDir } from "./scratch.js";
import { resultText, type ToolResult } from "../../src/core/tool.js";
import { allTools } from "../../src/tools/index.js";

const made: string[] = [];

/** A fresh, symlink-free temporary directory, removed by `cleanTempDirs` (or when the test file ends). */
export function tempDir(prefix = "wave-fs-"): string {
  const dir = scratchDir(prefix);
  made.push(dir);
  return dir;
}

export function cleanTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** File-tool tests are not about permissions: they run like `--permission-mode allow-all`. */
export function newCore(root: string): WaveCore {
  return new WaveCore({ root, tools: allTools, permissions: { mode: "allow-all", allow: [], deny: [] } });
}

export interface Caller {
  core: WaveCore;
  call(name: string, args: Record<string, unknown>, sessionId?: string): Promise<ToolResult>;
}

export function caller(root: string): Caller {
  const core = newCore(root);
  return { core, call: (name, args, sessionId) => core.callTool({ name, arguments: args, origin: "cli", sessionId }) };
}

export const text = resultText;

/** A temporary root holding `files` (relative path → content), with a core to call tools on. */
export function workspace(files: Record<string, string | Buffer>) {
  const root = tempDir();
  const file = (name: string) => path.join(root, name);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(file(name)), { recursive: true });
    writeFileSync(file(name), content);
  }
  return { root, ...caller(root), file, bytes: (name: string) => readFileSync(file(name)) };
}

/** Sets a file's mtime `seconds` into the future (a touch that changes nothing else). */
export function touchLater(file: string, seconds = 10): void {
  const t = Date.now() / 1000 + seconds;
  utimesSync(file, t, t);
}
