import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/processes.js";
import { ProgressGate, readTail } from "./outputTail.js";

describe("readTail", () => {
  it("returns the last lines of a file without reading the rest, whole characters only", () => {
    const file = path.join(tempDir(), "out.log");
    expect(readTail(file)).toEqual({ size: 0, text: "" });
    writeFileSync(file, "");
    expect(readTail(file)).toEqual({ size: 0, text: "" });
    writeFileSync(file, Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const t = readTail(file, 4096, 3);
    expect(t.text).toBe("line 98\nline 99\nline 100");
    // A window that starts inside a line and inside a multi-byte character drops both partial pieces.
    writeFileSync(file, "é".repeat(3000) + "\nlast line\nunfinished");
    const w = readTail(file, 25, 20);
    expect(w.text).toBe("last line\nunfinished");
    expect(w.size).toBe(6000 + 1 + 10 + 10);
    appendFileSync(file, "\u0000bin\n");
    expect(readTail(file, 64).text.endsWith("unfinished\uFFFDbin")).toBe(true);
  });
});

describe("ProgressGate", () => {
  it("lets an update through at most once per interval, when the output changed, or as a heartbeat", () => {
    let now = 0;
    const gate = new ProgressGate(1000, 10_000, () => now, "0:0");
    const at = (t: number, key: string) => {
      now = t;
      return gate.offer(key);
    };
    expect(at(500, "5:0")).toBe(false); // too soon
    expect(at(1000, "5:0")).toBe(true);
    expect(gate.sentAt - gate.startedAt).toBe(1000);
    expect(at(1500, "9:0")).toBe(false); // changed, but within the second
    expect(at(1999, "9:0")).toBe(false);
    expect(at(2000, "9:0")).toBe(true);
    expect(at(3000, "9:0")).toBe(false); // unchanged
    expect(at(11_999, "9:0")).toBe(false);
    expect(at(12_000, "9:0")).toBe(true); // heartbeat
    // However often it is asked, never more than one per interval.
    let sent = 0;
    for (let t = 12_001; t <= 22_000; t += 7) if (at(t, String(t))) sent++;
    expect(sent).toBeLessThanOrEqual(10);
    expect(sent).toBeGreaterThanOrEqual(9);
  });
});
