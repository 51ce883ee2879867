import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { afterEach, describe, expect, it } from "vitest";
import { cleanTempDirs, text, touchLater, workspace } from "../../test/support/fsTestkit.js";
import { GIF_1x1, JPEG_16x8, WEBP_1x1, png } from "../../test/support/testImages.js";
import { estimateTokens, READ_MAX_IMAGE_BYTES } from "./read.js";

afterEach(cleanTempDirs);

describe("Read: text", () => {
  it("FS-READ-1 returns cat -n style lines and structured metadata", async () => {
    const { root, call } = workspace({ "a.txt": "alpha\nbeta\ngamma\n" });
    const r = await call("Read", { file_path: "a.txt" });
    expect(r.isError).toBe(false);
    expect(text(r)).toBe("     1\talpha\n     2\tbeta\n     3\tgamma");
    expect(r.structuredContent).toEqual({
      type: "text",
      filePath: path.join(root, "a.txt"),
      startLine: 1,
      numLines: 3,
      totalLines: 3,
      truncated: false,
      cutLines: [],
      encoding: "utf-8",
    });
  });

  it("FS-READ-1 resolves relative paths against the session's cwd, not the workspace root", async () => {
    const { root, core } = workspace({ "sub/inner.txt": "inside\n" });
    const session = core.sessions.create({ cwd: path.join(root, "sub") });
    const r = await core.callTool({ name: "Read", arguments: { file_path: "inner.txt" }, origin: "cli", sessionId: session.id });
    expect(text(r)).toContain("inside");
  });

  it("FS-READ-1 cuts lines longer than 2000 characters with a marker and names them", async () => {
    const { call } = workspace({ "long.txt": `short\n${"x".repeat(5000)}\nend\n` });
    const r = await call("Read", { file_path: "long.txt" });
    const lines = text(r).split("\n");
    expect(lines[1]).toBe(`     2\t${"x".repeat(2000)} … [line cut]`);
    expect(r.structuredContent.cutLines).toEqual([2]);
    expect(text(r)).toMatch(/Line 2 was longer than 2000 characters and cut/);
  });

  it("FS-READ-1 decodes UTF-8 with BOM, UTF-16LE/BE with BOM and GBK, and shows CRLF files without CR", async () => {
    const { call } = workspace({
      "bom.txt": Buffer.from("\ufeffbom line\n", "utf8"),
      "le.txt": Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode("小端\r\nsecond\r\n", "utf-16le")]),
      "be.txt": Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode("大端\nsecond\n", "utf-16be")]),
      "gbk.txt": iconv.encode("这是一个用中文写的文件，编码是国标码，用于测试读取功能是否正确。\n第二行内容也是中文。\n", "gbk"),
      "crlf.txt": "one\r\ntwo\r\n",
    });
    const bom = await call("Read", { file_path: "bom.txt" });
    expect(text(bom)).toBe("     1\tbom line");
    expect(bom.structuredContent.encoding).toBe("utf-8 with BOM");
    const le = await call("Read", { file_path: "le.txt" });
    expect(text(le)).toBe("     1\t小端\n     2\tsecond");
    expect(le.structuredContent.encoding).toBe("utf-16le with BOM");
    expect(text(await call("Read", { file_path: "be.txt" }))).toBe("     1\t大端\n     2\tsecond");
    const gbk = await call("Read", { file_path: "gbk.txt" });
    expect(text(gbk)).toContain("第二行内容也是中文。");
    expect(text(await call("Read", { file_path: "crlf.txt" }))).toBe("     1\tone\n     2\ttwo");
  });

  it("FS-READ-1 says explicitly that an empty file is empty (a notice, not content)", async () => {
    const { call } = workspace({ "empty.txt": "" });
    const r = await call("Read", { file_path: "empty.txt" });
    expect(r.isError).toBe(false);
    expect(text(r)).toMatch(/^\[Notice, not file content\] .*empty\.txt exists but is empty/);
    expect(r.structuredContent).toMatchObject({ type: "empty", totalLines: 0, numLines: 0 });
  });
});

