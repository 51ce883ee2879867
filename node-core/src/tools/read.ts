// Read: a file's lines numbered like `cat -n` (FS-READ-1/2), images as image content (FS-READ-3),
// notebooks cell by cell (FS-READ-7); binaries and documents refused with what to do instead
// (FS-READ-6); large files only in windows (FS-READ-5), streamed so a window deep in a huge file
// costs no more memory than the window; an unchanged re-read answered with a notice (FS-READ-4).
import { constants as fsConstants, promises as fsp, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool, osString, errorResult, textResult, type ToolContext, type ToolResult } from "../core/tool.js";
import { errorKindOfErrno } from "../base/toolErrors.js";
import { readLineWindow, type LineWindow } from "../fs/lineWindow.js";
import { cutChars, withArticle } from "../util/text.js";
import { renderNotebook, NotebookError } from "../fs/notebook.js";
import { describeMissing, fileKey, resolveToolPath } from "../fs/paths.js";
import { READ_STATE, sha256, type ReadRecord } from "../fs/readState.js";
import { binaryKindByContent, binaryKindByExtension, looksBinary, sniffImage, SNIFF_BYTES, type ImageMime } from "../fs/sniff.js";
import { decodeText, describeFormat, sniffFormat } from "../fs/textCodec.js";
import { boundReadPath, openedCredential, openedPath, readPathChanged } from "./readGuard.js";

const READ_DEFAULT_LIMIT = 2000;
const READ_MAX_LINE_CHARS = 2000;
/** Files larger than this need an explicit `limit`. */
const READ_MAX_BYTES = 256 * 1024;
const READ_MAX_TOKENS = 25_000;
/** Raw image bytes whose base64 stays within the 5 MB models accept. */
export const READ_MAX_IMAGE_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4);
const READ_MAX_IMAGE_SIDE = 8000;
const MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024;
const MAX_NOTEBOOK_IMAGES = 20;
/** Bytes read up front to tell images, binaries, notebooks and encodings apart. */
const HEAD_BYTES = 64 * 1024;

const description = `Reads a file from the local file system. Text comes back numbered like \`cat -n\`: the line number right-aligned, a tab, then the line.

Usage:
- file_path may be absolute or relative to the session's working directory; \`~\` is the home directory.
- By default up to ${READ_DEFAULT_LIMIT} lines are returned from the start of the file. For long files pass offset (1-based line number) and limit to read a window; prefer reading a small file whole.
- Files over 256 KB must be read in windows (give limit); a window worth more than ${READ_MAX_TOKENS.toLocaleString("en-US")} tokens is refused — read a smaller window or search with Grep (or jq for JSON).
- Lines longer than ${READ_MAX_LINE_CHARS} characters are cut and marked.
- Images (PNG, JPEG, GIF, WebP — recognised by content) are returned as images you can look at. Jupyter notebooks (.ipynb) come back whole, cell by cell with their outputs (offset and limit do not apply).
- PDF, Office documents, archives and other binaries are refused with a hint on how to convert them (usually a Bash command).
- Read files before you Edit or Write them: edits to files this conversation has not read are refused. Grep and Glob results do not count as reads.
- If you read the same range of a file again and it has not changed, you get a short notice instead of the content: use the earlier result.
- Credential stores (~/.ssh, ~/.aws, ~/.netrc, tokens, shell histories, ...), system secrets and Wave's state directory are read only with the user's approval — symlinks and /proc paths are followed to where they lead: the call is asked (denied in deny-all). Do not try to reach them another way.
- To search inside files use Grep; to find files by name use Glob; to list a directory use Bash \`ls\`.`;

const inputSchema = z.strictObject({
  file_path: osString("path").min(1).describe("Path of the file to read (absolute, or relative to the working directory)"),
  offset: z.number().int().min(0).optional().describe("Line number to start reading from (1-based; 0 also means the start). Only for files too long to read at once"),
  limit: z.number().int().min(1).optional().describe("Number of lines to read. Only for files too long to read at once"),
});

type ReadInput = z.output<typeof inputSchema>;

function formatLine(lineNumber: number, text: string, width = 6, cut = false): string {
  return `${String(lineNumber).padStart(width)}\t${text}${cut ? " … [line cut]" : ""}`;
}

const CJK = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/** Rough token count: CJK characters one each, other text four characters a token (two for JSON). */
export function estimateTokens(text: string, dense = false): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / (dense ? 2 : 4));
}

