// Streams a text file once to return the lines [start, start+limit): memory stays bounded by the
// window (a line longer than the display cap is kept only up to the cap), lines before the window
// are skipped at memchr speed, and counting after the window stops early when the rest is large.
import { createHash } from "node:crypto";
import { promises as fsp } from "node:fs";
import { iconv, loadCodecs } from "../util/codecs.js";
import { cutChars } from "../util/text.js";
import { decodeAs, detectBom, type TextFormat } from "./textCodec.js";

export interface WindowOptions {
  /** First line to return, 1-based. */
  start: number;
  limit: number;
  /** Lines longer than this many characters are cut. */
  maxLineChars: number;
  format: TextFormat;
  /** File size from the caller's stat, for the early-stop decision and the estimate. */
  size: number;
  signal?: AbortSignal;
  /** Hash every byte (full reads): forces reading to the end. */
  hash?: boolean;
  /** Once the window is full, count the remaining lines only if at most this many bytes remain. */
  countBudgetBytes?: number;
  chunkBytes?: number;
}

export interface LineWindow {
  lines: string[];
  /** Indexes into `lines` of the lines that were cut at maxLineChars. */
  cutLines: number[];
  /** Lines in the file, or null when counting stopped early (see estimatedTotalLines). */
  totalLines: number | null;
  estimatedTotalLines?: number;
  /** True when lines exist after the window. */
  moreAfter: boolean;
  hash?: string;
}

const DEFAULT_COUNT_BUDGET = 64 * 1024 * 1024;

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function abortIfNeeded(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
}

class WindowCollector {
  readonly lines: string[] = [];
  readonly cutLines: number[] = [];
  constructor(
    private readonly start: number,
    private readonly limit: number,
    private readonly maxLineChars: number,
  ) {}

  wants(lineNo: number): boolean {
    return lineNo >= this.start && this.lines.length < this.limit;
  }

  get full(): boolean {
    return this.lines.length >= this.limit;
  }

  push(raw: string, cutEarly: boolean): void {
    let line = stripCr(raw);
    let cut = cutEarly;
    if (line.length > this.maxLineChars) {
      line = cutChars(line, this.maxLineChars);
      cut = true;
    }
    if (cut) this.cutLines.push(this.lines.length);
    this.lines.push(line);
  }
}

export async function readLineWindow(file: string, opts: WindowOptions): Promise<LineWindow> {
  if (opts.format.encoding !== "utf-8") await loadCodecs();
  const utf16 = opts.format.encoding.startsWith("utf-16");
  return utf16 ? readUtf16Window(file, opts) : readByteWindow(file, opts);
}

