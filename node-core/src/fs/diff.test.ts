import { describe, expect, it } from "vitest";
import { DIFF_LIMITS, structuredDiff, wholeTextRegion } from "./diff.js";

describe("structured diff", () => {
  it("FS-EDIT-3 gives hunks with old/new line numbers and word ranges when removed and added counts match", async () => {
    const oldText = "one\ntwo\nconst answer = 41;\nfour\nfive\n";
    const newText = "one\ntwo\nconst answer = 42;\nfour\nfive\n";
    const d = await structuredDiff(oldText, newText, [wholeTextRegion(oldText, newText)!]);
    expect(d.linesAdded).toBe(1);
    expect(d.linesRemoved).toBe(1);
    expect(d.hunks).toHaveLength(1);
    const h = d.hunks[0]!;
    expect(h).toMatchObject({ oldStart: 1, oldLines: 5, newStart: 1, newLines: 5 });
    const removed = h.lines.find((l) => l.type === "removed")!;
    const added = h.lines.find((l) => l.type === "added")!;
    expect(removed).toMatchObject({ text: "const answer = 41;", oldLine: 3 });
    expect(added).toMatchObject({ text: "const answer = 42;", newLine: 3 });
    expect(removed.changes!.map((r) => removed.text.slice(r.start, r.end))).toEqual(["41"]);
    expect(added.changes!.map((r) => added.text.slice(r.start, r.end))).toEqual(["42"]);
    expect(h.lines[0]).toEqual({ type: "context", text: "one", oldLine: 1, newLine: 1 });
  });

  it("FS-EDIT-3 word ranges hold the changed words without the spaces around them; a whitespace-only change stays marked", async () => {
    const oldText = "const r = Math.round(x * 100);\nif (a) {\n";
    const newText = "const r = Math.round((x + Number.EPSILON) * 100);\nif (a)  {\n";
    const d = await structuredDiff(oldText, newText, [wholeTextRegion(oldText, newText)!]);
    const added = d.hunks[0]!.lines.filter((l) => l.type === "added");
    const marked = added.map((l) => l.changes!.map((r) => l.text.slice(r.start, r.end)));
    expect(marked[0]!.every((m) => m === m.trim() && m.length > 0)).toBe(true);
    expect(marked[0]!.join("|")).toContain("Number.EPSILON");
    expect(marked[1]).toEqual(["  "]);
  });

  it("FS-EDIT-3 leaves out word ranges when removed and added line counts differ", async () => {
    const oldText = "a\nb\nc\n";
    const newText = "a\nB1\nB2\nc\n";
    const d = await structuredDiff(oldText, newText, [wholeTextRegion(oldText, newText)!]);
    const changed = d.hunks[0]!.lines.filter((l) => l.type !== "context");
    expect(changed.map((l) => l.type)).toEqual(["removed", "added", "added"]);
    expect(changed.every((l) => l.changes === undefined)).toBe(true);
  });

  it("FS-EDIT-3 diffs only the changed regions of a large text, with correct absolute line numbers", async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1}`);
    const oldText = lines.join("\n") + "\n";
    const changedLines = [...lines];
    changedLines[99_999] = "line 100000 changed";
    changedLines[150_000] = "line 150001 changed";
    const newText = changedLines.join("\n") + "\n";
    const start1 = oldText.indexOf("line 100000\n") + "line 100000".length;
    const start2 = oldText.indexOf("line 150001\n") + "line 150001".length;
    const delta = " changed".length;
    const d = await structuredDiff(oldText, newText, [
      { oldStart: start1, oldEnd: start1, newStart: start1, newEnd: start1 + delta },
      { oldStart: start2, oldEnd: start2, newStart: start2 + delta, newEnd: start2 + 2 * delta },
    ]);
    expect(d.hunks).toHaveLength(2);
    expect(d.hunks[0]).toMatchObject({ oldStart: 99_997, newStart: 99_997 });
    expect(d.hunks[1]!.lines.find((l) => l.type === "added")).toMatchObject({ text: "line 150001 changed", newLine: 150_001 });
  });

  it("FS-EDIT-3 shows a pure insertion and a deletion at the end of a file without a final newline", async () => {
    const d = await structuredDiff("a\nb", "a\nb\nc", [wholeTextRegion("a\nb", "a\nb\nc")!]);
    expect(d.hunks[0]!.lines.filter((l) => l.type === "added").map((l) => l.text)).toContain("c");
    const empty = await structuredDiff("", "x\ny\n", [wholeTextRegion("", "x\ny\n")!]);
    expect(empty.hunks[0]).toMatchObject({ oldLines: 0, newStart: 1, newLines: 2 });
    expect(empty.linesAdded).toBe(2);
  });
});

describe("structured diff at the edges", () => {
  it("FS-EDIT-3 handles changes on a leading empty line and on the first and last lines", async () => {
    for (const [o, n] of [
      ["\nb\nc\n", "x\nb\nc\n"],
      ["\n\nc\n", "\n\nC\n"],
      ["a\nb\nc", "a\nb\nC"],
      ["a\n", "b\n"],
    ] as const) {
      const d = await structuredDiff(o, n, [wholeTextRegion(o, n)!]);
      const removed = d.hunks.flatMap((h) => h.lines.filter((l) => l.type === "removed"));
      const added = d.hunks.flatMap((h) => h.lines.filter((l) => l.type === "added"));
      const oldLines = o.split("\n");
      const newLines = n.split("\n");
      for (const l of removed) expect(oldLines[l.oldLine! - 1]).toBe(l.text);
      for (const l of added) expect(newLines[l.newLine! - 1]).toBe(l.text);
      expect(removed.length + added.length).toBeGreaterThan(0);
    }
  });
});

describe("structured diff, bounded", () => {
  const words = (n: number, seed: number) => {
    const out: string[] = [];
    let x = seed;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      out.push(`w${x % 997}`);
    }
    return out.join(" ");
  };
  const bytes = (d: unknown) => Buffer.byteLength(JSON.stringify(d));

  it("FS-EDIT-3 a 2 MB line replaced by another: one hunk, both lines cut with their full length, no word ranges, within the byte limit", async () => {
    const oldText = words(300_000, 1);
    const newText = words(300_000, 2);
    const d = await structuredDiff(oldText, newText, [wholeTextRegion(oldText, newText)!]);
    expect(d).toMatchObject({ linesAdded: 1, linesRemoved: 1, truncated: true, linesCut: 2, hunksOmitted: 0, linesOmitted: 0, coarse: false });
    const [removed, added] = d.hunks[0]!.lines;
    expect(removed).toMatchObject({ type: "removed", oldLine: 1, fullLength: oldText.length, text: oldText.slice(0, DIFF_LIMITS.maxLineChars) });
    expect(added).toMatchObject({ type: "added", newLine: 1, fullLength: newText.length, text: newText.slice(0, DIFF_LIMITS.maxLineChars) });
    expect(removed!.changes).toBeUndefined();
    expect(bytes(d)).toBeLessThanOrEqual(DIFF_LIMITS.maxBytes);
  });

  it("FS-EDIT-3 a cut line keeps the word ranges that fall in its kept part", async () => {
    const limits = { ...DIFF_LIMITS, maxLineChars: 20 };
    const d = await structuredDiff("alpha beta gamma delta epsilon zeta\n", "alpha BETA gamma delta epsilon ZETA\n", [{ oldStart: 0, oldEnd: 36, newStart: 0, newEnd: 36 }], limits);
    const added = d.hunks[0]!.lines.find((l) => l.type === "added")!;
    expect(added.text).toBe("alpha BETA gamma del");
    expect(added.fullLength).toBe(35);
    expect(added.changes!.map((r) => added.text.slice(r.start, r.end))).toEqual(["BETA"]);
  });

  it("FS-EDIT-3 past the hunk limit the rest is counted, not shown; the counts cover the whole change", async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const oldText = lines.join("\n") + "\n";
    const newText = lines.map((l, i) => (i % 10 === 0 ? `${l} changed` : l)).join("\n") + "\n";
    const regions = lines.flatMap((l, i) => {
      if (i % 10 !== 0) return [];
      const at = oldText.indexOf(`${l}\n`) + l.length;
      const shift = (i / 10) * " changed".length;
      return [{ oldStart: at, oldEnd: at, newStart: at + shift, newEnd: at + shift + " changed".length }];
    });
    const d = await structuredDiff(oldText, newText, regions, { ...DIFF_LIMITS, maxHunks: 5 });
    expect(d.hunks).toHaveLength(5);
    expect(d).toMatchObject({ linesAdded: 100, linesRemoved: 100, hunksOmitted: 95, truncated: true });
    expect(d.hunks[4]!.lines.find((l) => l.type === "added")).toMatchObject({ text: "line 40 changed", newLine: 41 });
  });

  it("FS-EDIT-3 a huge replacement keeps the start of both what went and what came, and says how many lines it left out", async () => {
    const oldText = Array.from({ length: 5000 }, (_, i) => `old ${i}`).join("\n") + "\n";
    const newText = Array.from({ length: 5000 }, (_, i) => `new ${i}`).join("\n") + "\n";
    const d = await structuredDiff(oldText, newText, [wholeTextRegion(oldText, newText)!], { ...DIFF_LIMITS, maxLines: 100 });
    const h = d.hunks[0]!;
    expect(h).toMatchObject({ oldStart: 1, oldLines: 5000, newStart: 1, newLines: 5000 });
    expect(h.lines).toHaveLength(100);
    expect(h.linesOmitted).toBe(9900);
    expect(d).toMatchObject({ linesAdded: 5000, linesRemoved: 5000, linesOmitted: 9900, truncated: true });
    const removed = h.lines.filter((l) => l.type === "removed");
    const added = h.lines.filter((l) => l.type === "added");
    expect(removed.map((l) => l.text)).toEqual(Array.from({ length: 50 }, (_, i) => `old ${i}`));
    expect(added.map((l) => [l.text, l.newLine])).toEqual(Array.from({ length: 50 }, (_, i) => [`new ${i}`, i + 1]));
    // Each gap is marked on the line before it: after the last removed line shown, and at the end.
    expect(h.lines.filter((l) => l.omittedAfter !== undefined).map((l) => [l.text, l.omittedAfter])).toEqual([
      ["old 49", 4950],
      ["new 49", 4950],
    ]);
  });

  it("FS-EDIT-3 when the line diff gives up it falls back to a whole-region replacement that is still a correct diff", async () => {
    const oldLines = Array.from({ length: 100 }, (_, i) => (i % 2 ? `keep ${i}` : `old ${i}`));
    const newLines = oldLines.map((l, i) => (i % 2 ? l : `new ${i}`));
    const oldText = oldLines.join("\n") + "\n";
    const newText = newLines.join("\n") + "\n";
    const region = [wholeTextRegion(oldText, newText)!];
    const exact = await structuredDiff(oldText, newText, region);
    expect(exact.coarse).toBe(false);
    expect(exact).toMatchObject({ linesAdded: 50, linesRemoved: 50 });

    const coarse = await structuredDiff(oldText, newText, region, { ...DIFF_LIMITS, maxEditLength: 10 });
    expect(coarse).toMatchObject({ coarse: true, truncated: false, linesRemoved: 99, linesAdded: 99 });
    // Applying the hunks to the old lines gives the new ones.
    const h = coarse.hunks[0]!;
    const rebuilt = [...oldLines.slice(0, h.oldStart - 1), ...h.lines.filter((l) => l.type !== "removed").map((l) => l.text), ...oldLines.slice(h.oldStart - 1 + h.oldLines)];
    expect(rebuilt).toEqual(newLines);
  });

  it("FS-EDIT-3 a whole file of changed lines stays within the limits in bytes and time (no timing asserted)", async () => {
    const oldText = Array.from({ length: 200_000 }, (_, i) => `${words(2, i)} ${i}`).join("\n");
    const newText = Array.from({ length: 200_000 }, (_, i) => `${words(2, i + 7)} ${i}`).join("\n");
    const d = await structuredDiff(oldText, newText, [wholeTextRegion(oldText, newText)!]);
    expect(d.truncated).toBe(true);
    expect(d.hunks.reduce((n, h) => n + h.lines.length, 0)).toBeLessThanOrEqual(DIFF_LIMITS.maxLines);
    expect(bytes(d)).toBeLessThanOrEqual(DIFF_LIMITS.maxBytes + 1024);
  });

  it("FS-EDIT-3 lines of control characters and astral characters are counted in serialised bytes, not characters", async () => {
    for (const unit of ["\u0001", "😀", "中"]) {
      const oldText = Array.from({ length: 3000 }, (_, i) => `${unit.repeat(900)}${i}`).join("\n");
      const newText = Array.from({ length: 3000 }, (_, i) => `${unit.repeat(900)}${i + 1}`).join("\n");
      const d = await structuredDiff(oldText, newText, [wholeTextRegion(oldText, newText)!]);
      expect(bytes(d), JSON.stringify(unit)).toBeLessThanOrEqual(DIFF_LIMITS.maxBytes + 1024);
      expect(d.hunks[0]!.lines.length).toBeGreaterThan(0);
      // A cut never splits a surrogate pair.
      for (const l of d.hunks.flatMap((h) => h.lines)) expect(/[\ud800-\udbff]$/.test(l.text)).toBe(false);
    }
  });

  it("FS-EDIT-3 adding or removing the final newline is a visible change", async () => {
    const d = await structuredDiff("a\nb", "a\nb\n", [wholeTextRegion("a\nb", "a\nb\n")!]);
    expect(d.hunks[0]!.lines.filter((l) => l.type !== "context").map((l) => [l.type, l.text])).toEqual([
      ["removed", "b"],
      ["added", "b"],
    ]);
  });
});
