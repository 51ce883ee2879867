// Every tool, driven into each of its failure modes with real files, real processes and the real
// permission layer, answers with the exact `errorKind` (node-core/PROTOCOL.md, "Error kinds").
// Invalid arguments are a JSON-RPC error in the host protocol and an invalid_argument result in MCP
// mode (test/mcp.test.ts). The setup file (test/support/errorKindSetup.ts) separately checks that every result of every
// other test carries a kind from the union exactly when it is an error.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureLogs } from "../../test/support/logs.js";
import { z } from "zod";
import { closeCores, NO_SANDBOX, testCore, type TestCore } from "../../test/support/core.js";
import { tempDir } from "../../test/support/processes.js";
import { errorKindProblem } from "../../test/support/errorKinds.js";
import { TOOL_ERROR_KINDS, type ToolErrorKind } from "../base/toolErrors.js";
import { WaveCore } from "../core/runtime.js";
import { defineTool, type ToolDefinition, type ToolResult } from "../core/tool.js";
import { parsePolicy, type ParsedPolicy } from "../permissions/service.js";
import type { PermissionAsker } from "../permissions/types.js";
import { BWRAP_VAR } from "../shell/sandbox/detect.js";
import { writeHooks } from "./fileChange.js";

afterEach(async () => {
  writeHooks.current = undefined;
  vi.unstubAllEnvs();
  await closeCores();
});

/** A workspace with one of everything the rows need. */
function workspace(opts: { permissions?: ParsedPolicy } = {}): TestCore {
  const t = testCore({ sandbox: NO_SANDBOX, ...opts });
  const at = (p: string) => path.join(t.root, p);
  writeFileSync(at("notes.txt"), "alpha\nbeta\nbeta\n");
  mkdirSync(at("dir"));
  execFileSync("mkfifo", [at("pipe")]);
  symlinkSync("loop", at("loop"));
  writeFileSync(at("big.txt"), "x".repeat(300 * 1024));
  writeFileSync(at("blob.dat"), Buffer.from([0x7f, 0x45, 0x00, 0x01, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x00]));
  writeFileSync(at("broken.ipynb"), "{ this is not json");
  writeFileSync(at("script.sh"), "#!/bin/sh\necho hi\n");
  chmodSync(at("script.sh"), 0o644);
  return t;
}

const denyingAsker: PermissionAsker = async () => ({ decision: "deny", message: "not now" });

type Row = [tool: string, failure: string, kind: ToolErrorKind, run: (t: TestCore) => Promise<ToolResult>];

const call = (name: string, args: Record<string, unknown>) => (t: TestCore) => t.call(name, args);
/** Reads the file first, so the change reaches the check that is the row's subject. */
const afterRead = (file: string, name: string, args: Record<string, unknown>) => async (t: TestCore) => {
  await t.call("Read", { file_path: file });
  return t.call(name, args);
};

