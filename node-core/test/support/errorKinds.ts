// Every tool result any test produces is checked against the error-kind contract
// (node-core/PROTOCOL.md, "Error kinds"): an `isError` result carries an `errorKind` from the
// union, a successful one carries none. In-process cores are checked by wrapping
// WaveCore.callTool (errorKindSetup.ts, a vitest setup file); cores in a child process by
// CoreProcess, on every response and notification that holds a tool result.
import { isToolErrorKind } from "../../src/base/toolErrors.js";

function isToolResultShape(v: unknown): v is { isError: unknown; content: unknown; structuredContent?: Record<string, unknown> } {
  return typeof v === "object" && v !== null && "isError" in v && Array.isArray((v as { content?: unknown }).content);
}

/** What is wrong with a tool result's error kind, or undefined when nothing (or when it is no tool result). */
export function errorKindProblem(result: unknown): string | undefined {
  if (!isToolResultShape(result)) return undefined;
  const kind = result.structuredContent?.errorKind;
  if (result.isError === true) {
    if (!isToolErrorKind(kind)) return `an isError result whose errorKind is ${JSON.stringify(kind)}, not one of TOOL_ERROR_KINDS`;
  } else if (kind !== undefined && kind !== null) {
    return `a successful result with errorKind ${JSON.stringify(kind)}`;
  }
  return undefined;
}

/** Throws when a tool result breaks the contract, naming where it came from and its text. */
export function assertErrorKind(result: unknown, where: string): void {
  const problem = errorKindProblem(result);
  if (!problem) return;
  const text = isToolResultShape(result) ? JSON.stringify(result.content).slice(0, 500) : "";
  throw new Error(`${where}: ${problem}. Text: ${text}`);
}

/**
 * tool/finished carries a summary, not the result: its `errorKind` follows the same contract — one
 * from the union on a failed call, none on a successful one.
 */
export function assertSummaryErrorKind(params: { isError?: unknown; summary?: { errorKind?: unknown; preview?: unknown } } | undefined, where: string): void {
  if (!params?.summary) throw new Error(`${where}: no summary`);
  const problem = errorKindProblem({ isError: params.isError, content: [], structuredContent: { errorKind: params.summary.errorKind } });
  if (problem) throw new Error(`${where}: ${problem} (in its summary). Preview: ${String(params.summary.preview).slice(0, 500)}`);
}
