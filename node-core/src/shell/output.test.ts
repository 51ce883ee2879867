import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/processes.js";
import { cutChars } from "../util/text.js";
import { lastChars, MAX_RESULT_CHARS, sanitize, summarizeOutput, trimIncompleteHead, trimIncompleteTail } from "./output.js";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function file(content: string | Buffer): string {
  const f = path.join(tempDir(), "out.log");
  writeFileSync(f, content);
  return f;
}

describe("output summaries", () => {
  it("BASH-FG-5 keeps short output whole", async () => {
    const s = await summarizeOutput(file("hello\nworld\n"));
    expect(s).toEqual({ text: "hello\nworld\n", truncated: false, totalBytes: 12, binary: false });
  });

  it("BASH-FG-5 cuts long output to the head and the tail and names the full file", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n") + "\nTHE ERROR AT THE END\n";
    const f = file(lines);
    const s = await summarizeOutput(f);
    expect(s.truncated).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(s.text.length).toBeGreaterThan(MAX_RESULT_CHARS - 2000);
    expect(s.text.startsWith("line 0\nline 1\n")).toBe(true);
    expect(s.text.endsWith("THE ERROR AT THE END\n")).toBe(true);
    expect(s.text).toContain(f);
    expect(s.text).toMatch(/bytes omitted/);
    // The tail gets the larger share: errors are usually at the end.
    const [head, tail] = s.text.split(/\n\n\[… .* …\]\n\n/);
    expect(tail!.length).toBeGreaterThan(head!.length);
    expect(head!.endsWith("\n")).toBe(true);
  });

  it("BASH-FG-5 never splits a surrogate pair or a multi-byte character, however large the file", async () => {
    for (const unit of ["😀", "漢字", "é"]) {
      for (const size of [40_000, 2_000_000]) {
        const text = unit.repeat(Math.ceil(size / unit.length));
        for (const pad of ["", "x", "xy", "xyz"]) {
          const s = await summarizeOutput(file(pad + text + pad));
          expect(s.truncated).toBe(true);
          expect(s.text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
          expect(LONE_SURROGATE.test(s.text)).toBe(false);
          expect(s.text).not.toContain("\uFFFD");
        }
      }
    }
  });

  it("BASH-FG-5 counts characters, not bytes: 25,000 CJK characters (75 KB) are not cut", async () => {
    const s = await summarizeOutput(file("字".repeat(25_000)));
    expect(s.truncated).toBe(false);
    expect(s.text.length).toBe(25_000);
  });

  it("shows invalid UTF-8 and binary bytes safely", async () => {
    const bin = Buffer.concat([Buffer.from("start "), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0xc3]), Buffer.from(" end\n")]);
    const s = await summarizeOutput(file(bin));
    expect(s.binary).toBe(true);
    expect(s.text.startsWith("start ")).toBe(true);
    expect(s.text.endsWith(" end\n")).toBe(true);
    expect(s.text).not.toContain("\u0000");
    const big = Buffer.alloc(5_000_000, 0);
    const b = await summarizeOutput(file(big));
    expect(b.truncated).toBe(true);
    expect(b.text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(b.text).not.toContain("\u0000");
  });

  it("BASH-FG-4 keeps ANSI escape sequences verbatim", () => {
    expect(sanitize("\u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007\r\n").text).toBe("\u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007\r\n");
  });

  it("trims windows at character boundaries", () => {
    const euro = Buffer.from("a€", "utf8"); // 61 e2 82 ac
    expect(trimIncompleteTail(euro.subarray(0, 3)).toString()).toBe("a");
    expect(trimIncompleteTail(euro).toString()).toBe("a€");
    expect(trimIncompleteHead(euro.subarray(2)).length).toBe(0);
    expect(trimIncompleteHead(Buffer.from("€b").subarray(1)).toString()).toBe("b");
    expect(cutChars("a😀", 2)).toBe("a");
    expect(lastChars("😀b", 2)).toBe("b");
  });
});