function isDenseFormat(file: string): boolean {
  return [".json", ".jsonl", ".jsonc", ".ndjson"].includes(path.extname(file).toLowerCase());
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(2)} MB`;
}

function statError(err: unknown, abs: string, cwd: string): ToolResult {
  const code = (err as NodeJS.ErrnoException).code;
  return errorResult(errorKindOfErrno(code), statErrorText(code, abs, cwd, err), { filePath: abs });
}

function statErrorText(code: string | undefined, abs: string, cwd: string, err: unknown): string {
  switch (code) {
    case "ENOENT":
      return describeMissing(abs, cwd);
    case "EACCES":
    case "EPERM":
      return `Permission denied reading ${abs}. Choose a file you can read, or check its permissions with Bash \`ls -l\`.`;
    case "ELOOP":
      return `${abs} is a symbolic link loop (a link that leads back to itself). Fix the link.`;
    case "ENOTDIR":
      return `${abs} cannot exist: part of its path is a file, not a directory. Check the path.`;
    case "ENAMETOOLONG":
      return `The path is too long: ${abs.slice(0, 200)}…`;
    default:
      return `Cannot read ${abs}: ${(err as Error).message}`;
  }
}

function specialFileError(abs: string, st: Stats): ToolResult | undefined {
  if (st.isDirectory()) return errorResult("is_directory", `${abs} is a directory, not a file. List it with Bash \`ls\`, or find files in it with Glob.`, { filePath: abs });
  if (st.isFIFO()) return errorResult("not_a_file", `${abs} is a named pipe (FIFO); reading it could block forever, so Read does not open it.`, { filePath: abs });
  if (st.isSocket()) return errorResult("not_a_file", `${abs} is a socket, not a file; it cannot be read.`, { filePath: abs });
  if (st.isCharacterDevice() || st.isBlockDevice()) return errorResult("not_a_file", `${abs} is a device file; Read does not read devices.`, { filePath: abs });
  if (!st.isFile()) return errorResult("not_a_file", `${abs} is not a regular file; it cannot be read.`, { filePath: abs });
  return undefined;
}

async function readHead(fh: FileHandle, bytes: number): Promise<Buffer> {
  const buf = Buffer.alloc(bytes);
  let total = 0;
  while (total < bytes) {
    const { bytesRead } = await fh.read(buf, total, bytes - total, total);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return buf.subarray(0, total);
}

/** FS-READ-4: the same range, mtime and size as this session's last Read (never after its own Edit/Write). */
function isUnchanged(record: ReadRecord | undefined, input: ReadInput, st: Stats): boolean {
  return record !== undefined && record.source === "read" && record.offset === input.offset && record.limit === input.limit && record.mtimeMs === st.mtimeMs && record.size === st.size;
}

function unchangedResult(abs: string, input: ReadInput): ToolResult {
  const range = input.offset !== undefined || input.limit !== undefined ? ` (offset ${input.offset ?? 1}, limit ${input.limit ?? READ_DEFAULT_LIMIT})` : "";
  return textResult(
    `[Notice, not file content] ${abs}${range} has not changed since your last Read of it in this conversation (same modification time and size). The earlier Read result is still current; refer to it instead of reading again.`,
    { type: "unchanged", filePath: abs, offset: input.offset ?? null, limit: input.limit ?? null },
  );
}

async function readImage(abs: string, file: string, st: Stats, mime: ImageMime): Promise<ToolResult> {
  const shrink = `Make a smaller copy with Bash (e.g. \`convert '${abs}' -resize '2000x2000>' /tmp/smaller.png\`) and read that.`;
  if (st.size > READ_MAX_IMAGE_BYTES) {
    return errorResult("too_large", `Image ${abs} is ${formatBytes(st.size)}; models accept images up to ${formatBytes(READ_MAX_IMAGE_BYTES)}. ${shrink}`, {
      filePath: abs,
      bytes: st.size,
    });
  }
  const data = await fsp.readFile(file);
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Loaded on the first image: most reads are text.
    const { imageSize } = await import("image-size");
    const dims = imageSize(data);
    width = dims.width;
    height = dims.height;
  } catch (err) {
    return errorResult("damaged", `${abs} looks like ${mime} but its header cannot be read (${(err as Error).message}); the image is probably damaged or truncated.`, { filePath: abs });
  }
  if ((width ?? 0) > READ_MAX_IMAGE_SIDE || (height ?? 0) > READ_MAX_IMAGE_SIDE) {
    return errorResult("too_large", `Image ${abs} is ${width}×${height} pixels; models accept at most ${READ_MAX_IMAGE_SIDE} pixels per side. ${shrink}`, {
      filePath: abs,
      width,
      height,
    });
  }
  const format = mime.slice("image/".length).toUpperCase();
  return {
    content: [
      { type: "text", text: `Image ${abs} (${format}, ${width}×${height} pixels, ${formatBytes(data.length)}).` },
      { type: "image", data: data.toString("base64"), mimeType: mime },
    ],
    structuredContent: { type: "image", filePath: abs, mimeType: mime, width, height, bytes: data.length },
    isError: false,
  };
}

