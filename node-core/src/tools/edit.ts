// Edit: exact string replacement in a file this conversation has read (FS-EDIT), written
// atomically and losslessly (encoding, BOM, line endings, mode), serialised per file across the
// whole core, with a structured diff for the host (FS-EDIT-3).
import { promises as fsp, type Stats } from "node:fs";
import { z } from "zod";
import { defineTool, osString, errorResult, textResult, type ToolContext, type ToolResult } from "../core/tool.js";
import { computeDiff, structuredDiff, wholeTextRegion, type StructuredDiff } from "../fs/diff.js";
import { withFileLock } from "../fs/fileLock.js";
import { commitChange, fsErrorResult, isToolResult, loadForChange, SPLIT_NOTE } from "./fileChange.js";
import { describeMissing, fileKey, resolveToolPath } from "../fs/paths.js";
import { applyReplacements, findAll, lineNumberAt, nearMissHint, normalizeCrlf } from "../fs/replace.js";
import { looksBinary, SNIFF_BYTES } from "../fs/sniff.js";
import { clipText, cutChars, jsonBytes } from "../util/text.js";
import { canEncode, decodeText, describeFormat, detectLineEndings, encodeText, lineEndingStyle } from "../fs/textCodec.js";

const description = `Replaces exact text in a file: old_string becomes new_string.

Usage:
- Read the file in this conversation first. An Edit of a file you have not read is refused, and so is one of a file that changed on disk since you read it (read it again). Grep and Glob results do not count as reading.
- old_string must match the file exactly, including indentation (tabs vs spaces) and blank lines. Copy it from the Read output without the line-number prefix (everything after the tab).
- Use the smallest old_string that is clearly unique in the file: usually 2-4 adjacent lines, or part of a single line. Do not paste large blocks or whole functions; long strings are easy to get wrong.
- If old_string occurs more than once, the edit fails with the count: add surrounding lines to make it unique, or set replace_all to change every occurrence (e.g. renaming a variable).
- Line endings need no care: LF in old_string matches CRLF in the file, and the file keeps its own line endings, encoding and byte-order mark.
- new_string is inserted literally ($& or $1 have no special meaning). old_string and new_string must differ.
- To create a file, prefer Write; an Edit with an empty old_string creates a file that does not exist yet.
- Your successful edits count as reading: consecutive edits of the same file need no Read in between.
- Editing files outside the project (and its allowed directories), or a project file that runs code later (.git/, .envrc, .vscode/, .idea/, .claude/, .husky/, ...), may need the user's approval; an edit that is not approved changes nothing. A path counts where it really leads (symlinks followed), and a file with several hard links counts as outside, since its other names may be anywhere; if approved, all its names change.
- The file is checked again just before it is replaced: if another program changed it after your Read (a formatter, a log line appended), the edit fails as stale and nothing is lost; Read it again and redo the edit.`;

const inputSchema = z.strictObject({
  file_path: osString("path").min(1).describe("Path of the file to modify (absolute, or relative to the working directory)"),
  old_string: z.string().describe("The exact text to replace (the smallest clearly unique snippet, usually 2-4 lines)"),
  new_string: z.string().describe("The text to replace it with (must differ from old_string)"),
  replace_all: z.boolean().optional().default(false).describe("Replace every occurrence of old_string (default false)"),
});

/** How much of an old_string that was not found the error repeats (FS-EDIT-6). */
const ERROR_STRING_CHARS = 200;
const SNIPPET_CONTEXT = 3;
const SNIPPET_MAX_LINES = 40;
/** A longer snippet line shows this many characters of itself, around the change if it holds it. */
const SNIPPET_LINE_CHARS = 500;
/** Characters of a long line shown before the change starts. */
const SNIPPET_LEAD_CHARS = 100;
/** What the snippet may add to the result, serialised (JSON, UTF-8). */
const SNIPPET_MAX_BYTES = 16 * 1024;

/**
 * A long line as a window of SNIPPET_LINE_CHARS characters: around [from, to) when the change
 * touches the line, else its start; what is left out is said in brackets.
 */
