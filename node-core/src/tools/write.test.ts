import { chmodSync, existsSync, lstatSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { afterEach, describe, expect, it } from "vitest";
import { writeHooks } from "./fileChange.js";
import { cleanTempDirs, text, touchLater, workspace } from "../../test/support/fsTestkit.js";

afterEach(() => {
  writeHooks.current = undefined;
  cleanTempDirs();
});

describe("Write", () => {
  it("FS-WRITE-1 creates a new file (and its parent directories) without a Read", async () => {
    const w = workspace({});
    const r = await w.call("Write", { file_path: "deep/er/new.txt", content: "line 1\nline 2\n" });
    expect(r.isError).toBe(false);
    expect(text(r)).toMatch(/^Created .*new\.txt \(2 lines, 14 characters\)\./);
    expect(w.bytes("deep/er/new.txt").toString()).toBe("line 1\nline 2\n");
    expect(r.structuredContent).toMatchObject({ type: "create", lines: 2, characters: 14, bytes: 14, encoding: "utf-8", lineEnding: "LF", writeMethod: "atomic" });
    expect((r.structuredContent.diff as { linesAdded: number }).linesAdded).toBe(2);
  });

  it("FS-WRITE-1 a workspace whose root was deleted is not recreated by Write or by Edit's create", async () => {
    const w = workspace({});
    rmSync(w.root, { recursive: true, force: true });
    for (const [tool, args] of [
      ["Write", { file_path: "src/new.txt", content: "x\n" }],
      ["Edit", { file_path: "src/new.txt", old_string: "", new_string: "x\n" }],
    ] as const) {
      const r = await w.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.structuredContent.errorKind, tool).toBe("not_found");
      expect(text(r)).toBe(
        `${path.join(w.root, "src/new.txt")} was not created: the workspace folder ${w.root} no longer exists (it was deleted or moved), and ${tool} does not make it again. If the project moved, open it where it is now; to recreate the folder on purpose, make it first (e.g. Bash \`mkdir -p ${w.root}\`), then retry.`,
      );
      expect(existsSync(w.root), tool).toBe(false);
    }
  });

  it("FS-WRITE-1 overwriting an existing file that was not read fails; Grep does not count as a read", async () => {
    const w = workspace({ "old.txt": "precious\n" });
    await w.call("Grep", { pattern: "precious" });
    const r = await w.call("Write", { file_path: "old.txt", content: "overwritten\n" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/You must Read .*old\.txt in this conversation before writing it.*Grep and Glob results do not count/);
    expect(w.bytes("old.txt").toString()).toBe("precious\n");
    await w.call("Read", { file_path: "old.txt" });
    const ok = await w.call("Write", { file_path: "old.txt", content: "overwritten\n" });
    expect(ok.isError).toBe(false);
    expect(text(ok)).toMatch(/^Overwrote /);
    expect(ok.structuredContent).toMatchObject({ type: "update" });
    expect(w.bytes("old.txt").toString()).toBe("overwritten\n");
  });

  it("FS-WRITE-2 stale detection: same content after a touch passes (full read), changed content fails", async () => {
    const w = workspace({ "a.txt": "A\n", "b.txt": "B\n" });
    await w.call("Read", { file_path: "a.txt" });
    await w.call("Read", { file_path: "b.txt" });
    touchLater(w.file("a.txt"));
    expect((await w.call("Write", { file_path: "a.txt", content: "A2\n" })).isError).toBe(false);
    writeFileSync(w.file("b.txt"), "B changed elsewhere\n");
    touchLater(w.file("b.txt"));
    const r = await w.call("Write", { file_path: "b.txt", content: "B2\n" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/modified since you last read it.*before writing it/);
    expect(w.bytes("b.txt").toString()).toBe("B changed elsewhere\n");
  });

  it("FS-WRITE-2 after a partial read a newer mtime fails even with identical content; new files skip the check", async () => {
    const w = workspace({ "p.txt": "1\n2\n3\n" });
    await w.call("Read", { file_path: "p.txt", limit: 1 });
    touchLater(w.file("p.txt"));
    expect((await w.call("Write", { file_path: "p.txt", content: "x\n" })).isError).toBe(true);
    expect((await w.call("Write", { file_path: "brand-new.txt", content: "x\n" })).isError).toBe(false);
  });

  it("FS-WRITE-1 writing identical content changes nothing and says so", async () => {
    const w = workspace({ "same.txt": "same\n" });
    await w.call("Read", { file_path: "same.txt" });
    const before = statSync(w.file("same.txt"));
    const r = await w.call("Write", { file_path: "same.txt", content: "same\n" });
    expect(text(r)).toMatch(/already has exactly this content; nothing was written/);
    expect(statSync(w.file("same.txt")).ino).toBe(before.ino);
  });

  it("FS-EDIT-4 an overwritten file keeps its CRLF endings, BOM, UTF-16 encoding and 0755 mode", async () => {
    const w = workspace({
      "crlf.txt": "a\r\nb\r\n",
      "bom.txt": Buffer.from("\ufeffx\n", "utf8"),
      "le.txt": Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode("old\n", "utf-16le")]),
      "run.sh": "#!/bin/sh\n",
    });
    chmodSync(w.file("run.sh"), 0o755);
    for (const f of ["crlf.txt", "bom.txt", "le.txt", "run.sh"]) await w.call("Read", { file_path: f });
    const crlf = await w.call("Write", { file_path: "crlf.txt", content: "c\nd\n" });
    expect(w.bytes("crlf.txt").toString()).toBe("c\r\nd\r\n");
    expect(text(crlf)).toMatch(/written as CRLF/);
    await w.call("Write", { file_path: "bom.txt", content: "y\n" });
    expect(w.bytes("bom.txt").equals(Buffer.from("\ufeffy\n", "utf8"))).toBe(true);
    await w.call("Write", { file_path: "le.txt", content: "新\n" });
    expect(w.bytes("le.txt").equals(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode("新\n", "utf-16le")]))).toBe(true);
    await w.call("Write", { file_path: "run.sh", content: "#!/bin/sh\necho hi\n" });
    expect(statSync(w.file("run.sh")).mode & 0o777).toBe(0o755);
  });

  it("FS-ATOMIC-1 writes through a symlink to its target (the link survives); a dangling link gets its target created", async () => {
    const w = workspace({ "target.txt": "t\n" });
    symlinkSync("target.txt", w.file("link.txt"));
    symlinkSync("later.txt", w.file("dangling.txt"));
    await w.call("Read", { file_path: "link.txt" });
    expect((await w.call("Write", { file_path: "link.txt", content: "via link\n" })).isError).toBe(false);
    expect(lstatSync(w.file("link.txt")).isSymbolicLink()).toBe(true);
    expect(w.bytes("target.txt").toString()).toBe("via link\n");
    expect((await w.call("Write", { file_path: "dangling.txt", content: "made\n" })).isError).toBe(false);
    expect(w.bytes("later.txt").toString()).toBe("made\n");
    expect(lstatSync(w.file("dangling.txt")).isSymbolicLink()).toBe(true);
  });

  it("FS-ATOMIC-2 an injected failure before the rename leaves the old file and no temp file", async () => {
    const w = workspace({ "f.txt": "old\n" });
    await w.call("Read", { file_path: "f.txt" });
    writeHooks.current = { beforeRename: () => Promise.reject(Object.assign(new Error("no space"), { code: "ENOSPC" })) };
    const r = await w.call("Write", { file_path: "f.txt", content: "new\n" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/No space left .*nothing was changed/);
    expect(w.bytes("f.txt").toString()).toBe("old\n");
    expect(readdirSync(w.root)).toEqual(["f.txt"]);
  });

  it("FS-WRITE-1 refuses to write over a directory", async () => {
    const w = workspace({ "d/x": "" });
    const r = await w.call("Write", { file_path: "d", content: "x" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/is a directory/);
  });
});
