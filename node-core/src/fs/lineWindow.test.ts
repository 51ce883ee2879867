import { writeFileSync } from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { afterEach, describe, expect, it } from "vitest";
import { readLineWindow } from "./lineWindow.js";
import { cleanTempDirs, tempDir } from "../../test/support/fsTestkit.js";
import { UTF8 } from "./textCodec.js";

afterEach(cleanTempDirs);

function file(content: string | Buffer): string {
  const f = path.join(tempDir(), "f.txt");
  writeFileSync(f, content);
  return f;
}

const base = { maxLineChars: 2000, format: UTF8 };

describe("streaming line windows", () => {
  it("FS-READ-2 returns exactly the requested lines and counts the rest, across small chunks", async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i + 1} ${"x".repeat(i % 37)}`);
    const f = file(lines.join("\n") + "\n");
    const size = Buffer.byteLength(lines.join("\n") + "\n");
    const w = await readLineWindow(f, { ...base, start: 500, limit: 3, size, chunkBytes: 64 });
    expect(w.lines).toEqual(lines.slice(499, 502));
    expect(w.totalLines).toBe(1000);
    expect(w.moreAfter).toBe(true);
    const tail = await readLineWindow(f, { ...base, start: 999, limit: 10, size, chunkBytes: 100 });
    expect(tail.lines).toEqual(lines.slice(998));
    expect(tail.moreAfter).toBe(false);
  });

  it("FS-READ-2 handles CRLF, a missing final newline and a UTF-8 BOM", async () => {
    const f = file(Buffer.from("\ufeffa\r\nb\r\nlast", "utf8"));
    const w = await readLineWindow(f, { ...base, start: 1, limit: 10, size: 14, chunkBytes: 3 });
    expect(w.lines).toEqual(["a", "b", "last"]);
    expect(w.totalLines).toBe(3);
  });

  it("FS-READ-5 stops counting early when much of a large file remains, with an estimate", async () => {
    const body = Array.from({ length: 20000 }, (_, i) => `row ${String(i).padStart(6, "0")}`).join("\n") + "\n";
    const f = file(body);
    const w = await readLineWindow(f, { ...base, start: 10, limit: 2, size: body.length, chunkBytes: 1024, countBudgetBytes: 4096 });
    expect(w.lines).toEqual(["row 000009", "row 000010"]);
    expect(w.totalLines).toBeNull();
    expect(w.estimatedTotalLines).toBeGreaterThan(15000);
    expect(w.estimatedTotalLines).toBeLessThan(25000);
    const hashed = await readLineWindow(f, { ...base, start: 10, limit: 2, size: body.length, chunkBytes: 1024, countBudgetBytes: 4096, hash: true });
    expect(hashed.totalLines).toBe(20000);
    expect(hashed.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("FS-READ-1 cuts a huge line at the display cap without holding the whole line", async () => {
    const long = "é".repeat(3_000_000);
    const f = file(`short\n${long}\nafter\n`);
    const w = await readLineWindow(f, { ...base, start: 1, limit: 3, size: Buffer.byteLength(long) + 13 });
    expect(w.lines[0]).toBe("short");
    expect(w.lines[1]).toBe("é".repeat(2000));
    expect(w.cutLines).toEqual([1]);
    expect(w.lines[2]).toBe("after");
  });

  it("FS-READ-1 reads windows of UTF-16 files", async () => {
    const text = Array.from({ length: 50 }, (_, i) => `第${i + 1}行`).join("\r\n");
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, "utf-16le")]);
    const f = file(bytes);
    const w = await readLineWindow(f, { ...base, format: { encoding: "utf-16le", bom: true }, start: 49, limit: 5, size: bytes.length, chunkBytes: 7 });
    expect(w.lines).toEqual(["第49行", "第50行"]);
    expect(w.totalLines).toBe(50);
  });
});
