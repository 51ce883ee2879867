import iconv from "iconv-lite";

import { describe, expect, it } from "vitest";
import { canEncode, decodeText, detectBom, detectLineEndings, encodeText, lineEndingStyle, sniffFormat, textShape } from "./textCodec.js";

const utf16le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(s, "utf-16le")]);
const utf16be = (s: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(s, "utf-16be")]);

describe("text encodings", () => {
  it("FS-EDIT-4 decodes UTF-8 with BOM and UTF-16 LE/BE with BOM, and encodes them back byte for byte", async () => {
    const samples: Array<[Buffer, string, boolean]> = [
      [Buffer.from("plain ascii\n"), "utf-8", false],
      [Buffer.from("\ufeffwith bom — ü\n", "utf8"), "utf-8", true],
      [utf16le("little endian 你好\r\n"), "utf-16le", true],
      [utf16be("big endian 你好\n"), "utf-16be", true],
    ];
    for (const [bytes, encoding, bom] of samples) {
      const d = await decodeText(bytes);
      expect(d.format).toEqual({ encoding, bom });
      expect(d.roundTrips).toBe(true);
      expect(d.text.startsWith("\ufeff")).toBe(false);
      expect(encodeText(d.text, d.format).equals(bytes)).toBe(true);
    }
    expect(detectBom(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ encoding: "utf-8", length: 3 });
  });

  it("FS-EDIT-4 recognises a GB18030/GBK file and round-trips it; unknown bytes fall back to latin1 losslessly", async () => {
    const gbk = iconv.encode("成功: 已终止进程，文件已保存。这是一个用于检测编码的较长句子。\n".repeat(4), "gbk");
    const d = await decodeText(gbk);
    expect(d.text).toContain("已终止进程");
    expect(d.roundTrips).toBe(true);
    expect(encodeText(d.text, d.format).equals(gbk)).toBe(true);

    const odd = Buffer.from([0x61, 0x80, 0x81, 0xfe, 0x62, 0x0a]);
    const o = await decodeText(odd);
    expect(encodeText(o.text, o.format).equals(odd)).toBe(true);
  });

  it("FS-EDIT-4 refuses characters an encoding cannot hold instead of writing '?'", async () => {
    expect(canEncode("café", { encoding: "latin1", bom: false })).toBe(true);
    expect(canEncode("你好", { encoding: "latin1", bom: false })).toBe(false);
    expect(canEncode("你好", { encoding: "utf-16le", bom: true })).toBe(true);
    expect(canEncode("bad \ud800 surrogate", { encoding: "utf-8", bom: false })).toBe(false);
  });

  it("FS-READ-1 judges the encoding of a sample that ends inside a multi-byte character", async () => {
    const bytes = Buffer.from("äöü".repeat(100), "utf8");
    expect(await sniffFormat(bytes.subarray(0, 101), false)).toEqual({ encoding: "utf-8", bom: false });
    expect(await sniffFormat(utf16le("x"), true)).toEqual({ encoding: "utf-16le", bom: true });
  });

  it("FS-EDIT-4 counts CRLF and LF endings and names the style", async () => {
    expect(detectLineEndings("a\r\nb\r\n")).toMatchObject({ crlf: 2, lf: 0, style: "CRLF", dominant: "\r\n" });
    expect(detectLineEndings("a\nb\n")).toMatchObject({ style: "LF", dominant: "\n" });
    expect(detectLineEndings("a\r\nb\nc\n")).toMatchObject({ crlf: 1, lf: 2, style: "mixed", dominant: "\n" });
    expect(detectLineEndings("no newline")).toMatchObject({ style: "none" });
  });

  it("FS-EDIT-4 names the style without counting, and agrees with the count", () => {
    for (const text of ["a\r\nb\r\n", "a\nb\n", "a\r\nb\nc\n", "\na\r\n", "a\r\n\n", "no newline", "", "\r\r\n", "x".repeat(100_000) + "\r\n"]) {
      expect(lineEndingStyle(text), JSON.stringify(text.slice(0, 20))).toBe(detectLineEndings(text).style);
    }
  });

  it("FS-WRITE textShape says what decodeText and lineEndingStyle say, decoding UTF-8 only when the text is wanted", async () => {
    const samples = [
      Buffer.from(""),
      Buffer.from("one line, no newline"),
      Buffer.from("a\nb\n"),
      Buffer.from("a\r\nb\r\n"),
      Buffer.from("a\r\nb\nc\r\n"),
      Buffer.from("\nstarts with LF\r\n"),
      Buffer.from("lone\rCR\n"),
      Buffer.from("\ufeffBOM ü\r\nzwei\r\n", "utf8"),
      Buffer.from("\ufeff", "utf8"),
      Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0x0d, 0x0a]), // a UTF-8 BOM before bytes that are not UTF-8
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a]), // latin1
      utf16le("little\r\nendian\r\n"),
      utf16be("big\nendian"),
      iconv.encode("成功: 已终止进程，文件已保存。\r\n".repeat(4), "gbk"),
    ];
    for (const bytes of samples) {
      const decoded = await decodeText(bytes);
      const shape = await textShape(bytes);
      expect({ format: shape.format, roundTrips: shape.roundTrips, lineEnding: shape.lineEnding }).toEqual({
        format: decoded.format,
        roundTrips: decoded.roundTrips,
        lineEnding: lineEndingStyle(decoded.text),
      });
      expect(shape.text()).toBe(decoded.text);
    }
  });
});