async function readNotebook(abs: string, file: string, st: Stats): Promise<{ result: ToolResult; hash?: string }> {
  const jqHint = `Extract cells with Bash and jq, e.g. \`jq '.cells[0:10]' '${abs}'\``;
  if (st.size > MAX_NOTEBOOK_BYTES) {
    return { result: errorResult("too_large", `Notebook ${abs} is ${formatBytes(st.size)}, too large to render. ${jqHint}.`, { filePath: abs }) };
  }
  const raw = await fsp.readFile(file);
  let rendered;
  try {
    rendered = renderNotebook((await decodeText(raw)).text);
  } catch (err) {
    if (!(err instanceof NotebookError)) throw err;
    const message = `Cannot read ${abs} as a Jupyter notebook: ${err.message}. Repair the file, or inspect it with Bash (\`head -c 2000 '${abs}'\`).`;
    return { result: errorResult("damaged", message, { filePath: abs }) };
  }
  const tokens = estimateTokens(rendered.text);
  if (tokens > READ_MAX_TOKENS) {
    const message = `Notebook ${abs} renders to about ${tokens.toLocaleString("en-US")} tokens, more than the ${READ_MAX_TOKENS.toLocaleString("en-US")} a Read may return. ${jqHint}, or search it with Grep.`;
    return { result: errorResult("too_large", message, { filePath: abs, estimatedTokens: tokens }) };
  }
  const images = rendered.images.slice(0, MAX_NOTEBOOK_IMAGES).filter((img) => img.data.length <= (READ_MAX_IMAGE_BYTES * 4) / 3);
  const dropped = rendered.images.length - images.length;
  const text = rendered.text + (dropped > 0 ? `\n\n[${dropped} image output(s) not attached: too many or too large]` : "");
  const result: ToolResult = {
    content: [{ type: "text", text }, ...images.map((img) => ({ type: "image" as const, data: img.data, mimeType: img.mimeType }))],
    structuredContent: {
      type: "notebook",
      filePath: abs,
      cells: rendered.cellCount,
      language: rendered.language ?? null,
      nbformat: rendered.nbformat ?? null,
      images: images.length,
    },
    isError: false,
  };
  return { result, hash: sha256(raw) };
}

interface TextWindow extends LineWindow {
  encoding: string;
}

async function readTextWindow(file: string, st: Stats, head: Buffer, input: ReadInput, start: number, limit: number, signal: AbortSignal): Promise<TextWindow> {
  const full = input.offset === undefined && input.limit === undefined;
  if (st.size <= READ_MAX_BYTES) {
    // Small file: decode it whole, so the encoding is judged on every byte.
    const buf = st.size <= head.length ? head : await fsp.readFile(file);
    const decoded = await decodeText(buf);
    const all = decoded.text.split("\n");
    if (all[all.length - 1] === "") all.pop();
    const lines: string[] = [];
    const cutLines: number[] = [];
    for (let i = start - 1; i < Math.min(all.length, start - 1 + limit); i++) {
      let line = all[i]!;
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line.length > READ_MAX_LINE_CHARS) {
        cutLines.push(lines.length);
        line = cutChars(line, READ_MAX_LINE_CHARS);
      }
      lines.push(line);
    }
    return {
      lines,
      cutLines,
      totalLines: all.length,
      moreAfter: start - 1 + lines.length < all.length,
      hash: full ? sha256(buf) : undefined,
      encoding: describeFormat(decoded.format),
    };
  }
  const format = await sniffFormat(head, head.length >= st.size);
  const w = await readLineWindow(file, { start, limit, maxLineChars: READ_MAX_LINE_CHARS, format, size: st.size, signal, hash: full });
  return { ...w, encoding: describeFormat(format) };
}