const ROWS: Row[] = [
  ["Read", "a missing file", "not_found", call("Read", { file_path: "missing.txt" })],
  ["Read", "a directory", "is_directory", call("Read", { file_path: "dir" })],
  ["Read", "a named pipe", "not_a_file", call("Read", { file_path: "pipe" })],
  ["Read", "a symbolic-link loop", "invalid_path", call("Read", { file_path: "loop" })],
  ["Read", "a file used as a directory", "invalid_path", call("Read", { file_path: "notes.txt/x" })],
  ["Read", "300 KB without a limit", "too_large", call("Read", { file_path: "big.txt" })],
  ["Read", "binary content", "binary", call("Read", { file_path: "blob.dat" })],
  ["Read", "a notebook that is not JSON", "damaged", call("Read", { file_path: "broken.ipynb" })],
  ["Read", "an offset past the end", "invalid_argument", call("Read", { file_path: "notes.txt", offset: 99 })],
  ["Edit", "a file never read", "not_read", call("Edit", { file_path: "notes.txt", old_string: "alpha", new_string: "gamma" })],
  [
    "Edit",
    "a file changed since it was read",
    "stale",
    async (t) => {
      const file = path.join(t.root, "notes.txt");
      await t.call("Read", { file_path: file });
      writeFileSync(file, "alpha\nchanged by another program\n");
      utimesSync(file, new Date(), new Date(Date.now() + 5000));
      return t.call("Edit", { file_path: file, old_string: "alpha", new_string: "gamma" });
    },
  ],
  ["Edit", "old_string not in the file", "no_match", afterRead("notes.txt", "Edit", { file_path: "notes.txt", old_string: "delta", new_string: "gamma" })],
  ["Edit", "old_string twice without replace_all", "not_unique", afterRead("notes.txt", "Edit", { file_path: "notes.txt", old_string: "beta", new_string: "gamma" })],
  ["Edit", "old_string equal to new_string", "invalid_argument", call("Edit", { file_path: "notes.txt", old_string: "alpha", new_string: "alpha" })],
  ["Edit", "a missing file", "not_found", call("Edit", { file_path: "missing.txt", old_string: "a", new_string: "b" })],
  ["Edit", "a directory", "is_directory", call("Edit", { file_path: "dir", old_string: "a", new_string: "b" })],
  ["Write", "a directory", "is_directory", call("Write", { file_path: "dir", content: "x" })],
  ["Write", "an existing file never read", "not_read", call("Write", { file_path: "notes.txt", content: "x" })],
  [
    "Write",
    "a directory on the way swapped for a link before the rename",
    "path_changed",
    async (t) => {
      const sub = path.join(t.root, "sub");
      mkdirSync(sub);
      const elsewhere = tempDir("wave-elsewhere-");
      writeHooks.current = {
        beforeRename: () => {
          renameSync(sub, `${sub}.aside`);
          symlinkSync(elsewhere, sub);
        },
      };
      return t.call("Write", { file_path: "sub/new.txt", content: "x\n" });
    },
  ],
  ["Glob", "a missing directory", "not_found", call("Glob", { pattern: "*", path: "missing" })],
  ["Glob", "a file as the directory", "not_a_directory", call("Glob", { pattern: "*", path: "notes.txt" })],
  ["Glob", "a pattern the compiler refuses", "invalid_argument", call("Glob", { pattern: `x${"a".repeat(1_000_000)}` })],
  ["Grep", "a missing path", "not_found", call("Grep", { pattern: "alpha", path: "missing" })],
  ["Grep", "a regular expression ripgrep cannot parse", "invalid_argument", call("Grep", { pattern: "(unclosed" })],
  ["TaskStop", "an id no task has", "unknown_task", call("TaskStop", { task_id: "b000000" })],
  ["Bash", "a command that exits 3", "command_failed", call("Bash", { command: "echo partial; exit 3" })],
  ["Bash", "a program that does not exist", "command_not_found", call("Bash", { command: "wave_no_such_program_xyz" })],
  ["Bash", "a script without the executable bit", "not_executable", call("Bash", { command: "./script.sh" })],
  ["Bash", "a shell killed by a signal", "command_killed", call("Bash", { command: "kill -KILL $$" })],
  ["Bash", "a command a deny rule names", "denied_by_policy", (t) => t.call("Bash", { command: "rm -rf /tmp/wave-never" })],
  ["Bash", "a command the person declines", "denied_by_user", (t) => t.core.callTool({ name: "Bash", arguments: { command: "touch declined.txt" }, origin: "host", asker: denyingAsker })],
  [
    "Bash",
    "a call cancelled while its question is open",
    "aborted",
    (t) => {
      const controller = new AbortController();
      // The question is on screen, nobody answers, and the caller gives up.
      const asker: PermissionAsker = (_prompt, { signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
          controller.abort(new Error("stopped by the test"));
        });
      return t.core.callTool({ name: "Bash", arguments: { command: "touch waited.txt" }, origin: "host", asker, signal: controller.signal });
    },
  ],
  [
    "Bash",
    "a running command cancelled",
    "aborted",
    async (t) => {
      const controller = new AbortController();
      const unsubscribe = t.core.events.subscribe((method) => method === "tool/started" && setTimeout(() => controller.abort(new Error("stopped by the test")), 300));
      try {
        return await t.call("Bash", { command: "sleep 30", description: "wait" }, { signal: controller.signal });
      } finally {
        unsubscribe();
      }
    },
  ],
  [
    "Bash",
    "no shell where WAVE_SHELL points",
    "shell_not_found",
    (t) => {
      vi.stubEnv("WAVE_SHELL", "/nonexistent/bash");
      return t.call("Bash", { command: "echo hi" });
    },
  ],
  [
    "Bash",
    "a working directory and root that are gone",
    "not_found",
    async (t) => {
      rmSync(t.root, { recursive: true, force: true });
      return t.call("Bash", { command: "echo hi" });
    },
  ],
  ["run_shell_command", "a command bash cannot parse", "syntax_error", call("run_shell_command", { command: "echo 'unterminated" })],
  ["run_shell_command", "a directory outside the root", "outside_workspace", call("run_shell_command", { command: "pwd", directory: "../" })],
  ["run_shell_command", "an absolute directory", "invalid_argument", call("run_shell_command", { command: "pwd", directory: "/etc" })],
  ["run_shell_command", "a missing directory", "not_found", call("run_shell_command", { command: "pwd", directory: "missing" })],
  ["run_shell_command", "a file as the directory", "not_a_directory", call("run_shell_command", { command: "pwd", directory: "notes.txt" })],
  ["run_shell_command", "a command past its timeout", "timeout", call("run_shell_command", { command: "sleep 30", timeout: 300 })],
  ["run_shell_command", "a command that exits 5", "command_failed", call("run_shell_command", { command: "exit 5" })],
  ["run_shell_command", "a program that does not exist", "command_not_found", call("run_shell_command", { command: "wave_no_such_program_xyz" })],
  ["run_shell_command", "a shell killed by a signal", "command_killed", call("run_shell_command", { command: "kill -KILL $$" })],
];

