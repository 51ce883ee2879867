// Every tool result stays bounded whatever the input: a file of one 2 MB line, a whole file
// rewritten, a huge pattern, path, command or task id. The size asserted is the result as it goes
// on the wire (JSON, UTF-8); none of these tests times anything.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResult } from "../core/tool.js";
import { cleanTempDirs, text, workspace } from "../../test/support/fsTestkit.js";
import { closeCores, testCore } from "../../test/support/core.js";

const MAX_REPLY_BYTES = 100 * 1024;

afterEach(async () => {
  cleanTempDirs();
  await closeCores();
});

function replyBytes(r: ToolResult): number {
  return Buffer.byteLength(JSON.stringify(r), "utf8");
}

/** About `chars` characters of words on one line; each seed gives different words. */
function oneLine(chars: number, seed: number): string {
  const words: string[] = [];
  let length = 0;
  let x = seed;
  while (length < chars) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const w = `w${x % 100000}`;
    words.push(w);
    length += w.length + 1;
  }
  return words.join(" ").slice(0, chars);
}

const TWO_MB = 2 * 1024 * 1024;

describe("bounded results: Write and Edit", () => {
  it("FS-EDIT-3 a Write of a 2 MB single-line file over another: a reply under 100 KB with a truncated diff that says so", async () => {
    const old = oneLine(TWO_MB, 1);
    const w = workspace({ "one.txt": old });
    await w.call("Read", { file_path: "one.txt", limit: 1 });
    const content = oneLine(TWO_MB, 2);
    const r = await w.call("Write", { file_path: "one.txt", content });
    expect(r.isError).toBe(false);
    expect(replyBytes(r)).toBeLessThanOrEqual(MAX_REPLY_BYTES);
    expect(w.bytes("one.txt").toString()).toBe(content);
    const diff = r.structuredContent.diff as Record<string, unknown> & { hunks: Array<{ lines: Array<Record<string, unknown>> }> };
    expect(diff).toMatchObject({ linesAdded: 1, linesRemoved: 1, truncated: true, linesCut: 2, hunksOmitted: 0, linesOmitted: 0 });
    expect(diff.hunks[0]!.lines.map((l) => l.fullLength)).toEqual([old.length, content.length]);
  });

  it("FS-EDIT-3 Writes that create or rewrite whole files, in plain text, control characters and CJK, stay under 100 KB", async () => {
    const w = workspace({});
    const cases: Record<string, string> = {
      "one-line.txt": oneLine(TWO_MB, 3),
      "lines.txt": Array.from({ length: 100_000 }, (_, i) => `line ${i} ${oneLine(12, i)}`).join("\n"),
      "control.txt": Array.from({ length: 2000 }, (_, i) => "\u0001".repeat(1000) + i).join("\n"),
      "cjk.txt": Array.from({ length: 2000 }, (_, i) => "中文".repeat(500) + i).join("\n"),
    };
    for (const [name, content] of Object.entries(cases)) {
      const created = await w.call("Write", { file_path: name, content });
      expect(created.isError, name).toBe(false);
      expect(replyBytes(created), name).toBeLessThanOrEqual(MAX_REPLY_BYTES);
      const rewritten = await w.call("Write", { file_path: name, content: content.replace(/[0-9]/g, "#") });
      expect(rewritten.isError, name).toBe(false);
      expect(replyBytes(rewritten), name).toBeLessThanOrEqual(MAX_REPLY_BYTES);
    }
  });

  it("FS-EDIT-1 an Edit inside a 2 MB line shows a window of that line around the change, under 100 KB", async () => {
    const before = oneLine(1_000_000, 4);
    const after = oneLine(1_000_000, 5);
    const w = workspace({ "e.txt": `${before} NEEDLE ${after}` });
    await w.call("Read", { file_path: "e.txt", limit: 1 });
    const r = await w.call("Edit", { file_path: "e.txt", old_string: "NEEDLE", new_string: "REPLACED" });
    expect(r.isError).toBe(false);
    expect(replyBytes(r)).toBeLessThanOrEqual(MAX_REPLY_BYTES);
    const shown = text(r).split("\n")[1]!;
    expect(shown).toMatch(/^ {5}1\t\[… \d+ characters\] .*REPLACED.* \[… \d+ more characters\]$/);
    expect(shown.length).toBeLessThan(700);
    expect(w.bytes("e.txt").toString()).toBe(`${before} REPLACED ${after}`);
  });

  it("FS-EDIT-2 replace_all across 100,000 lines, and a 2 MB new file made by Edit, stay under 100 KB", async () => {
    const w = workspace({ "r.txt": Array.from({ length: 100_000 }, (_, i) => `value ${i} = old(${i});`).join("\n") + "\n" });
    await w.call("Read", { file_path: "r.txt", limit: 1 });
    const r = await w.call("Edit", { file_path: "r.txt", old_string: "old(", new_string: "fresh(", replace_all: true });
    expect(r.isError).toBe(false);
    expect(replyBytes(r)).toBeLessThanOrEqual(MAX_REPLY_BYTES);
    expect(r.structuredContent.diff).toMatchObject({ linesAdded: 100_000, linesRemoved: 100_000, truncated: true });
    const made = await w.call("Edit", { file_path: "new.txt", old_string: "", new_string: oneLine(TWO_MB, 6) });
    expect(made.isError).toBe(false);
    expect(replyBytes(made)).toBeLessThanOrEqual(MAX_REPLY_BYTES);
  });

  it("FS-ATOMIC-3 thirty 2 MB single-line Writes beside a busy reader all land, each reply bounded", async () => {
    const t = testCore();
    const file = path.join(t.root, "busy.txt");
    const contents = [oneLine(TWO_MB, 7), oneLine(TWO_MB, 8)];
    writeFileSync(file, contents[0]!);
    expect((await t.call("Read", { file_path: file, limit: 1 })).isError).toBe(false);
    const reader = await t.core.sessions.create({});
    let reading = true;
    let reads = 0;
    const readLoop = (async () => {
      while (reading) {
        const r = await t.call("Read", { file_path: file, limit: 1 }, { sessionId: reader.id });
        expect(r.isError).toBe(false);
        expect(replyBytes(r)).toBeLessThanOrEqual(MAX_REPLY_BYTES);
        reads++;
      }
    })();
    try {
      for (let i = 1; i <= 30; i++) {
        const r = await t.call("Write", { file_path: file, content: contents[i % 2]! });
        expect(r.isError, text(r)).toBe(false);
        expect(replyBytes(r)).toBeLessThanOrEqual(MAX_REPLY_BYTES);
      }
    } finally {
      reading = false;
      await readLoop;
    }
    expect(reads).toBeGreaterThan(0);
    expect(text(await t.call("Read", { file_path: file, limit: 1 }))).toContain(contents[0]!.slice(0, 100));
  });
});

