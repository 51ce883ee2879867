import { imageSize } from "image-size";
import { describe, expect, it } from "vitest";
import { binaryKindByContent, binaryKindByExtension, looksBinary, sniffImage } from "./sniff.js";
import { GIF_1x1, JPEG_16x8, WEBP_1x1, png } from "../../test/support/testImages.js";

describe("file-type sniffing", () => {
  it("FS-READ-3 recognises PNG, JPEG, GIF and WebP by their bytes, and the test images are genuine", () => {
    expect(sniffImage(png(3, 2))).toBe("image/png");
    expect(sniffImage(JPEG_16x8)).toBe("image/jpeg");
    expect(sniffImage(GIF_1x1)).toBe("image/gif");
    expect(sniffImage(WEBP_1x1)).toBe("image/webp");
    expect(sniffImage(Buffer.from("just text"))).toBeUndefined();
    expect(imageSize(png(30, 20))).toMatchObject({ width: 30, height: 20 });
    expect(imageSize(JPEG_16x8)).toMatchObject({ width: 16, height: 8 });
    expect(imageSize(GIF_1x1)).toMatchObject({ width: 1, height: 1 });
    expect(imageSize(WEBP_1x1)).toMatchObject({ width: 1, height: 1 });
  });

  it("FS-READ-6 names documents and archives by extension, case-insensitively", () => {
    expect(binaryKindByExtension("/x/report.PDF")?.name).toMatch(/PDF/);
    expect(binaryKindByExtension("/x/a.docx")?.advice).toMatch(/pandoc/);
    expect(binaryKindByExtension("/x/a.xlsx")?.advice).toMatch(/CSV/);
    expect(binaryKindByExtension("/x/a.pptx")).toBeDefined();
    expect(binaryKindByExtension("/x/a.ts")).toBeUndefined();
    expect(binaryKindByExtension("/x/notebook.ipynb")).toBeUndefined();
  });

  it("FS-READ-6 recognises PDF, ZIP (DOCX) and ELF by content, but not text that merely starts like them", () => {
    expect(binaryKindByContent(Buffer.from("%PDF-1.7\n%\xe2\xe3\n"))?.name).toMatch(/PDF/);
    expect(binaryKindByContent(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]))?.name).toMatch(/ZIP/);
    expect(binaryKindByContent(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))?.name).toMatch(/ELF/);
    expect(binaryKindByContent(Buffer.from("MZ is a fine way to start a sentence.\n"))).toBeUndefined();
    expect(binaryKindByContent(Buffer.from("BM-style notes\n"))).toBeUndefined();
  });

  it("FS-READ-6 calls NUL bytes or mostly control characters binary, UTF-16 with a BOM text", () => {
    expect(looksBinary(Buffer.from("hello\0world"))).toBe(true);
    expect(looksBinary(Buffer.from(Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 1 : 65))))).toBe(true);
    expect(looksBinary(Buffer.from("plain text\twith tabs\r\nand CRLF\f\x1b[1mansi\x1b[0m"))).toBe(false);
    expect(looksBinary(Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]))).toBe(false);
    expect(looksBinary(Buffer.from("Grüße, 你好", "utf8"))).toBe(false);
    expect(looksBinary(Buffer.alloc(0))).toBe(false);
  });
});
