// Read: a file's lines, numbered like `cat -n`, from an offset, streaming so a window deep in a
// huge file costs no more memory than the window itself.
import { createReadStream, promises as fsp } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineTool, errorResult, textResult } from "../core/tool.js";

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;

const description = `Reads a file from the local file system and returns its lines numbered like \`cat -n\` (line number, a tab, then the line).

Usage:
- file_path may be absolute or relative to the session's working directory.
- By default up to ${READ_DEFAULT_LIMIT} lines are returned from the start of the file. Use offset (1-based line number) and limit to read a specific window of a long file; prefer reading the whole file when it is small.
- Lines longer than ${READ_MAX_LINE_CHARS} characters are cut.
- To search inside files use Grep; to find files by name use Glob.`;

const inputSchema = z.strictObject({
  file_path: z.string().min(1).describe("Path of the file to read (absolute, or relative to the working directory)"),
  offset: z.number().int().min(1).optional().describe("Line number to start reading from (1-based). Only for files too long to read at once"),
  limit: z.number().int().min(1).optional().describe("Number of lines to read. Only for files too long to read at once"),
});

export function formatLine(lineNumber: number, text: string, width = 6): string {
  const cut = text.length > READ_MAX_LINE_CHARS ? text.slice(0, READ_MAX_LINE_CHARS) + "… [line truncated]" : text;
  return `${String(lineNumber).padStart(width)}\t${cut}`;
}

interface Window {
  lines: string[];
  totalLines: number;
}

/** Streams the file once: keeps lines [start, start+limit) and counts the rest. */
async function readWindow(file: string, start: number, limit: number, signal: AbortSignal): Promise<Window> {
  const lines: string[] = [];
  let lineNo = 0;
  let carry = "";
  let sawAny = false;
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024, signal });
  for await (const chunk of stream as AsyncIterable<string>) {
    sawAny = true;
    let text = carry + chunk;
    let from = 0;
    for (;;) {
      const nl = text.indexOf("\n", from);
      if (nl === -1) break;
      lineNo++;
      if (lineNo >= start && lines.length < limit) lines.push(stripCr(text.slice(from, nl)));
      from = nl + 1;
    }
    carry = text.slice(from);
    text = "";
  }
  if (carry.length > 0) {
    lineNo++;
    if (lineNo >= start && lines.length < limit) lines.push(stripCr(carry));
  }
  return { lines, totalLines: sawAny ? lineNo : 0 };
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

export const readTool = defineTool({
  name: "Read",
  description,
  inputSchema,
  annotations: { title: "Read file", readOnlyHint: true },
  async run(input, ctx) {
    const file = path.resolve(ctx.session.cwd, input.file_path);
    let stat;
    try {
      stat = await fsp.stat(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return errorResult(`File does not exist: ${file}. Check the path, or use Glob to find the file.`);
      if (code === "EACCES") return errorResult(`Permission denied reading ${file}. Choose a file you can read.`);
      return errorResult(`Cannot read ${file}: ${(err as Error).message}`);
    }
    if (stat.isDirectory()) return errorResult(`${file} is a directory, not a file. Use Glob or Bash \`ls\` to list it.`);
    if (!stat.isFile()) return errorResult(`${file} is not a regular file (FIFO, socket or device); it cannot be read.`);

    const start = input.offset ?? 1;
    const limit = input.limit ?? READ_DEFAULT_LIMIT;
    const { lines, totalLines } = await readWindow(file, start, limit, ctx.signal);
    if (totalLines === 0) {
      return textResult(`<system-reminder>The file ${file} exists but is empty.</system-reminder>`, {
        filePath: file,
        startLine: 1,
        numLines: 0,
        totalLines: 0,
        truncated: false,
      });
    }
    if (start > totalLines) {
      return errorResult(`offset ${start} is past the end of ${file}, which has ${totalLines} lines. Use an offset between 1 and ${totalLines}.`);
    }
    const last = start + lines.length - 1;
    const width = Math.max(6, String(last).length);
    const body = lines.map((l, i) => formatLine(start + i, l, width)).join("\n");
    const truncated = last < totalLines;
    const footer = truncated
      ? `\n\n[Showing lines ${start}-${last} of ${totalLines}. Use offset=${last + 1} to continue.]`
      : "";
    return textResult(body + footer, {
      filePath: file,
      startLine: start,
      numLines: lines.length,
      totalLines,
      truncated,
    });
  },
});
