// tool/finished's summary of a result: bounded whatever the tool returned, with the fields a card
// header needs under their structuredContent names.
import { describe, expect, it } from "vitest";
import { jsonBytes } from "../util/text.js";
import { SUMMARY_PREVIEW_BYTES, SUMMARY_PREVIEW_CHARS, SUMMARY_STRINGS_BYTES, summarizeResult } from "./callSummary.js";
import { errorResult, textResult, type ToolResult } from "./tool.js";

/** The whole summary stays under this, whatever the result (PROTOCOL.md "tool/finished"). */
const SUMMARY_LIMIT = 7 * 1024;

describe("summarizeResult", () => {
  it("copies a Bash result's header fields and previews its text; the output itself stays out", () => {
    const output = "日本語".repeat(10_000);
    const result = textResult(output, {
      output,
      exitCode: 0,
      signal: null,
      interrupted: false,
      sandboxed: true,
      backgroundTaskId: "b1",
      outputPath: "/tmp/wave/out.log",
      outputBytes: 90_000,
      truncated: false,
      survivors: [{ pid: 1, command: "x" }],
    });
    const s = summarizeResult(result);
    expect(s.fields).toEqual({ exitCode: 0, signal: null, interrupted: false, sandboxed: true, backgroundTaskId: "b1", outputPath: "/tmp/wave/out.log", outputBytes: 90_000, truncated: false });
    expect(s.textChars).toBe(30_000);
    expect(s.resultBytes).toBe(jsonBytes(result));
    expect(s.preview.startsWith("日本語日本語")).toBe(true);
    expect(s.preview).toMatch(/\.\.\. \[\d+ more characters]$/);
    expect(jsonBytes(s.preview)).toBeLessThanOrEqual(SUMMARY_PREVIEW_BYTES);
    expect(jsonBytes(s)).toBeLessThan(SUMMARY_LIMIT);
  });

  it("keeps a short text whole, and cuts an ASCII one at the character limit", () => {
    expect(summarizeResult(textResult("hi\n")).preview).toBe("hi\n");
    const long = summarizeResult(textResult("a".repeat(50_000)));
    expect(long.preview).toBe(`${"a".repeat(SUMMARY_PREVIEW_CHARS)}... [${50_000 - SUMMARY_PREVIEW_CHARS} more characters]`);
  });

  it("takes an Edit's or Write's diff counts, not its hunks", () => {
    const hunks = [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [{ type: "added", text: "x".repeat(1000) }] }];
    const s = summarizeResult(textResult("Created /w/a.txt", { filePath: "/w/a.txt", type: "create", diff: { hunks, linesAdded: 1, linesRemoved: 0, truncated: true, linesCut: 1 } }));
    expect(s.fields).toEqual({ filePath: "/w/a.txt", type: "create", diff: { linesAdded: 1, linesRemoved: 0, truncated: true } });
  });

  it("carries the error kind when the result has one, and only then", () => {
    expect(summarizeResult(errorResult("not_found", "no such file", { filePath: "/w/x" }))).toMatchObject({ errorKind: "not_found", fields: { filePath: "/w/x" } });
    expect(summarizeResult(textResult("fine"))).not.toHaveProperty("errorKind");
    // A non-string errorKind (from a core older or newer than this summary) is not the documented field: left out.
    const odd = { content: [{ type: "text", text: "boom" }], structuredContent: { errorKind: { nested: true } }, isError: true } as unknown as ToolResult;
    expect(summarizeResult(odd)).not.toHaveProperty("errorKind");
  });

  it("describes images instead of repeating them", () => {
    const image: ToolResult = { content: [{ type: "image", data: "A".repeat(4_000_000), mimeType: "image/png" }], structuredContent: { type: "image", filePath: "/w/p.png" }, isError: false };
    const s = summarizeResult(image);
    expect(s.preview).toBe("[image image/png, 3000000 bytes]");
    expect(s.resultBytes).toBeGreaterThan(4_000_000);
    expect(jsonBytes(s)).toBeLessThan(1024);
  });

  it("stays bounded with hostile strings in every header field: long paths, control characters, multi-byte ids", () => {
    const hostile = "\u0001日".repeat(5000);
    const structured: Record<string, unknown> = {};
    for (const name of ["signal", "signalName", "backgroundTaskId", "outputPath", "cwd", "stdoutPath", "stderrPath", "filePath", "type", "mode", "taskId", "errorKind"]) structured[name] = hostile;
    const s = summarizeResult({ content: [{ type: "text", text: "\u0001".repeat(100_000) }], structuredContent: structured, isError: true } as ToolResult);
    const stringBytes = Object.values(s.fields)
      .filter((v) => typeof v === "string")
      .reduce((n, v) => n + jsonBytes(v), 0);
    expect(stringBytes).toBeLessThanOrEqual(SUMMARY_STRINGS_BYTES);
    // The budget is shared: the first fields get it, later ones are left out rather than shown empty.
    expect(Object.keys(s.fields).length).toBeGreaterThan(0);
    expect(Object.values(s.fields)).not.toContain("");
    expect(jsonBytes(s)).toBeLessThan(SUMMARY_LIMIT);
  });

  it("ignores members that are not scalars, and a missing structuredContent", () => {
    expect(summarizeResult(textResult("x", { exitCode: { a: 1 }, filePath: ["a"], numFiles: 3 })).fields).toEqual({ numFiles: 3 });
    expect(summarizeResult({ content: [], isError: false } as unknown as ToolResult)).toMatchObject({ preview: "", textChars: 0, fields: {} });
  });
});
