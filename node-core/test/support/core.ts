// In-process cores for tool tests: a real WaveCore over a temporary workspace, real shells.
import { afterAll, beforeAll } from "vitest";
import type { WaveCore } from "../../src/core/runtime.js";
import type { CallOrigin } from "../../src/base/origin.js";
import type { ToolResult } from "../../src/core/tool.js";
import type { BashStructured } from "../../src/tools/bash.js";
import { PROCESS_TOKEN } from "../../src/shell/outputDir.js";
import type { ParsedPolicy } from "../../src/permissions/service.js";
import type { SandboxCliOptions } from "../../src/shell/sandbox/settings.js";
import { createCore } from "../../src/startup.js";
import { processesWithEnv, tempDir } from "./processes.js";

export interface TestCore {
  core: WaveCore;
  root: string;
  events: Array<{ method: string; params: Record<string, unknown> }>;
  call(name: string, args: Record<string, unknown>, opts?: { sessionId?: string; signal?: AbortSignal; callId?: string; origin?: CallOrigin }): Promise<ToolResult>;
  bash(args: Record<string, unknown>, opts?: { sessionId?: string; signal?: AbortSignal; callId?: string; origin?: CallOrigin }): Promise<BashResult>;
}

export type BashResult = ToolResult & {
  text: string;
  s: Record<string, unknown> & BashStructured;
};

const open: WaveCore[] = [];

/** Tests whose subject is not the permission layer run with `--permission-mode allow-all`. */
export const ALLOW_ALL: ParsedPolicy = { mode: "allow-all", allow: [], deny: [] };

/** For tests of the unsandboxed engine (pids and groups as seen from inside the command, …). */
export const NO_SANDBOX: SandboxCliOptions = { mode: "off" };

export function testCore(opts: { root?: string; additionalDirectories?: string[]; permissions?: ParsedPolicy; sandbox?: SandboxCliOptions } = {}): TestCore {
  const root = opts.root ?? tempDir("wave-ws-");
  const core = createCore({ root, additionalDirectories: opts.additionalDirectories, permissions: opts.permissions ?? ALLOW_ALL, sandbox: opts.sandbox });
  open.push(core);
  const events: TestCore["events"] = [];
  core.events.subscribe((method, params) => events.push({ method, params }));
  const call: TestCore["call"] = (name, args, o = {}) => core.callTool({ name, arguments: args, origin: o.origin ?? "host", sessionId: o.sessionId, signal: o.signal, callId: o.callId });
  return {
    core,
    root,
    events,
    call,
    async bash(args, o) {
      const r = await call("Bash", args, o);
      const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      return { ...r, text, s: r.structuredContent as BashResult["s"] };
    },
  };
}

/** Shuts every core the tests created (stopping their processes). */
export async function closeCores(): Promise<void> {
  await Promise.all(open.splice(0).map((c) => c.shutdown()));
}

/**
 * Live processes started by any core of this test process (they carry its token); with
 * `includeWaiting`, shells started ahead that still wait for a command too.
 */
export function ourProcesses(opts: { includeWaiting?: boolean } = {}) {
  return processesWithEnv("WAVE_RUN_ID", `${PROCESS_TOKEN}.`, opts);
}

/** Live processes of one run or session marker prefix. */
export function markedProcesses(prefix: string) {
  return processesWithEnv("WAVE_RUN_ID", prefix);
}

/** The real shells the Bash tool runs, as `describe.each` rows. */
export const SHELLS = [
  ["bash", "/usr/bin/bash"],
  ["zsh", "/usr/bin/zsh"],
] as const;

/** Makes the cores of the enclosing `describe` run `shellPath` (WAVE_SHELL), restored afterwards. */
export function useShell(shellPath: string): void {
  const saved = process.env.WAVE_SHELL;
  beforeAll(() => {
    process.env.WAVE_SHELL = shellPath;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.WAVE_SHELL;
    else process.env.WAVE_SHELL = saved;
  });
}
