// NUL characters cannot reach the operating system (paths, argv, commands): every tool field that
// becomes one is refused up front with a validation error that says what to do, never Node's
// internal "must be a string without null bytes" wording, and nothing runs or changes.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeCores, ourProcesses, testCore } from "../../test/support/core.js";
import { InvalidToolArguments } from "../core/registry.js";

afterEach(closeCores);

const cases: Array<[string, Record<string, unknown>, string]> = [
  ["Bash", { command: "touch made\0.txt" }, "command"],
  ["run_shell_command", { command: "touch made\0.txt" }, "command"],
  ["run_shell_command", { command: "true", directory: "sub\0dir" }, "directory"],
  ["Read", { file_path: "notes\0.txt" }, "file_path"],
  ["Write", { file_path: "made\0.txt", content: "x" }, "file_path"],
  ["Edit", { file_path: "made\0.txt", old_string: "", new_string: "x" }, "file_path"],
  ["Glob", { pattern: "*\0.ts" }, "pattern"],
  ["Glob", { pattern: "*.ts", path: "src\0" }, "path"],
  ["Grep", { pattern: "a\0b" }, "pattern"],
  ["Grep", { pattern: "a", path: "src\0" }, "path"],
  ["Grep", { pattern: "a", glob: "*.ts\0" }, "glob"],
  ["Grep", { pattern: "a", type: "js\0" }, "type"],
];

describe("NUL characters in paths, patterns and commands", () => {
  it.each(cases)("%s refuses a NUL in %j with a validation error", async (tool, args, field) => {
    const t = testCore();
    const err = await t.call(tool, args).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidToolArguments);
    const issues = (err as InvalidToolArguments).issues;
    expect(issues).toEqual([expect.objectContaining({ path: [field], message: expect.stringMatching(/^contains a NUL character \(\\0\), which .* Remove it/) })]);
    expect((err as Error).message).not.toMatch(/null bytes/);
    expect(readdirSync(t.root).filter((n) => n.startsWith("made"))).toEqual([]);
    expect(ourProcesses()).toEqual([]);
  });

  it("content and replacement text may hold NUL characters: they are file bytes, not paths", async () => {
    const t = testCore();
    const w = await t.call("Write", { file_path: "bytes.bin", content: "a\0b" });
    expect(w.isError).toBe(false);
    expect(existsSync(path.join(t.root, "bytes.bin"))).toBe(true);
  });
});