describe("error kinds: each failure of each tool, with real files and processes", () => {
  it.each(ROWS)("%s, %s: %s", async (tool, _failure, kind, run) => {
    // Ask mode (a question the test answers) for the rows about the person; a deny rule for the policy row.
    const permissions: ParsedPolicy | undefined =
      kind === "denied_by_user" || kind === "aborted" ? { mode: "ask", allow: [], deny: [] } : kind === "denied_by_policy" ? await parsePolicy({ mode: "allow-all", deny: ["rm:*"] }) : undefined;
    const t = workspace({ permissions });
    const r = await run(t);
    expect(r.isError, JSON.stringify(r.content).slice(0, 400)).toBe(true);
    expect(r.structuredContent.errorKind, JSON.stringify(r.content).slice(0, 400)).toBe(kind);
    // The message is there for people and models, beside the kind (Bash's failed commands say it in their output).
    expect(resultTextOf(r).length, tool).toBeGreaterThan(0);
  });

  it("the rows reach every tool", () => {
    expect(new Set(ROWS.map(([tool]) => tool))).toEqual(new Set(["Read", "Edit", "Write", "Glob", "Grep", "TaskStop", "Bash", "run_shell_command"]));
  });
});

describe("error kinds the runtime makes", () => {
  it("a tool that throws is an internal_error with the tool's message, never a crash", async () => {
    const throwing = defineTool({
      name: "Throws",
      description: "Fails the way a bug would.",
      inputSchema: z.strictObject({}),
      run: async () => {
        throw new Error("something unexpected");
      },
    });
    const logs = captureLogs();
    const core = new WaveCore({ root: tempDir("wave-ws-"), tools: [throwing as ToolDefinition] });
    try {
      const r = await core.callTool({ name: "Throws", arguments: {}, origin: "host" });
      expect(r).toMatchObject({ isError: true, structuredContent: { errorKind: "internal_error" } });
      expect(resultTextOf(r)).toMatch(/^Internal error in Throws: something unexpected\. This is a bug in wave-core/);
      // The bug is logged at error level with what threw.
      expect(logs.records).toMatchObject([{ level: "error", scope: "core", message: "tool threw", fields: { tool: "Throws", error: { message: "something unexpected" } } }]);
    } finally {
      await core.shutdown();
    }
  });

  it("sandbox mode on without a usable sandbox refuses both shell tools as sandbox_unavailable", async () => {
    vi.stubEnv(BWRAP_VAR, "/nonexistent/bwrap");
    const logs = captureLogs();
    const t = testCore({ sandbox: { mode: "on" } });
    for (const name of ["Bash", "run_shell_command"]) {
      const r = await t.call(name, { command: "touch ran.txt" });
      expect(r.structuredContent.errorKind, name).toBe("sandbox_unavailable");
    }
    expect(logs.lines()).toEqual(["INFO sandbox: no OS sandbox: shell commands run unsandboxed"]);
  });

  it("PROTOCOL.md lists exactly the kinds of the union, each with its meaning from the source", () => {
    const doc = readFileSync(path.join(__dirname, "..", "..", "PROTOCOL.md"), "utf8");
    const start = doc.indexOf("\n## Error kinds");
    expect(start).toBeGreaterThan(0);
    const section = doc.slice(start, doc.indexOf("\n## ", start + 1));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2]!.trim()]);
    expect(Object.fromEntries(rows)).toEqual(TOOL_ERROR_KINDS);
  });

  it("the check every test's results go through reports a missing, unknown or misplaced kind, and is active", async () => {
    const content = [{ type: "text", text: "x" }];
    expect(errorKindProblem({ content, structuredContent: { error: "x" }, isError: true })).toMatch(/errorKind is undefined/);
    expect(errorKindProblem({ content, structuredContent: { error: "x", errorKind: "sandbox-unavailable" }, isError: true })).toMatch(/not one of TOOL_ERROR_KINDS/);
    expect(errorKindProblem({ content, structuredContent: { errorKind: "stale" }, isError: false })).toMatch(/successful result with errorKind "stale"/);
    expect(errorKindProblem({ content, structuredContent: { errorKind: null }, isError: false })).toBeUndefined();
    expect(errorKindProblem({ content, structuredContent: { errorKind: "stale" }, isError: true })).toBeUndefined();
    // A tool that slips past the type (a cast) is caught by the wrapper the setup file installs.
    const sloppy = defineTool({
      name: "Sloppy",
      description: "Answers an error without a kind.",
      inputSchema: z.strictObject({}),
      run: async () => ({ content: [{ type: "text", text: "broke" }], structuredContent: { error: "broke" }, isError: true }) as unknown as ToolResult,
    });
    const core = new WaveCore({ root: tempDir("wave-ws-"), tools: [sloppy as ToolDefinition] });
    try {
      await expect(core.callTool({ name: "Sloppy", arguments: {}, origin: "host" })).rejects.toThrow(/Sloppy call: an isError result whose errorKind is undefined/);
    } finally {
      await core.shutdown();
    }
  });

  it("every kind has a one-line meaning", () => {
    for (const [kind, meaning] of Object.entries(TOOL_ERROR_KINDS)) {
      expect(kind).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(meaning.length, kind).toBeGreaterThan(10);
      expect(meaning, kind).not.toContain("\n");
    }
  });
});

function resultTextOf(r: ToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