describe("bounded results: what the other tools repeat from their input", () => {
  it("FS-SEARCH-2 Glob with 10,000 long paths stops at its character cap and says so", async () => {
    const t = testCore();
    const deep = path.join(t.root, ...Array.from({ length: 20 }, (_, i) => `${"d".repeat(100)}${i}`));
    mkdirSync(deep, { recursive: true });
    for (let i = 0; i < 500; i++) writeFileSync(path.join(deep, `${"f".repeat(150)}${i}`), "");
    const r = await t.call("Glob", { pattern: "**/*", limit: 10_000 });
    expect(replyBytes(r)).toBeLessThanOrEqual(MAX_REPLY_BYTES);
    expect(r.structuredContent).toMatchObject({ totalMatches: 500, truncated: true });
    expect(text(r)).toMatch(/more are not listed \(the list is capped at 30,000 characters\)/);
  });

  it("FS-SEARCH-2 a pattern too long for the glob compiler is a clear error, quoted only in part", async () => {
    const t = testCore();
    const r = await t.call("Glob", { pattern: `x${"a".repeat(1_000_000)}` });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/cannot be used: .*Give a shorter or simpler glob pattern/);
    expect(replyBytes(r)).toBeLessThanOrEqual(10 * 1024);
  });

  it("FS-SEARCH-3 Grep quotes a long pattern only in part; one too long for ripgrep's command line says so", async () => {
    const t = testCore();
    writeFileSync(path.join(t.root, "a.txt"), "hello\n");
    const long = await t.call("Grep", { pattern: `zz${"a".repeat(100_000)}` });
    expect(text(long)).toMatch(/No matches found for "zza+\.\.\. \[\d+ more characters\]"/);
    expect(replyBytes(long)).toBeLessThanOrEqual(10 * 1024);
    const huge = await t.call("Grep", { pattern: `zz${"a".repeat(1_000_000)}` });
    expect(huge.isError).toBe(true);
    expect(text(huge)).toMatch(/too long for one command line/);
    expect(replyBytes(huge)).toBeLessThanOrEqual(10 * 1024);
  });

  it("FS-READ-1 a path longer than any file system accepts is refused at validation, without repeating it", async () => {
    const t = testCore();
    for (const [tool, args] of [
      ["Read", { file_path: "a/".repeat(500_000) }],
      ["Write", { file_path: "a/".repeat(500_000), content: "x" }],
      ["Edit", { file_path: "a/".repeat(500_000), old_string: "a", new_string: "b" }],
    ] as const) {
      const err = await t.call(tool, args).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message, tool).toMatch(/file_path: is longer than 4096 characters/);
      expect(err!.message.length, tool).toBeLessThan(1000);
    }
  });

  it("arguments with a huge unknown key are refused naming it only in part", async () => {
    const t = testCore();
    const err = await t.call("Read", { file_path: "x", ["k".repeat(1_000_000)]: 1 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/Unrecognized key/);
    expect(err!.message.length).toBeLessThan(2000);
  });

  it("BASH-BG-4 TaskStop with a huge unknown id quotes it only in part", async () => {
    const t = testCore();
    const r = await t.call("TaskStop", { task_id: "x".repeat(1_000_000) });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/No such task: "x+\.\.\. \[\d+ more characters\]"/);
    expect(replyBytes(r)).toBeLessThanOrEqual(10 * 1024);
  });

  it("RSC-3 run_shell_command repeats a long command only in part", async () => {
    const t = testCore();
    const r = await t.call("run_shell_command", { command: `true ${"a".repeat(100_000)}` });
    expect(text(r)).toMatch(/^Command: true a+\.\.\. \[\d+ more characters\]$/m);
    expect(replyBytes(r)).toBeLessThanOrEqual(20 * 1024);
  });

  it("RSC-5 a denial of a command of thousands of parts names the first few and how many more", async () => {
    const command = Array.from({ length: 5000 }, (_, i) => `rm -rf /opt/../etc/x${i}`).join("; ");
    for (const mode of ["deny-all", "ask"] as const) {
      const t = testCore({ permissions: { mode, allow: [], deny: [] } });
      const r = await t.call("Bash", { command }, { origin: "cli" });
      expect(r.isError, mode).toBe(true);
      expect(r.structuredContent.errorKind, mode).toBe("denied_by_policy");
      expect(text(r), mode).toMatch(/\(\d+ more parts need approval\.\)/);
      expect((r.structuredContent.warnings as unknown[]).length, mode).toBeLessThanOrEqual(20);
      expect(replyBytes(r), mode).toBeLessThanOrEqual(MAX_REPLY_BYTES);
    }
  });
});