function lineWindow(line: string, lineStart: number, from: number, to: number): string {
  if (line.length <= SNIPPET_LINE_CHARS) return line;
  const touches = from <= lineStart + line.length && to >= lineStart;
  let start = touches ? Math.max(0, from - lineStart - SNIPPET_LEAD_CHARS) : 0;
  start = Math.min(start, line.length - SNIPPET_LINE_CHARS);
  // Never split a surrogate pair at either end.
  if (start > 0 && isLowSurrogate(line.charCodeAt(start))) start++;
  const shown = cutChars(line.slice(start), SNIPPET_LINE_CHARS);
  const after = line.length - start - shown.length;
  return `${start > 0 ? `[… ${start} characters] ` : ""}${shown}${after > 0 ? ` [… ${after} more characters]` : ""}`;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Numbered lines of the new text around a change (offsets [from, to), first line `firstLine`),
 * like Read shows them. Works on a slice, so it costs nothing on a large file, and stays within
 * SNIPPET_MAX_BYTES however long the lines are.
 */
function snippet(newText: string, from: number, to: number, firstLine: number): string {
  const before = (i: number) => (i <= 0 ? -1 : newText.lastIndexOf("\n", i - 1));
  let start = before(from) + 1;
  let up = 0;
  while (up < SNIPPET_CONTEXT && start > 0) {
    start = before(start - 1) + 1;
    up++;
  }
  const out: string[] = [];
  let bytes = 0;
  let lineStart = start;
  // After the line holding the change's last character, then SNIPPET_CONTEXT more lines.
  const lastChangedLineEnd = newText.indexOf("\n", Math.max(from, to - 1));
  let afterChange = 0;
  while (lineStart < newText.length && out.length < SNIPPET_MAX_LINES) {
    if (lastChangedLineEnd !== -1 && lineStart > lastChangedLineEnd && ++afterChange > SNIPPET_CONTEXT) break;
    const nl = newText.indexOf("\n", lineStart);
    const lineEnd = nl === -1 ? newText.length : nl;
    const line = `${String(firstLine - up + out.length).padStart(6)}\t${lineWindow(newText.slice(lineStart, lineEnd), lineStart, from, to)}`;
    const cost = jsonBytes(line);
    if (bytes + cost > SNIPPET_MAX_BYTES && out.length > 0) {
      out.push("[… the rest of the change is not shown here]");
      break;
    }
    bytes += cost;
    out.push(line);
    if (nl === -1) break;
    lineStart = nl + 1;
  }
  return out.join("\n");
}

function diffSummary(diff: StructuredDiff): string {
  return `+${diff.linesAdded} -${diff.linesRemoved} lines`;
}

async function createFile(abs: string, content: string, ctx: ToolContext): Promise<ToolResult> {
  const committed = await commitChange(ctx, abs, Buffer.from(content, "utf8"), "edit", "Edit", { kind: "absent" });
  if (isToolResult(committed)) return committed;
  const region = wholeTextRegion("", content.replace(/\r\n/g, "\n"));
  const diff = await structuredDiff("", content.replace(/\r\n/g, "\n"), region ? [region] : []);
  const lines = content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
  return textResult(`Created ${abs} (${lines} line${lines === 1 ? "" : "s"}) with new_string as its content.`, {
    filePath: abs,
    created: true,
    replacements: 0,
    startLine: 1,
    encoding: "utf-8",
    lineEnding: lineEndingStyle(content),
    writeMethod: committed.method,
    diff,
  });
}

export const editTool = defineTool({
  name: "Edit",
  description,
  inputSchema,
  annotations: { title: "Edit file", readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  // Always asked for, so deny rules such as `Write(**/.env)` apply inside the workspace too; a
  // path inside the allowed directories is allowed without a question unless it runs code later
  // (permissions/sensitive.ts).
  permission: (input, ctx) => ({ tool: "Edit", path: resolveToolPath(input.file_path, ctx.session.cwd) }),
  async run(input, ctx) {
    const abs = resolveToolPath(input.file_path, ctx.session.cwd);
    const oldString = input.old_string.replace(/\r\n/g, "\n");
    const newString = input.new_string.replace(/\r\n/g, "\n");
    if (input.old_string === input.new_string || oldString === newString) {
      return errorResult("invalid_argument", "old_string and new_string are identical, so there is nothing to change. Give the text you want in new_string.", { filePath: abs });
    }

    return withFileLock(fileKey(abs), async () => {
      let stat: Stats;
      try {
        stat = await fsp.stat(abs);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== "ENOENT") return fsErrorResult(err, abs, "reading");
        if (oldString === "") return createFile(abs, input.new_string, ctx);
        return errorResult("not_found", describeMissing(abs, ctx.session.cwd), { filePath: abs });
      }
      if (!stat.isFile())
        return errorResult(stat.isDirectory() ? "is_directory" : "not_a_file", `${abs} is not a regular file${stat.isDirectory() ? " (it is a directory)" : ""}; Edit changes text files.`, {
          filePath: abs,
        });
      if (oldString === "") {
        return errorResult("invalid_argument", `old_string is empty but ${abs} already exists. Give the exact text to replace (read the file first), or use Write to replace the whole file.`, {
          filePath: abs,
        });
      }

      const loaded = await loadForChange(ctx.session, abs, stat, "Edit");
      if (isToolResult(loaded)) return loaded;
      const bytes = loaded.bytes!;
      if (looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
        return errorResult("binary", `${abs} is a binary file; Edit changes text files only.`, { filePath: abs });
      }
      const decoded = await decodeText(bytes);
      if (!decoded.roundTrips) {
        return errorResult(
          "damaged",
          `${abs} contains bytes that are invalid in its encoding (${describeFormat(decoded.format)}), so Edit cannot rewrite it without changing them. Change it with Bash (e.g. \`sed -i\`) instead.`,
          { filePath: abs },
        );
      }
      const { normalized, crlfAt } = normalizeCrlf(decoded.text);
      const positions = findAll(normalized, oldString);
      if (positions.length === 0) {
        const hint = nearMissHint(normalized, oldString);
        return errorResult(
          "no_match",
          `String to replace not found in ${abs}.\nString: ${clipText(input.old_string, ERROR_STRING_CHARS)}\n${hint ?? "Check whitespace (tabs vs spaces, trailing spaces) and line breaks, or Read the file again: it may differ from what you remember."}`,
          { filePath: abs },
        );
      }
      if (positions.length > 1 && !input.replace_all) {
        const lines = positions.slice(0, 10).map((p) => lineNumberAt(normalized, p));
        return errorResult(
          "not_unique",
          `old_string appears ${positions.length} times in ${abs} (at lines ${lines.join(", ")}${positions.length > 10 ? ", …" : ""}). Add surrounding lines to make it unique, or set replace_all to true to replace every occurrence.`,
          { filePath: abs, occurrences: positions.length },
        );
      }
      if (!canEncode(newString, decoded.format)) {
        return errorResult(
          "invalid_argument",
          `${abs} is encoded as ${describeFormat(decoded.format)}, which cannot represent some characters of new_string. Use only characters that encoding can hold (or convert the file to UTF-8 first with Bash \`iconv\`).`,
          { filePath: abs },
        );
      }

      const replaced = applyReplacements(decoded.text, normalized, crlfAt, positions, oldString, newString, () => detectLineEndings(decoded.text).dominant);
      const committed = await commitChange(ctx, abs, encodeText(replaced.text, decoded.format), "edit", "Edit", { kind: "file", stat, bytes });
      if (isToolResult(committed)) return committed;

      const { diff, regionLines } = await computeDiff(replaced.oldNormalized, replaced.newNormalized, replaced.regions);
      const first = replaced.regions[0]!;
      const startLine = regionLines[0]!.from;
      const what = replaced.count === 1 ? "1 occurrence" : `all ${replaced.count} occurrences`;
      const notes: string[] = [];
      if (loaded.mtimeChangedContentSame) notes.push("(The file's modification time had changed since your read, but its content had not.)");
      if (committed.method === "in-place") notes.push("(The file has several hard links, so it was rewritten in place to keep them.)");
      if (committed.splitHardLinks) notes.push(`(${SPLIT_NOTE})`);
      return textResult(
        [
          `Edited ${abs}: replaced ${what} (${diffSummary(diff)}). The file now reads, around the ${replaced.count === 1 ? "change" : "first change"}:`,
          snippet(replaced.newNormalized, first.newStart, first.newEnd, startLine),
          ...notes,
        ].join("\n"),
        {
          filePath: abs,
          created: false,
          replacements: replaced.count,
          startLine,
          encoding: describeFormat(decoded.format),
          lineEnding: lineEndingStyle(replaced.text),
          writeMethod: committed.method,
          diff,
        },
      );
    });
  },
});
