// The file tools read where the permission check looked. A Read, Grep or Glob of a credential
// store, a system secret or Wave's state is asked first (permissions/decide.ts decideRead), judged
// at its real path; the tool then reads that path and nothing else: if the path leads elsewhere by
// the time it is opened (a link swapped in between), nothing is read.
import { readlinkSync } from "node:fs";
import { errorResult, type ToolContext, type ToolResult } from "../core/tool.js";
import { physicalPath } from "../util/paths.js";

/** The real path the permission check judged for this call's read, if it judged one. */
export function judgedReadPath(ctx: ToolContext): string | undefined {
  const d = ctx.permission?.decision;
  return d?.kind === "read" ? d.path : undefined;
}

export function readPathChanged(abs: string, now: string, judged: string, tool: string): ToolResult {
  return errorResult(
    "path_changed",
    `${abs} now leads to ${now}, not to ${judged}, which the permission check judged (a link or folder was replaced in between); nothing was read. Call ${tool} again to have the new target checked.`,
    { path: abs },
  );
}

/** Where `abs` really leads now, when that is still what the check judged; an error result otherwise. */
export function boundReadPath(ctx: ToolContext, abs: string, tool: string): { real: string } | ToolResult {
  const real = physicalPath(abs);
  const judged = judgedReadPath(ctx);
  if (judged !== undefined && real !== judged) return readPathChanged(abs, real, judged, tool);
  return { real };
}

/** Linux: the path of the file an open descriptor really is (the kernel's, after every link); elsewhere undefined. */
export function openedPath(fd: number): string | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}