/** ASCII-compatible encodings (UTF-8, latin1, GB18030, Shift_JIS, ...): 0x0A is always a newline. */
async function readByteWindow(file: string, opts: WindowOptions): Promise<LineWindow> {
  const chunkBytes = opts.chunkBytes ?? 1 << 20;
  const budget = opts.countBudgetBytes ?? DEFAULT_COUNT_BUDGET;
  const capBytes = opts.maxLineChars * 4 + 4;
  const collector = new WindowCollector(opts.start, opts.limit, opts.maxLineChars);
  const hasher = opts.hash ? createHash("sha256") : undefined;
  const fh = await fsp.open(file, "r");
  const buf = Buffer.allocUnsafe(chunkBytes);
  let pos = 0;
  let completed = 0; // lines ended by a newline so far
  let pending = false; // bytes seen since the last newline
  let parts: Buffer[] = [];
  let partBytes = 0;
  let partCut = false;
  let skip = -1; // BOM bytes to skip, decided on the first chunk
  let stoppedEarly = false;
  let consumed = 0; // bytes up to the line where counting stopped
  let moreAfter = false;

  const finishLine = () => {
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    collector.push(decodeAs(bytes, opts.format.encoding), partCut);
    parts = [];
    partBytes = 0;
    partCut = false;
  };

  try {
    outer: for (;;) {
      abortIfNeeded(opts.signal);
      const { bytesRead: n } = await fh.read(buf, 0, chunkBytes, pos);
      if (n === 0) break;
      const view = buf.subarray(0, n);
      hasher?.update(view);
      pos += n;
      let from = 0;
      if (skip < 0) {
        const bom = detectBom(view);
        skip = bom && bom.encoding === "utf-8" ? bom.length : 0;
        from = skip;
      }
      while (from < n) {
        const lineNo = completed + 1;
        if (collector.full && !pending) {
          moreAfter = true;
          if (!hasher && opts.size - pos > budget) {
            stoppedEarly = true;
            consumed = pos - n + from;
            break outer;
          }
        }
        const nl = view.indexOf(10, from);
        const end = nl === -1 ? n : nl;
        if (collector.wants(lineNo)) {
          const room = capBytes - partBytes;
          if (end - from > room) partCut = true;
          const take = Math.min(end - from, Math.max(0, room));
          if (take > 0) {
            parts.push(Buffer.from(view.subarray(from, from + take)));
            partBytes += take;
          }
        }
        if (nl === -1) {
          pending = true;
          break;
        }
        if (collector.wants(lineNo)) finishLine();
        completed++;
        pending = false;
        from = nl + 1;
      }
    }
  } finally {
    await fh.close();
  }

  if (stoppedEarly) {
    const estimate = consumed > 0 ? Math.round((completed * opts.size) / consumed) : completed;
    return { lines: collector.lines, cutLines: collector.cutLines, totalLines: null, estimatedTotalLines: Math.max(estimate, completed + 1), moreAfter: true };
  }
  if (pending) {
    if (collector.wants(completed + 1)) finishLine();
    else if (collector.full) moreAfter = true;
    completed++;
  }
  return {
    lines: collector.lines,
    cutLines: collector.cutLines,
    totalLines: completed,
    moreAfter: moreAfter && completed > opts.start - 1 + collector.lines.length,
    hash: hasher?.digest("hex"),
  };
}

/** UTF-16 files: decode as a stream and split the text (files this large are rare). */
async function readUtf16Window(file: string, opts: WindowOptions): Promise<LineWindow> {
  const chunkBytes = opts.chunkBytes ?? 1 << 20;
  const collector = new WindowCollector(opts.start, opts.limit, opts.maxLineChars);
  const hasher = opts.hash ? createHash("sha256") : undefined;
  const decoder = iconv().getDecoder(opts.format.encoding, { stripBOM: false });
  const fh = await fsp.open(file, "r");
  const buf = Buffer.allocUnsafe(chunkBytes);
  let pos = 0;
  let completed = 0;
  let pending = false;
  let current = "";
  let currentCut = false;
  let first = true;

  const scan = (text: string) => {
    let from = 0;
    while (from < text.length) {
      const nl = text.indexOf("\n", from);
      const end = nl === -1 ? text.length : nl;
      if (collector.wants(completed + 1)) {
        const room = opts.maxLineChars + 1 - current.length;
        if (end - from > room) currentCut = true;
        current += text.slice(from, from + Math.min(end - from, Math.max(0, room)));
      }
      if (nl === -1) {
        pending = true;
        return;
      }
      if (collector.wants(completed + 1)) {
        collector.push(current, currentCut);
        current = "";
        currentCut = false;
      }
      completed++;
      pending = false;
      from = nl + 1;
    }
  };

  try {
    for (;;) {
      abortIfNeeded(opts.signal);
      const { bytesRead: n } = await fh.read(buf, 0, chunkBytes, pos);
      if (n === 0) break;
      let view = buf.subarray(0, n);
      hasher?.update(view);
      pos += n;
      if (first) {
        first = false;
        const bom = detectBom(view);
        if (bom && bom.encoding === opts.format.encoding) view = view.subarray(bom.length);
      }
      scan(decoder.write(Buffer.from(view)));
    }
    scan(decoder.end() ?? "");
  } finally {
    await fh.close();
  }
  if (pending) {
    if (collector.wants(completed + 1)) collector.push(current, currentCut);
    completed++;
  }
  return {
    lines: collector.lines,
    cutLines: collector.cutLines,
    totalLines: completed,
    moreAfter: completed > opts.start - 1 + collector.lines.length,
    hash: hasher?.digest("hex"),
  };
}