async function readText(abs: string, file: string, st: Stats, head: Buffer, input: ReadInput, ctx: ToolContext): Promise<{ result: ToolResult; hash?: string }> {
  if (st.size > READ_MAX_BYTES && input.limit === undefined) {
    return {
      result: errorResult(
        "too_large",
        `${abs} is ${formatBytes(st.size)}, over the ${formatBytes(READ_MAX_BYTES)} a Read returns without a limit. Read it in windows with offset and limit (e.g. offset 1, limit 500), or search it with Grep.`,
        { filePath: abs, bytes: st.size },
      ),
    };
  }
  const start = input.offset ?? 1;
  const limit = input.limit ?? READ_DEFAULT_LIMIT;
  const w = await readTextWindow(file, st, head, input, start, limit, ctx.signal);
  if (w.totalLines === 0) {
    return {
      result: textResult(`[Notice, not file content] ${abs} exists but is empty (0 lines).`, {
        type: "empty",
        filePath: abs,
        startLine: 1,
        numLines: 0,
        totalLines: 0,
        truncated: false,
      }),
      hash: w.hash,
    };
  }
  if (w.lines.length === 0) {
    const total = w.totalLines ?? 0;
    return {
      result: errorResult("invalid_argument", `offset ${start} is past the end of ${abs}, which has ${total} line${total === 1 ? "" : "s"}. Use an offset between 1 and ${total}.`, {
        filePath: abs,
        totalLines: total,
      }),
    };
  }
  const last = start + w.lines.length - 1;
  const width = Math.max(6, String(last).length);
  const cut = new Set(w.cutLines);
  const body = w.lines.map((l, i) => formatLine(start + i, l, width, cut.has(i))).join("\n");
  const tokens = estimateTokens(body, isDenseFormat(abs));
  if (tokens > READ_MAX_TOKENS) {
    return {
      result: errorResult(
        "too_large",
        `Lines ${start}-${last} of ${abs} come to about ${tokens.toLocaleString("en-US")} tokens, more than the ${READ_MAX_TOKENS.toLocaleString("en-US")} a Read may return. Read a smaller window with offset and limit, or search for what you need with Grep${isDenseFormat(abs) ? " or Bash with jq" : " (or jq for JSON)"}.`,
        { filePath: abs, estimatedTokens: tokens },
      ),
    };
  }
  const notes: string[] = [];
  if (w.moreAfter) {
    const of = w.totalLines !== null ? `of ${w.totalLines}` : `of about ${w.estimatedTotalLines} (the rest of the file was not counted)`;
    notes.push(`[Showing lines ${start}-${last} ${of}. Use offset=${last + 1} to continue.]`);
  } else if (start > 1) {
    notes.push(`[Showing lines ${start}-${last} of ${w.totalLines}.]`);
  }
  if (w.cutLines.length > 0) {
    const nums = w.cutLines.slice(0, 10).map((i) => start + i);
    notes.push(
      `[Line${nums.length > 1 ? "s" : ""} ${nums.join(", ")}${w.cutLines.length > 10 ? ", …" : ""} ${w.cutLines.length > 1 ? "were" : "was"} longer than ${READ_MAX_LINE_CHARS} characters and cut; see the full text with Grep or Bash (e.g. \`sed -n '${nums[0]}p' file | cut -c 2001-4000\`).]`,
    );
  }
  return {
    result: textResult(notes.length > 0 ? `${body}\n\n${notes.join("\n")}` : body, {
      type: "text",
      filePath: abs,
      startLine: start,
      numLines: w.lines.length,
      totalLines: w.totalLines,
      ...(w.totalLines === null ? { estimatedTotalLines: w.estimatedTotalLines } : {}),
      truncated: w.moreAfter,
      cutLines: w.cutLines.map((i) => start + i),
      encoding: w.encoding,
    }),
    hash: w.hash,
  };
}

