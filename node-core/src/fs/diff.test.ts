import { describe, expect, it } from "vitest";
import { structuredDiff, wholeTextRegion } from "./diff.js";

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
