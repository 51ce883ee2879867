// Write: create a file, or replace one this conversation has read and that has not changed since
// (FS-WRITE), atomically (FS-ATOMIC). Replacing keeps the file's encoding, byte-order mark, mode
// and owner, and turns LF into CRLF when the file used CRLF throughout and the content has no CR.
import { promises as fsp, type Stats } from "node:fs";
import { z } from "zod";
import { defineTool, osString, errorResult, textResult } from "../core/tool.js";
import { countNewlines, emptyDiff, structuredDiff, unavailableDiff, wholeTextRegion } from "../fs/diff.js";
import { withFileLock } from "../fs/fileLock.js";
import { commitChange, fsErrorResult, isToolResult, loadForChange, SPLIT_NOTE } from "./fileChange.js";
import { fileKey, resolveToolPath } from "../fs/paths.js";
import { READ_STATE, sha256 } from "../fs/readState.js";
import { looksBinary, SNIFF_BYTES } from "../fs/sniff.js";
import { canEncode, describeFormat, encodeText, lineEndingStyle, textShape, UTF8, type TextFormat } from "../fs/textCodec.js";

const description = `Writes a file: creates it (with any missing parent directories) or replaces its whole content.

Usage:
- To replace an existing file you must have Read it in this conversation, and it must not have changed on disk since (otherwise read it again). Grep and Glob results do not count as reading. New files need no Read.
- Prefer Edit for changing part of an existing file: it sends only the change. Use Write for new files or complete rewrites.
- The content is written as given. An existing file keeps its encoding, byte-order mark, permissions and owner; if it used CRLF line endings throughout and your content has none, your LF line endings are written as CRLF.
- The write is atomic: other programs see the old file or the new one, never a half-written file.
- Do not create documentation or README files unless asked to.
- Writing outside the project (and its allowed directories), or a project file that runs code later (.git/, .envrc, .vscode/, .idea/, .claude/, .husky/, ...), may need the user's approval; a write that is not approved changes nothing. A path counts where it really leads: a symlink in the project that points outside (even to a file that does not exist yet) is a write outside. A file with several hard links counts as outside too, since its other names may be anywhere; if approved, all its names change.
- If another program changes or creates the file while you write it, the write is refused as stale: Read it again and redo your change.`;

const inputSchema = z.strictObject({
  file_path: osString("path").min(1).describe("Path of the file to write (absolute, or relative to the working directory)"),
  content: z.string().describe("The complete content of the file"),
});

function countLines(text: string): number {
  if (text === "") return 0;
  const n = countNewlines(text, 0, text.length) + 1;
  return text.endsWith("\n") ? n - 1 : n;
}

export const writeTool = defineTool({
  name: "Write",
  description,
  inputSchema,
  annotations: { title: "Write file", readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  // Always asked for, so deny rules such as `Write(**/.env)` apply inside the workspace too; a
  // path inside the allowed directories is allowed without a question unless it runs code later
  // (permissions/sensitive.ts).
  permission: (input, ctx) => ({ tool: "Write", path: resolveToolPath(input.file_path, ctx.session.cwd) }),
  async run(input, ctx) {
    const abs = resolveToolPath(input.file_path, ctx.session.cwd);
    return withFileLock(fileKey(abs), async () => {
      let stat: Stats | undefined;
      try {
        stat = await fsp.stat(abs);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") return fsErrorResult(err, abs, "reading");
      }
      if (stat && !stat.isFile()) {
        return errorResult(stat.isDirectory() ? "is_directory" : "not_a_file", `${abs} is not a regular file${stat.isDirectory() ? " (it is a directory)" : ""}; Write writes files.`, {
          filePath: abs,
        });
      }

      let content = input.content;
      let format: TextFormat = UTF8;
      // The old text, decoded only for the diff (UTF-8 needs no decoding to choose the format).
      let oldText: (() => string) | undefined;
      let loadedBytes: Buffer | undefined;
      if (stat) {
        const loaded = await loadForChange(ctx.session, abs, stat, "Write");
        if (isToolResult(loaded)) return loaded;
        loadedBytes = loaded.bytes;
        if (loaded.bytes && !looksBinary(loaded.bytes.subarray(0, SNIFF_BYTES))) {
          const old = await textShape(loaded.bytes);
          if (old.roundTrips) format = old.format;
          oldText = old.text;
          if (old.lineEnding === "CRLF" && !content.includes("\r")) content = content.replace(/\n/g, "\r\n");
        }
      }
      if (!canEncode(content, format)) {
        return errorResult(
          "invalid_argument",
          `${abs} is encoded as ${describeFormat(format)}, which cannot represent some characters of the content. Use only characters that encoding can hold, or convert the file to UTF-8 first (Bash \`iconv\`).`,
          { filePath: abs },
        );
      }
      const data = encodeText(content, format);
      const newNormalized = content.replace(/\r\n/g, "\n");
      const lines = countLines(content);
      const shape = {
        filePath: abs,
        lines,
        characters: content.length,
        bytes: data.length,
        encoding: describeFormat(format),
        lineEnding: lineEndingStyle(content),
      };

      if (stat && loadedBytes && data.equals(loadedBytes)) {
        ctx.session.service(READ_STATE).set(fileKey(abs), { mtimeMs: stat.mtimeMs, size: stat.size, hash: sha256(data), source: "write", full: true });
        return textResult(`${abs} already has exactly this content; nothing was written.`, {
          ...shape,
          type: "unchanged",
          writeMethod: null,
          diff: emptyDiff(),
        });
      }

      const describe = async () => {
        const before = stat ? oldText?.().replace(/\r\n/g, "\n") : "";
        if (before === undefined) return unavailableDiff();
        const region = wholeTextRegion(before, newNormalized);
        return structuredDiff(before, newNormalized, region ? [region] : []);
      };
      // Described while the new content is flushed to disk, where the write would only wait.
      let describing: ReturnType<typeof describe> | undefined;
      const whileFlushing = () => {
        describing = describe();
        describing.catch(() => undefined);
      };
      const committed = await commitChange(ctx, abs, data, "write", "Write", stat ? { kind: "file", stat, bytes: loadedBytes } : { kind: "absent" }, whileFlushing);
      if (isToolResult(committed)) return committed;
      const diff = await (describing ?? describe());
      const verb = committed.created ? "Created" : "Overwrote";
      const notes: string[] = [];
      if (content !== input.content) notes.push("Line endings were written as CRLF, like the rest of the file.");
      if (committed.method === "in-place") notes.push("The file has several hard links, so it was rewritten in place to keep them.");
      if (committed.splitHardLinks) notes.push(SPLIT_NOTE);
      return textResult(`${verb} ${abs} (${lines} line${lines === 1 ? "" : "s"}, ${content.length} characters).${notes.length ? " " + notes.join(" ") : ""}`, {
        ...shape,
        type: committed.created ? "create" : "update",
        writeMethod: committed.method,
        diff,
      });
    });
  },
});
