import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isUtf8 } from "node:buffer";
import { clipJson, clipText, cutChars, firstInvalidUtf8, jsonBytes, singleQuoted, utf8Text } from "./text.js";

describe("bounded text", () => {
  it("FS-READ-1 never splits a surrogate pair when cutting", () => {
    expect(cutChars("ab😀", 3)).toBe("ab");
    expect(cutChars("abc", 5)).toBe("abc");
  });

  it("FS-EDIT-6 repeats short text as given and says how much of a long one was left out", () => {
    expect(clipText("short", 200)).toBe("short");
    const long = "x".repeat(1_000_000);
    expect(clipText(long, 200)).toBe(`${"x".repeat(200)}... [999800 more characters]`);
    expect(clipText("ab😀cd", 3)).toBe("ab... [4 more characters]");
  });
});

describe("clipJson", () => {
  it("keeps text that fits, and cuts by characters like clipText", () => {
    expect(clipJson("short", 100, 100)).toBe("short");
    expect(clipJson("x".repeat(50), 10, 1000)).toBe(`${"x".repeat(10)}... [40 more characters]`);
  });

  it("cuts multi-byte text and control characters until their JSON fits the byte budget", () => {
    for (const unit of ["日", "é", "😀", "\u0001", '"', "\\"]) {
      const text = unit.repeat(5000);
      const cut = clipJson(text, 2000, 1000);
      expect(jsonBytes(cut)).toBeLessThanOrEqual(1000);
      // As much as fits: within one character (at most 6 bytes of JSON, 12 for a surrogate pair) of the budget.
      expect(jsonBytes(cut)).toBeGreaterThan(1000 - 13);
      const kept = cut.slice(0, cut.indexOf("... ["));
      expect(kept.length).toBeGreaterThan(0);
      expect(cut).toMatch(/\.\.\. \[\d+ more characters]$/);
      expect(text.startsWith(kept)).toBe(true);
    }
  });

  it("gives the empty string when not even the marker fits", () => {
    expect(clipJson("x".repeat(100), 50, 10)).toBe("");
  });
});

describe("singleQuoted", () => {
  it("is one shell word that bash reads back as the same bytes", () => {
    for (const text of ["", "plain", "it's", "'", "''", "a b\nc", '$HOME `x` \\ "q"']) {
      const quoted = singleQuoted(text);
      expect(execFileSync("bash", ["-c", `printf %s ${quoted}`], { encoding: "utf8" })).toBe(text);
    }
    expect(singleQuoted("it's")).toBe(`'it'\\''s'`);
  });
});

describe("utf8Text", () => {
  it("decodes exactly as toString('utf8') does, whether or not the bytes are all ASCII", () => {
    const ascii = Buffer.from("plain ascii line\n".repeat(1000));
    const cases = [
      Buffer.alloc(0),
      Buffer.from("short"),
      ascii,
      // One non-ASCII character at the very end, in the middle, and at the start of long text.
      Buffer.concat([ascii, Buffer.from("é")]),
      Buffer.concat([ascii.subarray(0, 5000), Buffer.from("😀"), ascii.subarray(5000)]),
      Buffer.concat([Buffer.from("中"), ascii]),
      // Invalid UTF-8: a lone continuation byte, a truncated sequence, a byte 0xff.
      Buffer.concat([ascii, Buffer.from([0x80])]),
      Buffer.concat([ascii, Buffer.from([0xe4, 0xb8])]),
      Buffer.concat([Buffer.from([0xff]), ascii]),
      // Control bytes and DEL are ASCII too.
      Buffer.from(Array.from({ length: 8192 }, (_, i) => i % 128)),
      // A view into a larger buffer, starting past a non-ASCII byte.
      Buffer.concat([Buffer.from("é"), ascii]).subarray(2),
    ];
    for (const bytes of cases) {
      const text = utf8Text(bytes);
      expect(text).toBe(bytes.toString("utf8"));
      expect(Buffer.from(text).equals(Buffer.from(bytes.toString("utf8")))).toBe(true);
    }
  });
});

describe("firstInvalidUtf8", () => {
  it("finds the first byte that starts no well-formed sequence, and agrees with isUtf8 on every case", () => {
    const cases: Array<[number[], number]> = [
      [[0x61, 0x62], 2],
      [[0xc3, 0xa9], 2],
      [[0x61, 0xc3, 0x28], 1],
      // Overlong forms, a surrogate (U+D800), above U+10FFFF, a lone continuation, truncated sequences.
      [[0x61, 0xc0, 0xaf], 1],
      [[0xe0, 0x80, 0xaf], 0],
      [[0xed, 0xa0, 0x80], 0],
      [[0xf4, 0x90, 0x80, 0x80], 0],
      [[0x41, 0x80], 1],
      [[0xe4, 0xb8], 0],
      [[0xf0, 0x9f, 0x98, 0x80, 0xff], 4],
      [[0xef, 0xbf, 0xbd], 3],
    ];
    for (const [bytes, offset] of cases) {
      const buf = Buffer.from(bytes);
      expect(firstInvalidUtf8(buf), buf.toString("hex")).toBe(offset);
      expect(isUtf8(buf)).toBe(offset === bytes.length);
    }
    // Random bytes: the prefix before the offset is always well-formed.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    for (let n = 0; n < 2000; n++) {
      const buf = Buffer.from(Array.from({ length: 1 + (n % 12) }, () => (rnd() & 1 ? rnd() : 0x80 | (rnd() & 0x3f))));
      const at = firstInvalidUtf8(buf);
      expect(isUtf8(buf.subarray(0, at))).toBe(true);
      expect(at === buf.length).toBe(isUtf8(buf));
    }
  });
});
