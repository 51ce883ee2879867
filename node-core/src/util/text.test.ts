import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { clipJson, clipText, cutChars, jsonBytes, singleQuoted } from "./text.js";

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
    for (const text of ["", "plain", "it's", "'", "''", "a b\nc", "$HOME `x` \\ \"q\""]) {
      const quoted = singleQuoted(text);
      expect(execFileSync("bash", ["-c", `printf %s ${quoted}`], { encoding: "utf8" })).toBe(text);
    }
    expect(singleQuoted("it's")).toBe(`'it'\\''s'`);
  });
});