describe("Read: windows and limits", () => {
  const fifty = Array.from({ length: 50 }, (_, i) => `Line ${i + 1}`).join("\n") + "\n";

  it("FS-READ-2 offset and limit return only that chunk, with metadata and a pointer onwards", async () => {
    const { call } = workspace({ "f.txt": fifty });
    const r = await call("Read", { file_path: "f.txt", offset: 10, limit: 5 });
    expect(text(r).split("\n").slice(0, 5)).toEqual(["    10\tLine 10", "    11\tLine 11", "    12\tLine 12", "    13\tLine 13", "    14\tLine 14"]);
    expect(text(r)).toContain("[Showing lines 10-14 of 50. Use offset=15 to continue.]");
    expect(r.structuredContent).toMatchObject({ startLine: 10, numLines: 5, totalLines: 50, truncated: true });
    const tail = await call("Read", { file_path: "f.txt", offset: 48, limit: 10 });
    expect(tail.structuredContent).toMatchObject({ startLine: 48, numLines: 3, truncated: false });
  });

  it("FS-READ-2 offset 0 is the start of the file, as in Claude Code's Read (not an invalid argument)", async () => {
    const { call } = workspace({ "f.txt": fifty });
    const zero = await call("Read", { file_path: "f.txt", offset: 0, limit: 2 });
    expect(zero.isError).toBe(false);
    expect(text(zero).split("\n").slice(0, 2)).toEqual(["     1\tLine 1", "     2\tLine 2"]);
    expect(zero.structuredContent).toMatchObject({ startLine: 1, numLines: 2 });
    const whole = await call("Read", { file_path: "f.txt", offset: 0 });
    expect(whole.structuredContent).toMatchObject({ startLine: 1, numLines: 50, truncated: false });
  });

  it("FS-READ-2 an offset past the end is an error naming the file's line count", async () => {
    const { call } = workspace({ "f.txt": "a\nb\nc\n" });
    const r = await call("Read", { file_path: "f.txt", offset: 100 });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/offset 100 is past the end of .*f\.txt, which has 3 lines/);
  });

  it("FS-READ-2 returns the default 2000-line window of a long file and says how to read on", async () => {
    const { call } = workspace({ "f.txt": Array.from({ length: 3000 }, (_, i) => `${i + 1}`).join("\n") });
    const r = await call("Read", { file_path: "f.txt" });
    expect(r.structuredContent).toMatchObject({ numLines: 2000, totalLines: 3000, truncated: true });
    expect(text(r)).toContain("Use offset=2001");
  });

  it("FS-READ-5 refuses a file over 256 KB without limit (offset alone does not help) and pages it with limit", async () => {
    const big = Array.from({ length: 40000 }, (_, i) => `row ${i + 1} ${"-".repeat(10)}`).join("\n") + "\n";
    const { call } = workspace({ "big.log": big });
    const refused = await call("Read", { file_path: "big.log" });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/over the 256\.0 KB a Read returns without a limit.*offset and limit/);
    expect((await call("Read", { file_path: "big.log", offset: 5 })).isError).toBe(true);
    const page = await call("Read", { file_path: "big.log", offset: 39999, limit: 5 });
    expect(text(page)).toContain(" 39999\trow 39999");
    expect(page.structuredContent).toMatchObject({ totalLines: 40000, numLines: 2 });
  });

  it("FS-READ-5 refuses a window worth more than 25,000 tokens and suggests offset/limit or grep/jq", async () => {
    const { call } = workspace({
      "dense.txt": Array.from({ length: 1500 }, () => "y".repeat(80)).join("\n"),
      "data.json": `[${Array.from({ length: 1200 }, () => '"abcdefghijklmnopqrstuvwxyz0123456789abcd"').join(",\n")}]`,
    });
    const r = await call("Read", { file_path: "dense.txt" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/about [\d,]+ tokens, more than the 25,000.*offset and limit.*Grep.*jq/);
    const j = await call("Read", { file_path: "data.json" });
    expect(j.isError).toBe(true);
    expect(text(j)).toMatch(/jq/);
    expect((await call("Read", { file_path: "dense.txt", limit: 100 })).isError).toBe(false);
  });

  it("FS-READ-5 counts CJK characters as a token each", () => {
    expect(estimateTokens("你好世界")).toBe(4);
    expect(estimateTokens("abcdefgh")).toBe(2);
    expect(estimateTokens("abcdefgh", true)).toBe(4);
  });
});

