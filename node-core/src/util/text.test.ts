import { describe, expect, it } from "vitest";
import { clipText, cutChars } from "./text.js";

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
