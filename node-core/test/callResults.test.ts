// tool/finished carries a bounded summary, and calls/result hands a host the whole result of a
// recent call (PROTOCOL.md "Bounded results"), through the real bundle over real pipes; the MCP
// server and the one-shot CLI answer as before.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { stdioTransport } from "./support/mcpStdio.js";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { closeCores, testCore } from "./support/core.js";
import { BUNDLE, CoreProcess, stopCores, type Message } from "./support/coreProcess.js";
import { assertSummaryErrorKind } from "./support/errorKinds.js";
import { makeWorkspace } from "./transcript.js";

/** What a tool/finished line may take on the wire, whatever the tool returned. */
const NOTIFICATION_LIMIT = 8 * 1024;

/** 29,970 three-byte characters and a newline: 90 KB of output, just under the 30,000 characters the Bash tool returns whole. */
const MULTIBYTE_OUTPUT = "日本語".repeat(9990) + "\n";
const MULTIBYTE_COMMAND = `for i in $(seq 1 999); do printf '日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語'; done; echo`;

const cores: CoreProcess[] = [];
afterEach(async () => {
  await stopCores(cores);
  await closeCores();
});

async function serve(root = makeWorkspace()): Promise<{ core: CoreProcess; root: string }> {
  const core = new CoreProcess(["serve", "--root", root, "--permission-mode", "allow-all"]);
  cores.push(core);
  const init = await core.request("initialize", { workspaceRoot: root });
  expect(init.error).toBeUndefined();
  return { core, root };
}

/** The tool/finished line of `callId` exactly as the core wrote it. */
function finishedLine(core: CoreProcess, callId: string): string {
  const line = core.stdout.split("\n").find((l) => l.includes('"method":"tool/finished"') && JSON.parse(l).params.callId === callId);
  if (!line) throw new Error(`no tool/finished for ${callId}`);
  return line;
}

async function call(core: CoreProcess, callId: string, name: string, args: Record<string, unknown>, sessionId?: string): Promise<Message> {
  const response = await core.request("tools/call", { name, callId, arguments: args, ...(sessionId ? { sessionId } : {}) });
  expect(response.error).toBeUndefined();
  await core.waitFor((m) => m.method === "tool/finished" && m.params.callId === callId);
  return response;
}