describe("Read: unchanged answer", () => {
  it("FS-READ-4 a second read of the same range of an unchanged file gets a notice, not the content", async () => {
    const { root, call } = workspace({ "f.txt": "a\nb\nc\n" });
    expect(text(await call("Read", { file_path: "f.txt" }))).toContain("\ta");
    const again = await call("Read", { file_path: "f.txt" });
    expect(again.isError).toBe(false);
    expect(text(again)).toMatch(/^\[Notice, not file content\] .* has not changed since your last Read/);
    expect(again.structuredContent).toEqual({ type: "unchanged", filePath: path.join(root, "f.txt"), offset: null, limit: null });
    // A different range is read for real; so is the first range after that.
    expect(text(await call("Read", { file_path: "f.txt", offset: 2, limit: 1 }))).toBe("     2\tb\n\n[Showing lines 2-2 of 3. Use offset=3 to continue.]");
    expect(text(await call("Read", { file_path: "f.txt", offset: 2, limit: 1 }))).toMatch(/^\[Notice/);
    expect(text(await call("Read", { file_path: "f.txt" }))).toContain("\ta");
  });

  it("FS-READ-4 a changed mtime or size means a real read", async () => {
    const { root, call } = workspace({ "f.txt": "a\n" });
    await call("Read", { file_path: "f.txt" });
    touchLater(path.join(root, "f.txt"));
    expect(text(await call("Read", { file_path: "f.txt" }))).toBe("     1\ta");
  });

  it("FS-READ-4 never answers 'unchanged' after this session's own Edit or Write of the file", async () => {
    const { call } = workspace({ "f.txt": "one\ntwo\n" });
    await call("Read", { file_path: "f.txt" });
    expect((await call("Edit", { file_path: "f.txt", old_string: "one", new_string: "ONE" })).isError).toBe(false);
    expect(text(await call("Read", { file_path: "f.txt" }))).toContain("ONE");
    expect((await call("Write", { file_path: "f.txt", content: "written\n" })).isError).toBe(false);
    expect(text(await call("Read", { file_path: "f.txt" }))).toBe("     1\twritten");
  });

  it("FS-READ-4 read state is per session: a sub-agent's first read is a real read", async () => {
    const { core, call } = workspace({ "f.txt": "shared\n" });
    await call("Read", { file_path: "f.txt" });
    const child = core.sessions.create({ parentId: "main" });
    const r = await core.callTool({ name: "Read", arguments: { file_path: "f.txt" }, origin: "cli", sessionId: child.id });
    expect(text(r)).toBe("     1\tshared");
  });
});

describe("Read: images", () => {
  it("FS-READ-3 returns PNG, JPEG, GIF and WebP as image content with dimensions and size", async () => {
    const { call } = workspace({ "a.png": png(40, 30), "b.jpg": JPEG_16x8, "c.gif": GIF_1x1, "d.webp": WEBP_1x1 });
    const expected: Array<[string, string, number, number]> = [
      ["a.png", "image/png", 40, 30],
      ["b.jpg", "image/jpeg", 16, 8],
      ["c.gif", "image/gif", 1, 1],
      ["d.webp", "image/webp", 1, 1],
    ];
    for (const [file, mimeType, width, height] of expected) {
      const r = await call("Read", { file_path: file });
      expect(r.isError).toBe(false);
      const img = r.content.find((c) => c.type === "image");
      expect(img).toMatchObject({ type: "image", mimeType });
      expect(Buffer.from((img as { data: string }).data, "base64").length).toBe(r.structuredContent.bytes);
      expect(r.structuredContent).toMatchObject({ type: "image", mimeType, width, height });
    }
  });

  it("FS-READ-3 sniffs the type from content: a PNG without extension is an image, a .png holding text is text", async () => {
    const { call } = workspace({ screenshot: png(2, 2), "fake.png": "not really a png\n" });
    const r = await call("Read", { file_path: "screenshot" });
    expect(r.content.some((c) => c.type === "image" && c.mimeType === "image/png")).toBe(true);
    expect(text(await call("Read", { file_path: "fake.png" }))).toBe("     1\tnot really a png");
  });

  it("FS-READ-3 refuses oversized images (bytes or pixels) with a clear message instead of sending them", async () => {
    const { call } = workspace({ "huge.png": png(1200, 1200, true), "wide.png": png(9000, 2) });
    const big = await call("Read", { file_path: "huge.png" });
    expect(big.structuredContent.bytes).toBeGreaterThan(READ_MAX_IMAGE_BYTES);
    expect(big.isError).toBe(true);
    expect(big.content.every((c) => c.type === "text")).toBe(true);
    expect(text(big)).toMatch(/models accept images up to .*smaller copy/);
    const wide = await call("Read", { file_path: "wide.png" });
    expect(wide.isError).toBe(true);
    expect(text(wide)).toMatch(/9000×2 pixels; models accept at most 8000 pixels per side/);
  });
});

describe("Read: refusals and special files", () => {
  it("FS-READ-6 refuses PDF and Office documents by extension and by content, saying what to do", async () => {
    const { call } = workspace({
      "report.pdf": "%PDF-1.4\n...",
      "renamed-pdf": Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "latin1"),
      "doc.docx": Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0]),
      "mystery.bin2": Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0, 0, 0]),
    });
    const pdf = await call("Read", { file_path: "report.pdf" });
    expect(pdf.isError).toBe(true);
    expect(text(pdf)).toMatch(/PDF document.*pdftotext/);
    expect(text(await call("Read", { file_path: "renamed-pdf" }))).toMatch(/PDF document \(recognised by its content\)/);
    expect(text(await call("Read", { file_path: "doc.docx" }))).toMatch(/word-processor document.*pandoc/);
    expect(text(await call("Read", { file_path: "mystery.bin2" }))).toMatch(/ZIP archive/);
  });

  it("FS-READ-6 names what a binary is with the right article: an ELF executable, an archive, a ZIP archive", async () => {
    const { root, call } = workspace({
      "lib.so.2": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]),
      "bundle.tar": "x",
      "mystery.bin2": Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0, 0, 0]),
    });
    expect(text(await call("Read", { file_path: "lib.so.2" }))).toMatch(
      new RegExp(`^${path.join(root, "lib.so.2").replace(/[.]/g, "\\.")} is an ELF executable or library \\(recognised by its content\\)`),
    );
    expect(text(await call("Read", { file_path: "bundle.tar" }))).toMatch(/ is an archive; /);
    expect(text(await call("Read", { file_path: "mystery.bin2" }))).toMatch(/ is a ZIP archive /);
  });

  it("FS-READ-6 refuses binaries: NUL bytes or mostly control characters", async () => {
    const { call } = workspace({
      "data.dat": Buffer.from([0x41, 0x42, 0x00, 0x43, 0x44]),
      "ctl.txt": Buffer.from(Array.from({ length: 300 }, (_, i) => (i % 2 ? 0x02 : 0x41))),
    });
    for (const f of ["data.dat", "ctl.txt"]) {
      const r = await call("Read", { file_path: f });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/binary file .*xxd/);
    }
  });

  it("FS-READ-6 gives fast, specific errors for a directory, a FIFO and a device (never a hang)", async () => {
    const { root, call } = workspace({});
    mkdirSync(path.join(root, "dir"));
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    expect(text(await call("Read", { file_path: "dir" }))).toMatch(/is a directory, not a file/);
    const fifo = await call("Read", { file_path: "pipe" });
    expect(fifo.isError).toBe(true);
    expect(text(fifo)).toMatch(/named pipe \(FIFO\)/);
    expect(text(await call("Read", { file_path: "/dev/null" }))).toMatch(/device file/);
  });

  it("FS-READ-6 reads a symlink's target, names a dangling link's target, and reports a link loop", async () => {
    const { root, call } = workspace({ "target.txt": "through the link\n" });
    symlinkSync("target.txt", path.join(root, "link"));
    symlinkSync("gone.txt", path.join(root, "dangling"));
    symlinkSync("loop2", path.join(root, "loop1"));
    symlinkSync("loop1", path.join(root, "loop2"));
    expect(text(await call("Read", { file_path: "link" }))).toBe("     1\tthrough the link");
    expect(text(await call("Read", { file_path: "dangling" }))).toMatch(/symbolic link whose target does not exist \(.*gone\.txt\)/);
    expect(text(await call("Read", { file_path: "loop1" }))).toMatch(/symbolic link loop/);
  });

  it("FS-READ-6 suggests near names in the same directory for a missing file", async () => {
    const { call } = workspace({ "src/config.ts": "x", "src/Config.json": "{}" });
    const r = await call("Read", { file_path: "src/confg.ts" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/File does not exist: .*confg\.ts\. Did you mean src\/config\.ts/);
    const deep = await call("Read", { file_path: "nope/deeper/file.ts" });
    expect(text(deep)).toMatch(/does not exist either/);
  });
});