export const readTool = defineTool({
  name: "Read",
  description,
  inputSchema,
  annotations: { title: "Read file", readOnlyHint: true },
  // Credential stores, system secrets and Wave's state are asked first (readGuard.ts); every
  // other read is allowed without a question or a rule.
  permission: (input, ctx) => ({ tool: "Read", read: resolveToolPath(input.file_path, ctx.session.cwd) }),
  async run(given, ctx) {
    // offset 0 is the start, as in Claude Code's Read (whose offsets some agents count from 0).
    const input: ReadInput = given.offset === 0 ? { ...given, offset: undefined } : given;
    const abs = resolveToolPath(input.file_path, ctx.session.cwd);
    const bound = boundReadPath(ctx, abs, "Read");
    if ("isError" in bound) return bound;
    const real = bound.real;
    let st: Stats;
    try {
      st = await fsp.stat(real);
    } catch (err) {
      return statError(err, abs, ctx.session.cwd);
    }
    const special = specialFileError(abs, st);
    if (special) return special;

    const byExtension = binaryKindByExtension(abs);
    if (byExtension) {
      return errorResult("binary", `${abs} is ${withArticle(byExtension.name)}; Read returns text files, images (PNG, JPEG, GIF, WebP) and Jupyter notebooks. ${byExtension.advice}`, {
        filePath: abs,
        kind: byExtension.name,
      });
    }

    const readState = ctx.session.service(READ_STATE);
    const key = fileKey(abs);
    if (isUnchanged(readState.get(key), input, st)) return unchangedResult(abs, input);

    // One open of the judged path; everything is read through that descriptor (on Linux by
    // /proc/self/fd, which reopens the very same file), so a link swapped after the check
    // changes nothing.
    let fh: FileHandle;
    try {
      fh = await fsp.open(real, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    } catch (err) {
      return statError(err, abs, ctx.session.cwd);
    }
    try {
      return await readOpened(fh);
    } finally {
      await fh.close().catch(() => {});
    }

    async function readOpened(fh: FileHandle): Promise<ToolResult> {
      const opened = openedPath(fh.fd);
      if (opened !== undefined && opened !== real) return readPathChanged(abs, opened, real, "Read");
      try {
        st = await fh.stat();
      } catch (err) {
        return statError(err, abs, ctx.session.cwd);
      }
      const swapped = specialFileError(abs, st);
      if (swapped) return swapped;
      const linked = await openedCredential(ctx, fh, abs, real, "Read");
      if (linked) return linked;
      const file = opened !== undefined ? `/proc/self/fd/${fh.fd}` : real;
      let head: Buffer;
      try {
        head = await readHead(fh, HEAD_BYTES);
      } catch (err) {
        return statError(err, abs, ctx.session.cwd);
      }

      let outcome: { result: ToolResult; hash?: string };
      // The file can vanish or change kind between the checks above and the read (another program
      // renaming it): that is a file error to report, not a crash.
      const orFileError = async <T extends { result: ToolResult }>(read: Promise<T>): Promise<T | { result: ToolResult }> =>
        read.catch((err: NodeJS.ErrnoException) => {
          if (typeof err?.code !== "string") throw err;
          return { result: statError(err, abs, ctx.session.cwd) };
        });
      const image = sniffImage(head);
      if (image) {
        outcome = await orFileError(readImage(abs, file, st, image).then((result) => ({ result })));
      } else {
        const byContent = binaryKindByContent(head);
        if (byContent) {
          return errorResult("binary", `${abs} is ${withArticle(byContent.name)} (recognised by its content); Read returns text files, images and notebooks. ${byContent.advice}`, {
            filePath: abs,
            kind: byContent.name,
          });
        }
        if (looksBinary(head.subarray(0, SNIFF_BYTES))) {
          return errorResult(
            "binary",
            `${abs} is a binary file (its first bytes are not text); Read returns text files, images (PNG, JPEG, GIF, WebP) and notebooks. Inspect it with Bash (\`file\`, \`xxd | head\`, \`strings\`).`,
            { filePath: abs, kind: "binary" },
          );
        }
        outcome = await orFileError(path.extname(abs).toLowerCase() === ".ipynb" ? readNotebook(abs, file, st) : readText(abs, file, st, head, input, ctx));
      }
      if (!outcome.result.isError) {
        readState.set(key, {
          mtimeMs: st.mtimeMs,
          size: st.size,
          hash: outcome.hash,
          source: "read",
          offset: input.offset,
          limit: input.limit,
          full: input.offset === undefined && input.limit === undefined,
        });
      }
      return outcome.result;
    }
  },
});
