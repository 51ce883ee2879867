import { chmodSync, linkSync, lstatSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import iconv from "iconv-lite";
import { afterEach, describe, expect, it } from "vitest";
import { ALLOWED_DESPITE_WARNINGS, captureLogs } from "../../test/support/logs.js";
import { lockedFileCount } from "../fs/fileLock.js";
import { writeHooks } from "./fileChange.js";
import { cleanTempDirs, text, touchLater, workspace } from "../../test/support/fsTestkit.js";
import { editTool } from "./edit.js";

// Commands here carry permission warnings only as a side effect (allow-all): their audit line is claimed.
captureLogs(ALLOWED_DESPITE_WARNINGS);

afterEach(() => {
  writeHooks.current = undefined;
  cleanTempDirs();
});

describe("Edit: replacing", () => {
  it("FS-EDIT-1 after a Read, replaces a unique old_string and shows the edited lines", async () => {
    const w = workspace({ "a.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    await w.call("Read", { file_path: "a.ts" });
    const r = await w.call("Edit", { file_path: "a.ts", old_string: "const b = 2;", new_string: "const b = 20;" });
    expect(r.isError).toBe(false);
    expect(w.bytes("a.ts").toString()).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    expect(text(r)).toMatch(/Edited .*a\.ts: replaced 1 occurrence \(\+1 -1 lines\)/);
    expect(text(r)).toContain("     2\tconst b = 20;");
    expect(r.structuredContent).toMatchObject({ filePath: w.file("a.ts"), created: false, replacements: 1, startLine: 2, encoding: "utf-8", lineEnding: "LF", writeMethod: "atomic" });
  });

  it("FS-EDIT-1 shows numbered context around edits on the first and the last line", async () => {
    const w = workspace({ "e.txt": Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join("\n") });
    await w.call("Read", { file_path: "e.txt" });
    const first = await w.call("Edit", { file_path: "e.txt", old_string: "row 1\n", new_string: "row one\nrow one-b\n" });
    expect(text(first).split("\n").slice(1)).toEqual(["     1\trow one", "     2\trow one-b", "     3\trow 2", "     4\trow 3", "     5\trow 4"]);
    expect(first.structuredContent.startLine).toBe(1);
    const last = await w.call("Edit", { file_path: "e.txt", old_string: "row 10", new_string: "row ten" });
    expect(text(last).split("\n").slice(1)).toEqual(["     8\trow 7", "     9\trow 8", "    10\trow 9", "    11\trow ten"]);
    expect(last.structuredContent.startLine).toBe(11);
  });

  it("FS-EDIT-1 inserts $&, $1 and $$ in new_string literally, and regex characters in old_string match literally", async () => {
    const w = workspace({ "r.txt": "price: (a+b)*2 [x]\n" });
    await w.call("Read", { file_path: "r.txt" });
    const r = await w.call("Edit", { file_path: "r.txt", old_string: "(a+b)*2 [x]", new_string: "$& costs $1 or $$" });
    expect(r.isError).toBe(false);
    expect(w.bytes("r.txt").toString()).toBe("price: $& costs $1 or $$\n");
  });

  it("FS-EDIT-2 a non-unique old_string fails with the count and lines; replace_all changes them all", async () => {
    const w = workspace({ "v.js": "var x = 1;\nvar y = 2;\nvar z = 3;\n" });
    await w.call("Read", { file_path: "v.js" });
    const r = await w.call("Edit", { file_path: "v.js", old_string: "var", new_string: "let" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/old_string appears 3 times in .*v\.js \(at lines 1, 2, 3\).*replace_all/);
    expect(w.bytes("v.js").toString()).toBe("var x = 1;\nvar y = 2;\nvar z = 3;\n");
    const all = await w.call("Edit", { file_path: "v.js", old_string: "var", new_string: "let", replace_all: true });
    expect(all.isError).toBe(false);
    expect(text(all)).toMatch(/replaced all 3 occurrences/);
    expect(w.bytes("v.js").toString()).toBe("let x = 1;\nlet y = 2;\nlet z = 3;\n");
  });

  it("FS-EDIT-3 the result carries hunks and word-level change ranges for lines replaced one for one", async () => {
    const w = workspace({ "d.ts": "function greet(name) {\n  return 'hello ' + name;\n}\n" });
    await w.call("Read", { file_path: "d.ts" });
    const r = await w.call("Edit", { file_path: "d.ts", old_string: "return 'hello ' + name;", new_string: "return `hello ${name}!`;" });
    const diff = r.structuredContent.diff as { hunks: Array<{ oldStart: number; newStart: number; lines: Array<{ type: string; text: string; changes?: Array<{ start: number; end: number }> }> }> };
    expect(diff.hunks).toHaveLength(1);
    expect(diff.hunks[0]!.lines.map((l) => l.type)).toEqual(["context", "removed", "added", "context"]);
    const added = diff.hunks[0]!.lines[2]!;
    expect(added.changes!.length).toBeGreaterThan(0);
    // Only the punctuation changed: "return", "hello" and "name" are outside every range.
    for (const line of [diff.hunks[0]!.lines[1]!, added]) {
      expect(line.changes!.length).toBeGreaterThan(0);
      for (const c of line.changes!) {
        expect(c.start).toBeGreaterThanOrEqual("  return ".length);
        expect(line.text.slice(c.start, c.end)).not.toMatch(/hello|name/);
      }
    }
    expect(added.changes!.map((c) => added.text.slice(c.start, c.end)).join("")).toContain("`");
  });

  it("FS-EDIT-6 old_string not found: the error includes the attempted string cut to 200 characters", async () => {
    const w = workspace({ "n.txt": "something else\n" });
    await w.call("Read", { file_path: "n.txt" });
    const attempt = "missing " + "z".repeat(400);
    const r = await w.call("Edit", { file_path: "n.txt", old_string: attempt, new_string: "x" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain(`String to replace not found in ${w.file("n.txt")}.\nString: ${attempt.slice(0, 200)}... [${attempt.length - 200} more characters]`);
    expect(text(r)).not.toContain(attempt.slice(0, 201));
    expect(text(r)).toMatch(/whitespace|Read the file again/);
  });

  it("FS-EDIT-6 hints when only indentation differs (tabs vs spaces)", async () => {
    const w = workspace({ "t.py": "def f():\n\tif x:\n\t\treturn 1\n" });
    await w.call("Read", { file_path: "t.py" });
    const r = await w.call("Edit", { file_path: "t.py", old_string: "    if x:\n        return 1", new_string: "    if y:\n        return 2" });
    expect(text(r)).toMatch(/A block at line 2 matches if whitespace .* is ignored/);
  });

  it("FS-EDIT-1 rejects identical strings, and an empty old_string on an existing file", async () => {
    const w = workspace({ "s.txt": "same\n" });
    await w.call("Read", { file_path: "s.txt" });
    expect(text(await w.call("Edit", { file_path: "s.txt", old_string: "same", new_string: "same" }))).toMatch(/identical/);
    const empty = await w.call("Edit", { file_path: "s.txt", old_string: "", new_string: "x" });
    expect(empty.isError).toBe(true);
    expect(text(empty)).toMatch(/old_string is empty but .* already exists.*Write/);
  });

  it("FS-EDIT-1 an empty old_string on a missing file creates it (with parent directories), no Read needed", async () => {
    const w = workspace({});
    const r = await w.call("Edit", { file_path: "new/dir/f.txt", old_string: "", new_string: "fresh\n" });
    expect(r.isError).toBe(false);
    expect(w.bytes("new/dir/f.txt").toString()).toBe("fresh\n");
    expect(r.structuredContent).toMatchObject({ created: true });
    expect(text(r)).toMatch(/^Created .*f\.txt \(1 line\) with new_string as its content\.$/);
    // The creation counts as knowing the file: the next edit needs no Read.
    expect((await w.call("Edit", { file_path: "new/dir/f.txt", old_string: "fresh", new_string: "fresher" })).isError).toBe(false);
  });

  it("FS-EDIT-10 the description teaches reading first and the smallest clearly unique old_string", () => {
    expect(editTool.description).toMatch(/Read the file in this conversation first/);
    expect(editTool.description).toMatch(/smallest old_string that is clearly unique.*2-4 adjacent lines/);
    expect(editTool.description).toMatch(/Grep and Glob results do not count/);
  });
});

describe("Edit: read-before-edit and stale detection", () => {
  it("FS-EDIT-5 editing a file not read in this conversation fails; Grep and Glob do not count as reads", async () => {
    const w = workspace({ "u.txt": "needle here\n" });
    const r = await w.call("Edit", { file_path: "u.txt", old_string: "needle", new_string: "pin" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/You must Read .*u\.txt in this conversation before editing it/);
    await w.call("Grep", { pattern: "needle", output_mode: "content" });
    await w.call("Glob", { pattern: "*.txt" });
    expect((await w.call("Edit", { file_path: "u.txt", old_string: "needle", new_string: "pin" })).isError).toBe(true);
    expect(w.bytes("u.txt").toString()).toBe("needle here\n");
  });

  it("FS-EDIT-5 a read in another session (a sub-agent) does not count", async () => {
    const w = workspace({ "u.txt": "text\n" });
    const child = w.core.sessions.create({});
    await w.core.callTool({ name: "Read", arguments: { file_path: "u.txt" }, origin: "cli", sessionId: child.id });
    expect((await w.call("Edit", { file_path: "u.txt", old_string: "text", new_string: "t" })).isError).toBe(true);
  });

  it("FS-EDIT-7 mtime changed but content identical after a full read: the edit succeeds", async () => {
    const w = workspace({ "m.txt": "keep\n" });
    await w.call("Read", { file_path: "m.txt" });
    touchLater(w.file("m.txt"));
    const r = await w.call("Edit", { file_path: "m.txt", old_string: "keep", new_string: "kept" });
    expect(r.isError).toBe(false);
    expect(text(r)).toMatch(/modification time had changed .* content had not/);
    expect(w.bytes("m.txt").toString()).toBe("kept\n");
  });

  it("FS-EDIT-8 content really changed since the read: the edit fails, asks to read again, and changes nothing", async () => {
    const w = workspace({ "c.txt": "v1 line\n" });
    await w.call("Read", { file_path: "c.txt" });
    writeFileSync(w.file("c.txt"), "v2 line (someone else)\n");
    touchLater(w.file("c.txt"));
    const r = await w.call("Edit", { file_path: "c.txt", old_string: "line", new_string: "LINE" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/has been modified since you last read it.*Read it again/);
    expect(w.bytes("c.txt").toString()).toBe("v2 line (someone else)\n");
    await w.call("Read", { file_path: "c.txt" });
    expect((await w.call("Edit", { file_path: "c.txt", old_string: "line", new_string: "LINE" })).isError).toBe(false);
  });

  it("FS-EDIT-9 after a partial read (offset or limit) a newer mtime always fails, even with identical content", async () => {
    const w = workspace({ "p.txt": "a\nb\nc\n" });
    await w.call("Read", { file_path: "p.txt", offset: 2, limit: 1 });
    touchLater(w.file("p.txt"));
    const r = await w.call("Edit", { file_path: "p.txt", old_string: "b", new_string: "B" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/newer modification time than when you read part of it.*Read it again/);
  });

  it("FS-EDIT-1 consecutive edits need no Read in between (the read state follows the agent's own writes)", async () => {
    const w = workspace({ "s.txt": "one two three\n" });
    await w.call("Read", { file_path: "s.txt", offset: 1, limit: 1 });
    for (const [o, n] of [
      ["one", "1"],
      ["two", "2"],
      ["three", "3"],
    ]) {
      const r = await w.call("Edit", { file_path: "s.txt", old_string: o!, new_string: n! });
      expect(r.isError).toBe(false);
    }
    expect(w.bytes("s.txt").toString()).toBe("1 2 3\n");
  });
});

describe("Edit: lossless and atomic", () => {
  it("FS-EDIT-4 a CRLF file matches an LF old_string and stays CRLF", async () => {
    const w = workspace({ "w.txt": "first\r\nsecond\r\nthird\r\n" });
    await w.call("Read", { file_path: "w.txt" });
    const r = await w.call("Edit", { file_path: "w.txt", old_string: "first\nsecond", new_string: "1st\n2nd\n2.5" });
    expect(r.isError).toBe(false);
    expect(w.bytes("w.txt").toString()).toBe("1st\r\n2nd\r\n2.5\r\nthird\r\n");
    expect(r.structuredContent.lineEnding).toBe("CRLF");
  });

  it("FS-EDIT-4 a mixed-ending file keeps every untouched line byte-identical; a missing final newline stays missing", async () => {
    const original = "win1\r\nwin2\r\nunix1\nunix2\nlast";
    const w = workspace({ "m.txt": original });
    await w.call("Read", { file_path: "m.txt" });
    await w.call("Edit", { file_path: "m.txt", old_string: "unix2", new_string: "UNIX2" });
    expect(w.bytes("m.txt").toString()).toBe("win1\r\nwin2\r\nunix1\nUNIX2\nlast");
    await w.call("Edit", { file_path: "m.txt", old_string: "last", new_string: "LAST" });
    expect(w.bytes("m.txt").toString()).toBe("win1\r\nwin2\r\nunix1\nUNIX2\nLAST");
  });

  it("FS-EDIT-4 preserves a UTF-8 BOM, UTF-16LE/BE with BOM, and GBK byte for byte outside the change", async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode("hello 世界\r\nbye\r\n", "utf-16le")]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode("hello 世界\nbye\n", "utf-16be")]);
    const gbkText = "配置文件：这里的中文内容使用国标编码保存，用于检查编辑是否保持原有编码。\nname = 旧值\n";
    const w = workspace({
      "bom.txt": Buffer.from("\ufeffhello\n", "utf8"),
      "le.txt": le,
      "be.txt": be,
      "gbk.ini": iconv.encode(gbkText, "gbk"),
    });
    for (const f of ["bom.txt", "le.txt", "be.txt", "gbk.ini"]) await w.call("Read", { file_path: f });
    await w.call("Edit", { file_path: "bom.txt", old_string: "hello", new_string: "hi" });
    expect(w.bytes("bom.txt").equals(Buffer.from("\ufeffhi\n", "utf8"))).toBe(true);
    await w.call("Edit", { file_path: "le.txt", old_string: "bye", new_string: "再见" });
    expect(w.bytes("le.txt").equals(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode("hello 世界\r\n再见\r\n", "utf-16le")]))).toBe(true);
    await w.call("Edit", { file_path: "be.txt", old_string: "bye", new_string: "再见" });
    expect(w.bytes("be.txt").equals(Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode("hello 世界\n再见\n", "utf-16be")]))).toBe(true);
    const r = await w.call("Edit", { file_path: "gbk.ini", old_string: "旧值", new_string: "新值" });
    expect(r.structuredContent.encoding).toMatch(/gb/);
    expect(w.bytes("gbk.ini").equals(iconv.encode(gbkText.replace("旧值", "新值"), "gbk"))).toBe(true);
  });

  it("FS-EDIT-4 refuses new_string characters the file's encoding cannot hold, instead of writing '?'", async () => {
    const latin = Buffer.from("caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade\n", "latin1");
    const w = workspace({ "l.txt": latin });
    await w.call("Read", { file_path: "l.txt" });
    const r = await w.call("Edit", { file_path: "l.txt", old_string: "cr", new_string: "😀" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/cannot represent some characters of new_string/);
    expect(w.bytes("l.txt").equals(latin)).toBe(true);
  });

  it("FS-ATOMIC-1 keeps a 0755 mode, writes through a symlink (which survives) and keeps hard links together", async () => {
    const w = workspace({ "run.sh": "#!/bin/sh\necho old\n", "real.txt": "via link\n", "h1.txt": "hard\n" });
    chmodSync(w.file("run.sh"), 0o755);
    symlinkSync("real.txt", w.file("link.txt"));
    linkSync(w.file("h1.txt"), w.file("h2.txt"));
    for (const f of ["run.sh", "link.txt", "h1.txt"]) await w.call("Read", { file_path: f });
    await w.call("Edit", { file_path: "run.sh", old_string: "old", new_string: "new" });
    expect(statSync(w.file("run.sh")).mode & 0o777).toBe(0o755);
    await w.call("Edit", { file_path: "link.txt", old_string: "via", new_string: "through" });
    expect(lstatSync(w.file("link.txt")).isSymbolicLink()).toBe(true);
    expect(w.bytes("real.txt").toString()).toBe("through link\n");
    const hard = await w.call("Edit", { file_path: "h1.txt", old_string: "hard", new_string: "still linked" });
    expect(hard.structuredContent.writeMethod).toBe("in-place");
    expect(w.bytes("h2.txt").toString()).toBe("still linked\n");
    expect(statSync(w.file("h1.txt")).ino).toBe(statSync(w.file("h2.txt")).ino);
  });

  it("FS-ATOMIC-2 a failure before the rename leaves the file and the read state as they were", async () => {
    const w = workspace({ "f.txt": "stable\n" });
    await w.call("Read", { file_path: "f.txt" });
    writeHooks.current = { beforeRename: () => Promise.reject(Object.assign(new Error("injected I/O error"), { code: "EIO" })) };
    const r = await w.call("Edit", { file_path: "f.txt", old_string: "stable", new_string: "changed" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/Failed writing .*f\.txt: injected I\/O error\. Nothing was changed/);
    expect(w.bytes("f.txt").toString()).toBe("stable\n");
    expect(readdirSync(w.root)).toEqual(["f.txt"]);
    writeHooks.current = undefined;
    expect((await w.call("Edit", { file_path: "f.txt", old_string: "stable", new_string: "changed" })).isError).toBe(false);
  });

  it("FS-ATOMIC-3 read-before-write and staleness keep their meaning with atomic replacement", async () => {
    const w = workspace({ "f.txt": "one\n" });
    await w.call("Read", { file_path: "f.txt" });
    await w.call("Edit", { file_path: "f.txt", old_string: "one", new_string: "two" });
    writeFileSync(w.file("f.txt"), "external\n");
    touchLater(w.file("f.txt"));
    expect(text(await w.call("Edit", { file_path: "f.txt", old_string: "external", new_string: "x" }))).toMatch(/modified since you last read/);
  });
});

describe("Edit: concurrency", () => {
  it("FS-EDIT-1 concurrent edits of different lines in one session both apply (serialised, no lost update)", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const w = workspace({ "c.txt": lines.join("\n") + "\n" });
    await w.call("Read", { file_path: "c.txt" });
    const results = await Promise.all(lines.map((l) => w.call("Edit", { file_path: "c.txt", old_string: `${l}\n`, new_string: `${l} edited\n` })));
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(w.bytes("c.txt").toString()).toBe(lines.map((l) => `${l} edited`).join("\n") + "\n");
    expect(lockedFileCount()).toBe(0);
  });

  it("FS-EDIT-8 concurrent edits from two sessions: the second fails as stale rather than losing the first", async () => {
    const w = workspace({ "c.txt": "alpha\nbeta\n" });
    const other = w.core.sessions.create({});
    await w.call("Read", { file_path: "c.txt" });
    await w.core.callTool({ name: "Read", arguments: { file_path: "c.txt" }, origin: "cli", sessionId: other.id });
    touchLater(w.file("c.txt"), -20); // so the first edit's write is certainly a newer mtime
    await w.call("Read", { file_path: "c.txt", offset: 1, limit: 2 });
    await w.core.callTool({ name: "Read", arguments: { file_path: "c.txt", offset: 1, limit: 2 }, origin: "cli", sessionId: other.id });
    const [a, b] = await Promise.all([
      w.call("Edit", { file_path: "c.txt", old_string: "alpha", new_string: "ALPHA" }),
      w.core.callTool({ name: "Edit", arguments: { file_path: "c.txt", old_string: "beta", new_string: "BETA" }, origin: "cli", sessionId: other.id }),
    ]);
    expect(a.isError).toBe(false);
    expect(b.isError).toBe(true);
    expect(text(b)).toMatch(/Read it again/);
    expect(w.bytes("c.txt").toString()).toBe("ALPHA\nbeta\n");
  });
});