describe("tool/finished summary and calls/result", () => {
  it("a 2 MB single-line Write, a Bash printing 30,000 multi-byte characters and a Grep with huge output: each tool/finished stays under 8 KB, and calls/result returns the very result tools/call did", async () => {
    const { core, root } = await serve();
    mkdirSync(path.join(root, "many"));
    const line = "Ünïcödé match 検索 ".repeat(20);
    for (let f = 0; f < 40; f++) writeFileSync(path.join(root, "many", `f${f}.txt`), `${line}\n`.repeat(200));

    const cases: Array<[string, string, Record<string, unknown>]> = [
      ["write-2mb", "Write", { file_path: "big.txt", content: "y".repeat(2 * 1024 * 1024) }],
      ["bash-multibyte", "Bash", { command: MULTIBYTE_COMMAND }],
      ["grep-huge", "Grep", { pattern: "match", path: "many", output_mode: "content" }],
    ];
    for (const [callId, name, args] of cases) {
      const response = await call(core, callId, name, args);
      const raw = finishedLine(core, callId);
      expect(Buffer.byteLength(raw), `${callId}: ${raw.length} characters`).toBeLessThan(NOTIFICATION_LIMIT);
      const params = JSON.parse(raw).params;
      expect(params).not.toHaveProperty("result");
      expect(params.summary.resultBytes).toBe(Buffer.byteLength(JSON.stringify(response.result)));
      // The Write's own result is small already (its diff is bounded); the other two outgrow a notification.
      if (name !== "Write") {
        expect(params.summary.resultBytes).toBeGreaterThan(NOTIFICATION_LIMIT);
        expect(params.summary.preview).toMatch(/\.\.\. \[\d+ more characters]$/);
      }

      const kept = await core.request("calls/result", { callId });
      expect(kept.error).toBeUndefined();
      expect(kept.result).toEqual(response.result);
    }

    // What a card header needs is there without the result.
    const bash = JSON.parse(finishedLine(core, "bash-multibyte")).params;
    expect(bash).toMatchObject({ name: "Bash", isError: false, summary: { fields: { exitCode: 0, interrupted: false } } });
    expect(bash.summary.textChars).toBeGreaterThanOrEqual(MULTIBYTE_OUTPUT.trimEnd().length);
    expect(bash.summary.preview.startsWith("日本語日本語")).toBe(true);
    const write = JSON.parse(finishedLine(core, "write-2mb")).params;
    expect(write.summary.fields).toMatchObject({ filePath: path.join(root, "big.txt"), type: "create", diff: { linesAdded: 1, linesRemoved: 0 } });
    const grep = JSON.parse(finishedLine(core, "grep-huge")).params;
    expect(grep.summary.fields).toMatchObject({ numFiles: 40, truncated: true });
  });

  it("an unknown id, and a call still running, are clear errors; the running call's result comes once it finished", async () => {
    const { core } = await serve();
    const unknown = await core.request("calls/result", { callId: "never-made" });
    expect(unknown.error).toMatchObject({ code: -32003, data: { callId: "never-made", running: false } });
    expect(unknown.error!.message).toMatch(/no longer kept .*last 64 results.*16 MB/);

    const pending = core.request("tools/call", { name: "Bash", callId: "slow", arguments: { command: "sleep 30" } });
    await core.waitFor((m) => m.method === "tool/started" && m.params.callId === "slow");
    const running = await core.request("calls/result", { callId: "slow" });
    expect(running.error).toMatchObject({ code: -32003, data: { callId: "slow", running: true } });
    expect(running.error!.message).toMatch(/still running/);
    core.notify("$/cancelRequest", { callId: "slow" });
    const answered = await pending;
    await core.waitFor((m) => m.method === "tool/finished" && m.params.callId === "slow");
    expect((await core.request("calls/result", { callId: "slow" })).result).toEqual(answered.result);

    const bad = await core.request("calls/result", { callId: 5 });
    expect(bad.error).toMatchObject({ code: -32602 });
  });

  it("keeps the last 64 results: the 65th call's result pushes out the first", async () => {
    const { core } = await serve();
    for (let i = 1; i <= 65; i++) await call(core, `read-${i}`, "Read", { file_path: "notes.txt" });
    expect((await core.request("calls/result", { callId: "read-1" })).error).toMatchObject({ code: -32003 });
    for (const id of ["read-2", "read-65"]) expect((await core.request("calls/result", { callId: id })).result).toMatchObject({ isError: false });
  });

  it("a disposed session's results are dropped with it; other sessions' stay", async () => {
    const { core } = await serve();
    const created = await core.request("sessions/create", {});
    const sessionId = created.result.sessionId as string;
    await call(core, "in-sub", "Bash", { command: "echo sub" }, sessionId);
    await call(core, "in-main", "Bash", { command: "echo main" });
    expect((await core.request("calls/result", { callId: "in-sub" })).result).toMatchObject({ structuredContent: { output: "sub\n" } });
    expect((await core.request("sessions/dispose", { sessionId })).result).toEqual({ disposed: true });
    expect((await core.request("calls/result", { callId: "in-sub" })).error).toMatchObject({ code: -32003 });
    expect((await core.request("calls/result", { callId: "in-main" })).result).toMatchObject({ structuredContent: { output: "main\n" } });
  });
});

describe("the error-kind check of every core process's tool/finished", () => {
  it("reports a failed call's summary without a kind, a successful one with a kind, and a missing summary", () => {
    expect(() => assertSummaryErrorKind({ isError: true, summary: { preview: "x" } }, "t")).toThrow(/errorKind is undefined/);
    expect(() => assertSummaryErrorKind({ isError: false, summary: { errorKind: "stale" } }, "t")).toThrow(/successful result/);
    expect(() => assertSummaryErrorKind({ isError: false }, "t")).toThrow(/no summary/);
    expect(() => assertSummaryErrorKind({ isError: true, summary: { errorKind: "not_found" } }, "t")).not.toThrow();
  });
});

