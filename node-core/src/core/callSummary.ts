// What `tool/finished` tells the host about a call's result: a bounded summary, never the result
// itself. The caller has the whole result in its `tools/call` answer; a host that did not make the
// call (an attached agent's) asks for it with `calls/result` (PROTOCOL.md "Bounded results").
import { clipJson, jsonBytes } from "../util/text.js";
import { resultText, type ToolResult } from "./tool.js";

/** The preview: the result's text cut at this many characters … */
export const SUMMARY_PREVIEW_CHARS = 2000;
/** … and at this many bytes of JSON (multi-byte text and escapes cost more than a byte each). */
export const SUMMARY_PREVIEW_BYTES = 4096;
/** A string field is cut at this many characters; paths and ids are shorter in practice. */
export const SUMMARY_STRING_CHARS = 256;
/** All string fields together take at most this many bytes of JSON; fields past it are left out. */
export const SUMMARY_STRINGS_BYTES = 2048;

type Scalar = string | number | boolean | null;

/**
 * The `structuredContent` members a card's header is built from (PROTOCOL.md "tool/finished"),
 * by tool: Bash and run_shell_command (outcome, where the output is), Edit and Write (the file),
 * Read, Glob and Grep (how much), TaskStop. Why a call failed is `errorKind`. Only scalars are copied.
 */
const HEADER_FIELDS = [
  "exitCode",
  "signal",
  "signalName",
  "interrupted",
  "timedOut",
  "sandboxed",
  "durationMs",
  "backgroundTaskId",
  "backgroundedByUser",
  "assistantAutoBackgrounded",
  "truncated",
  "outputPath",
  "outputBytes",
  "cwd",
  "cwdChanged",
  "cwdReset",
  "stdoutPath",
  "stderrPath",
  "stdoutBytes",
  "stderrBytes",
  "stdoutTruncated",
  "stderrTruncated",
  "filePath",
  "type",
  "created",
  "replacements",
  "startLine",
  "numLines",
  "totalLines",
  "numFiles",
  "numMatches",
  "totalMatches",
  "mode",
  "taskId",
  "stopped",
] as const;

/** The counts of an Edit's or Write's structured diff: the header's `+added −removed`. */
const DIFF_FIELDS = ["linesAdded", "linesRemoved", "truncated"] as const;

export interface ToolCallSummary {
  /** The result's text (text parts joined, images described), cut as PROTOCOL.md says. */
  preview: string;
  /** Characters of the whole text; more than the preview shows when it was cut. */
  textChars: number;
  /** The whole `tools/call` result serialised (JSON, UTF-8): what `calls/result` returns. */
  resultBytes: number;
  /** `structuredContent.errorKind`: every failed call has one (base/toolErrors.ts), a successful one none. */
  errorKind?: string;
  /** The header members of `structuredContent` the result has, under their own names. */
  fields: Record<string, Scalar | Partial<Record<(typeof DIFF_FIELDS)[number], Scalar>>>;
}

/**
 * The bounded summary of `result`, whatever the tool returned: at most about 7 KB of JSON (the
 * preview's 4 KB, the string fields' 2 KB, a few dozen numbers and flags). `resultBytes` is passed
 * in when the caller already serialised the result.
 */
export function summarizeResult(result: ToolResult, resultBytes = jsonBytes(result)): ToolCallSummary {
  const structured = result.structuredContent ?? {};
  let stringBudget = SUMMARY_STRINGS_BYTES;
  const fields: ToolCallSummary["fields"] = {};
  const scalar = (value: unknown): Scalar | undefined => {
    if (value === null || typeof value === "number" || typeof value === "boolean") return value;
    if (typeof value !== "string") return undefined;
    const cut = clipJson(value, SUMMARY_STRING_CHARS, stringBudget);
    // A budget too small for even the marker leaves the field out rather than showing "".
    if (cut === "" && value !== "") return undefined;
    stringBudget -= jsonBytes(cut);
    return cut;
  };
  for (const name of HEADER_FIELDS) {
    const value = scalar(structured[name]);
    if (value !== undefined) fields[name] = value;
  }
  const diff = structured.diff;
  if (diff && typeof diff === "object" && !Array.isArray(diff)) {
    const counts: Partial<Record<(typeof DIFF_FIELDS)[number], Scalar>> = {};
    for (const name of DIFF_FIELDS) {
      const value = (diff as Record<string, unknown>)[name];
      if (typeof value === "number" || typeof value === "boolean") counts[name] = value;
    }
    if (Object.keys(counts).length > 0) fields.diff = counts;
  }
  const text = resultText(result);
  const errorKind = structured.errorKind;
  return {
    preview: clipJson(text, SUMMARY_PREVIEW_CHARS, SUMMARY_PREVIEW_BYTES),
    textChars: text.length,
    resultBytes,
    ...(typeof errorKind === "string" ? { errorKind: clipJson(errorKind, 64, 128) } : {}),
    fields,
  };
}
