// What Edit and Write share (a module of tools/, not a tool): read-before-write (FS-EDIT-5,
// FS-WRITE-1), stale detection (FS-STALE), a last check that nobody wrote the file while we
// prepared the change (made by the writer right before its rename), the atomic write itself where
// the permission check approved (FS-ATOMIC), and the read-state update that lets the agent's next
// edit through.
import type { Stats } from "node:fs";
import type { Session } from "../base/session.js";
import { errorResult, type ToolContext, type ToolResult } from "../core/tool.js";
import { sandboxGuard } from "../shell/sandbox/guard.js";
import { PathChanged, TargetChanged, writeFileAtomic, type AtomicWriteHooks, type WriteExpectation, type WriteOutcome } from "../fs/atomicWrite.js";
import { fileKey } from "../fs/paths.js";
import { READ_STATE, checkFreshness, deferredSha256, sha256, type ReadSource } from "../fs/readState.js";
import { HARD_LINKED } from "../permissions/paths.js";
import { isDirectory, readWholeFile } from "../util/files.js";
import { isWithin } from "../util/paths.js";
import { errorKindOfErrno } from "../base/toolErrors.js";

/** Files larger than this are not loaded for Edit (and not diffed by Write). */
const MAX_EDIT_BYTES = 64 * 1024 * 1024;

export type ToolName = "Edit" | "Write";

/**
 * Failure injection for the Edit and Write tests: a failure after the temporary file is complete
 * and before the rename (ENOSPC, EIO) cannot be provoked from outside, and the tools must still
 * leave the file, the read state and the directory as they were. Unset in production.
 */
export const writeHooks: { current?: AtomicWriteHooks } = {};

export interface ExistingFile {
  abs: string;
  key: string;
  stat: Stats;
  /** The whole file, or undefined when it is larger than MAX_EDIT_BYTES. */
  bytes?: Buffer;
  /** The stale check passed only because the content hash still matched (FS-EDIT-7). */
  mtimeChangedContentSame: boolean;
}

function verb(tool: ToolName): string {
  return tool === "Edit" ? "editing" : "writing";
}

function notReadError(abs: string, tool: ToolName): ToolResult {
  return errorResult("not_read", `You must Read ${abs} in this conversation before ${verb(tool)} it (Grep and Glob results do not count as reading). Read it first, then retry.`, { filePath: abs });
}

function staleError(abs: string, tool: ToolName, reason: "modified" | "partial-read-outdated" | "appeared"): ToolResult {
  const why =
    reason === "modified"
      ? `${abs} has been modified since you last read it (by another program, a formatter, git, or a Bash command).`
      : reason === "appeared"
        ? `${abs} was created by another program while you were ${verb(tool)} it (it did not exist before).`
        : `${abs} has a newer modification time than when you read part of it (offset/limit), so its content cannot be confirmed unchanged.`;
  return errorResult("stale", `${why} Read it again before ${verb(tool)} it; your change was not applied.`, { filePath: abs });
}

/** A failed file operation: the kind its error code says, and the sentence describeFsError makes. */
export function fsErrorResult(err: unknown, abs: string, action: string): ToolResult {
  return errorResult(errorKindOfErrno((err as NodeJS.ErrnoException).code), describeFsError(err, abs, action), { filePath: abs });
}

function describeFsError(err: unknown, abs: string, action: string): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case "EACCES":
    case "EPERM":
      return `Permission denied ${action} ${abs}: ${e.message}. The file or its directory is not ${action === "reading" ? "readable" : "writable"} by this process; nothing was changed.`;
    case "EROFS":
      return `${abs} is on a read-only file system; nothing was changed.`;
    case "ENOSPC":
    case "EDQUOT":
      return `No space left on the device holding ${abs}; nothing was changed. Free some space and retry.`;
    case "EISDIR":
      return `${abs} is a directory, not a file.`;
    case "ELOOP":
      return `${abs} is a symbolic link loop; fix the link.`;
    case "ENOTDIR":
      return `Part of the path ${abs} is a file, not a directory.`;
    case "EFBIG":
      return `${abs} would exceed the maximum file size allowed for this process; nothing was changed.`;
    default:
      return `Failed ${action} ${abs}: ${e.message ?? String(err)}. Nothing was changed.`;
  }
}

/**
 * Loads an existing file for a change after the read-before-write and stale checks. Returns an
 * error result when the change must not go ahead.
 */