describe("the store in one core", () => {
  it("is bounded by bytes as well as by count, with real tool results", async () => {
    const t = testCore();
    t.core.keepFinishedResults({ maxResults: 64, maxBytes: 100_000 });
    // Each Bash result carries its ~30 KB of output twice (text and structuredContent).
    for (let i = 1; i <= 3; i++) await t.call("Bash", { command: `head -c 30000 /dev/zero | tr '\\0' '${i}'` }, { callId: `b${i}` });
    expect(t.core.finishedResult("b1")).toBeUndefined();
    expect(t.core.finishedResult("b3")?.structuredContent.output).toBe("3".repeat(30_000));
    const finished = t.events.filter((e) => e.method === "tool/finished").map((e) => e.params.summary as { resultBytes: number });
    expect(finished.every((s) => s.resultBytes > 60_000 && s.resultBytes < 100_000)).toBe(true);
  });

  it("holds no more memory than the kept results' JSON: no line cut from a large file keeps the file", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    // After the work each call leaves for later (the read state's hash, closing the replaced file).
    const held = async () => {
      await new Promise((r) => setTimeout(r, 100));
      gc();
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.external;
    };
    const t = testCore();
    t.core.keepFinishedResults();
    // Each Write result carries diff lines cut from a 2 MB line (the old file's decoded text, the
    // new content): kept as objects, each result held those 4 MB.
    const file = path.join(t.root, "one-line.txt");
    const line = (seed: number) => `${seed} `.repeat(700_000).slice(0, 2 * 1024 * 1024);
    writeFileSync(file, line(0));
    await t.call("Read", { file_path: file, limit: 1 });
    await t.call("Write", { file_path: file, content: line(1) });
    const before = await held();
    for (let i = 2; i < 22; i++) {
      const r = await t.call("Write", { file_path: file, content: line(i) }, { callId: `w${i}` });
      expect(r.isError).toBe(false);
      // The test's own record of events holds the calls' arguments: not the core's memory.
      t.events.length = 0;
    }
    const grown = (await held()) - before;
    expect(t.core.finishedResult("w21")?.structuredContent.type).toBe("update");
    expect(grown, `${(grown / 1048576).toFixed(1)} MiB held by 20 kept results`).toBeLessThan(8 * 1024 * 1024);
  });

  it("a core without a host (the MCP server's, the CLI's) keeps nothing", async () => {
    const t = testCore();
    await t.call("Bash", { command: "echo hi" }, { callId: "mcp-like" });
    expect(t.core.finishedResult("mcp-like")).toBeUndefined();
    expect(t.core.finishedResultLimits).toBeUndefined();
  });
});

describe("the MCP server and the one-shot CLI are unaffected", () => {
  it("wave-core mcp returns the whole result of a large Bash call", async () => {
    const root = makeWorkspace();
    const transport = stdioTransport({ command: process.execPath, args: [BUNDLE, "mcp", "--root", root, "--permission-mode", "allow-all"], stderr: "pipe" });
    const client = new Client({ name: "wave-test-client", version: "1.0.0" });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: "Bash", arguments: { command: MULTIBYTE_COMMAND } });
      const output = (result.structuredContent as { output: string }).output;
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      // Compared as booleans: a failure must not print 90 KB twice.
      expect(output === MULTIBYTE_OUTPUT).toBe(true);
      expect(text === MULTIBYTE_OUTPUT.trimEnd()).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("wave-core call prints the whole result of a large Bash call", () => {
    const root = makeWorkspace();
    const r = spawnSync(process.execPath, [BUNDLE, "call", "Bash", JSON.stringify({ command: MULTIBYTE_COMMAND }), "--root", root, "--json"], { encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.structuredContent.output === MULTIBYTE_OUTPUT).toBe(true);
  });
});