describe("Read: notebooks", () => {
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { language_info: { name: "python" } },
    cells: [
      { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Title\n", "Some *text*"] },
      {
        cell_type: "code",
        id: "c1",
        execution_count: 1,
        metadata: {},
        source: "print('hi')\n1 + 1",
        outputs: [
          { output_type: "stream", name: "stdout", text: ["hi\n"] },
          { output_type: "execute_result", execution_count: 1, data: { "text/plain": ["2"] }, metadata: {} },
        ],
      },
      {
        cell_type: "code",
        execution_count: 2,
        metadata: {},
        source: "plot()",
        outputs: [{ output_type: "display_data", data: { "image/png": png(4, 3).toString("base64"), "text/plain": "<Figure>" }, metadata: {} }],
      },
      {
        cell_type: "code",
        execution_count: 3,
        metadata: {},
        source: "1/0",
        outputs: [{ output_type: "error", ename: "ZeroDivisionError", evalue: "division by zero", traceback: ["\u001b[0;31mZeroDivisionError\u001b[0m: division by zero"] }],
      },
    ],
  };

  it("FS-READ-7 shows cells in order with type, source and text outputs, and image outputs as images", async () => {
    const { call } = workspace({ "nb.ipynb": JSON.stringify(notebook) });
    const r = await call("Read", { file_path: "nb.ipynb" });
    expect(r.isError).toBe(false);
    const t = text(r);
    expect(t).toMatch(/Jupyter notebook: 4 cells, python, nbformat 4\.5/);
    expect(t.indexOf('<cell 1 type="markdown" id="intro">\n# Title\nSome *text*\n</cell>')).toBeGreaterThan(0);
    expect(t.indexOf("print('hi')")).toBeLessThan(t.indexOf("plot()"));
    expect(t).toContain('<output type="stream" name="stdout">\nhi\n');
    expect(t).toContain('<output type="execute_result">\n2\n</output>');
    expect(t).toContain("ZeroDivisionError: division by zero");
    expect(t).not.toContain("\u001b[");
    const images = r.content.filter((c) => c.type === "image");
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ mimeType: "image/png" });
    expect(r.structuredContent).toMatchObject({ type: "notebook", cells: 4, language: "python", images: 1 });
  });

  it("FS-READ-7 reports malformed notebook JSON clearly", async () => {
    const { call } = workspace({ "bad.ipynb": '{"cells": [ oops' });
    const r = await call("Read", { file_path: "bad.ipynb" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/Cannot read .*bad\.ipynb as a Jupyter notebook: it is not valid JSON/);
  });
});
