// One request value: the runtime calls a tool's `prepare` once per call and hands that value to
// the permission check and to the run, so what was judged is what runs, and no state is kept
// beside the call (no module-level map keyed on the input).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { WaveCore } from "./runtime.js";
import { defineTool, textResult, type ToolContext, type ToolDefinition } from "./tool.js";
import type { PermissionOutcome } from "../permissions/types.js";
import type { ParsedPolicy } from "../permissions/service.js";
import type { SandboxPlan } from "../shell/sandbox/service.js";
import { closeCores, testCore } from "../../test/support/core.js";
import { captureLogs } from "../../test/support/logs.js";
import { scratchDir } from "../../test/support/scratch.js";

afterEach(closeCores);

interface Seen {
  prepared: object[];
  judged: object[];
  ran: object[];
  permissionInRun: Array<PermissionOutcome | undefined>;
}

/** A tool whose `prepare` makes a fresh object per call, and which records who received which. */
function recordingTool(seen: Seen, opts: { needs?: boolean; prepareThrows?: boolean } = {}) {
  return defineTool({
    name: "Recorder",
    description: "Records what its steps receive.",
    inputSchema: z.strictObject({ command: z.string() }),
    prepare: (input, _ctx: ToolContext) => {
      if (opts.prepareThrows) throw new Error("prepare broke");
      const value = { command: input.command, n: seen.prepared.length };
      seen.prepared.push(value);
      return value;
    },
    permission: (input, _ctx, prepared) => {
      seen.judged.push(prepared);
      return opts.needs === false ? undefined : { tool: "Recorder", command: input.command };
    },
    run: async (_input, ctx, prepared) => {
      seen.ran.push(prepared);
      seen.permissionInRun.push(ctx.permission);
      return textResult(`ran ${prepared.n}`);
    },
  });
}

function core(tool: ToolDefinition, permissions: ParsedPolicy): WaveCore {
  const c = new WaveCore({ root: scratchDir("wave-prepare-"), tools: [tool], permissions });
  cores.push(c);
  return c;
}

const cores: WaveCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.shutdown()));
});

const ALLOW_ALL: ParsedPolicy = { mode: "allow-all", allow: [], deny: [] };
const DENY_ALL: ParsedPolicy = { mode: "deny-all", allow: [], deny: [] };

describe("a tool's prepare", () => {
  it("runs once per call, and its very value is what the permission check and the run receive", async () => {
    const seen: Seen = { prepared: [], judged: [], ran: [], permissionInRun: [] };
    const c = core(recordingTool(seen) as ToolDefinition, ALLOW_ALL);
    const first = await c.callTool({ name: "Recorder", arguments: { command: "echo one" }, origin: "cli" });
    const second = await c.callTool({ name: "Recorder", arguments: { command: "echo two" }, origin: "cli" });
    expect(first.isError).toBe(false);
    expect(second.isError).toBe(false);
    expect(seen.prepared).toHaveLength(2);
    expect(seen.prepared[0]).not.toBe(seen.prepared[1]);
    for (const i of [0, 1]) {
      expect(seen.judged[i]).toBe(seen.prepared[i]);
      expect(seen.ran[i]).toBe(seen.prepared[i]);
      // The run also sees what the check decided about the request made from that value.
      expect(seen.permissionInRun[i]?.allowed).toBe(true);
    }
  });

  it("reaches the run even when the call needs no permission", async () => {
    const seen: Seen = { prepared: [], judged: [], ran: [], permissionInRun: [] };
    const c = core(recordingTool(seen, { needs: false }) as ToolDefinition, DENY_ALL);
    const r = await c.callTool({ name: "Recorder", arguments: { command: "echo free" }, origin: "cli" });
    expect(r.isError).toBe(false);
    expect(seen.ran).toEqual([seen.prepared[0]]);
    expect(seen.ran[0]).toBe(seen.prepared[0]);
    expect(seen.permissionInRun).toEqual([undefined]);
  });

  it("is judged and then dropped when the check refuses: the run never sees it", async () => {
    const seen: Seen = { prepared: [], judged: [], ran: [], permissionInRun: [] };
    const c = core(recordingTool(seen) as ToolDefinition, DENY_ALL);
    const r = await c.callTool({ name: "Recorder", arguments: { command: "rm -rf ./never-removed" }, origin: "cli" });
    expect(r.isError).toBe(true);
    expect(r.structuredContent.errorKind).toBe("denied_by_policy");
    expect(seen.judged).toEqual(seen.prepared);
    expect(seen.prepared).toHaveLength(1);
    expect(seen.ran).toEqual([]);
  });

  it("that throws is an internal error of the call, and neither the check nor the run happens", async () => {
    const seen: Seen = { prepared: [], judged: [], ran: [], permissionInRun: [] };
    const c = core(recordingTool(seen, { prepareThrows: true }) as ToolDefinition, ALLOW_ALL);
    const logs = captureLogs();
    const r = await c.callTool({ name: "Recorder", arguments: { command: "echo" }, origin: "cli" });
    expect(logs.lines()).toEqual(["ERROR core: tool threw"]);
    expect(r.isError).toBe(true);
    expect(r.structuredContent.errorKind).toBe("internal_error");
    expect(r.structuredContent.error).toMatch(/prepare broke/);
    expect(seen.judged).toEqual([]);
    expect(seen.ran).toEqual([]);
  });
});

describe("the shell tools' sandbox plan", () => {
  it.each(["Bash", "run_shell_command"])("%s makes one plan per call, for the check and the run alike", async (tool) => {
    const t = testCore();
    const made: Array<Promise<SandboxPlan>> = [];
    const sandbox = t.core.sandbox;
    const plan = sandbox.plan.bind(sandbox);
    sandbox.plan = (opts) => {
      const p = plan(opts);
      made.push(p);
      return p;
    };
    const r = await t.call(tool, { command: "echo planned" });
    expect(r.isError).toBe(false);
    expect(made).toHaveLength(1);
    // The result says how the command ran: as that one plan said.
    expect(r.structuredContent.sandboxed).toBe((await made[0]!).sandboxed);
    const again = await t.call(tool, { command: "echo again" });
    expect(again.isError).toBe(false);
    expect(made).toHaveLength(2);
  });
});

describe("no state beside the call", () => {
  it("no module of core/ or tools/ keeps a module-level WeakMap (the check and the run share the prepared value instead)", () => {
    const src = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const offenders: string[] = [];
    let scanned = 0;
    for (const dir of ["core", "tools"]) {
      for (const name of readdirSync(path.join(src, dir))) {
        if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
        scanned++;
        const lines = readFileSync(path.join(src, dir, name), "utf8").split("\n");
        lines.forEach((line, i) => {
          // Top level: not indented (inside a function or class a map lives and dies with its owner).
          if (/^\S/.test(line) && /new\s+WeakMap\b/.test(line)) offenders.push(`${dir}/${name}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(scanned).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });
});