export async function loadForChange(session: Session, abs: string, stat: Stats, tool: ToolName): Promise<ExistingFile | ToolResult> {
  const key = fileKey(abs);
  const record = session.service(READ_STATE).get(key);
  if (!record) return notReadError(abs, tool);
  let bytes: Buffer | undefined;
  if (stat.size <= MAX_EDIT_BYTES || tool === "Edit") {
    if (stat.size > MAX_EDIT_BYTES) {
      return errorResult("too_large", `${abs} is ${(stat.size / 1048576).toFixed(0)} MB, too large for Edit (limit ${MAX_EDIT_BYTES / 1048576} MB). Change it with Bash (e.g. \`sed -i\`) instead.`, {
        filePath: abs,
      });
    }
    try {
      bytes = await readWholeFile(abs, stat.size);
    } catch (err) {
      return fsErrorResult(err, abs, "reading");
    }
  }
  const freshness = checkFreshness(record, stat.mtimeMs, () => sha256(bytes ?? Buffer.alloc(0)));
  if (!freshness.fresh) return staleError(abs, tool, freshness.reason);
  return { abs, key, stat, bytes, mtimeChangedContentSame: freshness.mtimeChanged };
}

/**
 * The workspace root or added directory holding `abs` that no longer exists, if any: a new file
 * there would silently recreate a folder the user deleted (or moved away), with only this file in it.
 */
function missingWorkspaceFolder(abs: string, folders: readonly string[]): string | undefined {
  return folders.find((dir) => isWithin(abs, dir) && !isDirectory(dir));
}

export function isToolResult(v: unknown): v is ToolResult {
  return typeof v === "object" && v !== null && "isError" in v && "content" in v;
}

export type Committed = WriteOutcome;

/** Said when a file gained another name after the permission check and only the given one was replaced. */
export const SPLIT_NOTE = "The file had gained another hard link since the permission check, so only this name was replaced; its other names keep the old content.";

/**
 * What the permission check before `run` approved: the real path it judged, and whether it saw
 * (and let through) a file with several hard links, whose rewrite changes every name it has.
 */
function approvalOf(ctx: ToolContext): { approvedPath?: string; keepHardLinks: boolean } {
  const decision = ctx.permission?.decision;
  if (decision?.kind !== "path") return { keepHardLinks: false };
  return { approvedPath: decision.path, keepHardLinks: decision.warnings.some((w) => w.id === HARD_LINKED) };
}

/**
 * Writes the new bytes atomically where the permission check approved, if the file is still what
 * the change was based on (`expected`, checked again just before the rename), and records the
 * result as this session's knowledge of the file, so its next Edit/Write passes the stale check
 * (and Read never answers "unchanged" for it).
 */
export async function commitChange(
  ctx: ToolContext,
  abs: string,
  data: Buffer,
  source: ReadSource,
  tool: ToolName,
  expected: WriteExpectation,
  whileFlushing?: () => void,
): Promise<Committed | ToolResult> {
  if (expected.kind === "absent") {
    const gone = missingWorkspaceFolder(abs, ctx.workspace.allowedDirectories());
    if (gone) {
      return errorResult(
        "not_found",
        `${abs} was not created: the workspace folder ${gone} no longer exists (it was deleted or moved), and ${tool} does not make it again. If the project moved, open it where it is now; to recreate the folder on purpose, make it first (e.g. Bash \`mkdir -p ${gone}\`), then retry.`,
        { filePath: abs },
      );
    }
  }
  let outcome: WriteOutcome;
  try {
    outcome = await writeFileAtomic(abs, data, { hooks: writeHooks.current, expected, whileFlushing, ...approvalOf(ctx) });
  } catch (err) {
    if (err instanceof TargetChanged) return staleError(abs, tool, err.how);
    if (err instanceof PathChanged) return errorResult("path_changed", err.message, { filePath: abs });
    return fsErrorResult(err, abs, "writing");
  }
  // A protected name written here is the user's (asked), not a sandboxed command's to be set aside.
  sandboxGuard.madeOutside(outcome.path);
  ctx.session.service(READ_STATE).set(fileKey(abs), {
    mtimeMs: outcome.stat.mtimeMs,
    size: outcome.stat.size,
    // The answer does not wait for the hash (2 MB cost a millisecond): only a later stale check needs it.
    hash: deferredSha256(data),
    source,
    full: true,
  });
  return outcome;
}
