// Turns an output file of any size into the text a result carries: at most MAX_RESULT_CHARS
// characters, the head and the tail when it is longer (errors are usually at the end), never a
// split UTF-16 surrogate pair or multi-byte character, invalid UTF-8 and binary bytes shown
// safely. Only the head and tail windows are read, so a 1 GiB file costs no more than a small one.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { cutChars } from "../util/text.js";

export const MAX_RESULT_CHARS = 30_000;
/** Share of the budget given to the head; the rest (minus the marker) goes to the tail. */
const HEAD_SHARE = 1 / 3;
/** A UTF-16 code unit never takes more than 4 bytes of UTF-8 (most take 1): bytes read per character kept. */
const BYTES_PER_CHAR = 4;

export interface OutputSummary {
  text: string;
  truncated: boolean;
  /** Size of the whole output in bytes. */
  totalBytes: number;
  /** True when the output held NUL or other non-text bytes. */
  binary: boolean;
}

const decoder = () => new TextDecoder("utf-8", { fatal: false });

function utf8SeqLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** Drops an incomplete UTF-8 sequence at the end of a window. */
export function trimIncompleteTail(buf: Buffer): Buffer {
  for (let back = 1; back <= Math.min(4, buf.length); back++) {
    const b = buf[buf.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = utf8SeqLength(b);
    return need > back ? buf.subarray(0, buf.length - back) : buf;
  }
  return buf;
}

/** Drops continuation bytes at the start of a window that begins inside a character. */
export function trimIncompleteHead(buf: Buffer): Buffer {
  let i = 0;
  while (i < Math.min(3, buf.length) && (buf[i]! & 0xc0) === 0x80) i++;
  return buf.subarray(i);
}

const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The last `n` UTF-16 code units, never starting on half a surrogate pair. */
export function lastChars(s: string, n: number): string {
  if (s.length <= n) return s;
  let start = s.length - n;
  if (isLow(s.charCodeAt(start))) start++;
  return s.slice(start);
}

// NUL and the C0 controls terminals do not use for text or colour (TAB, LF, VT, FF, CR, BEL, BS
// and ESC stay: ANSI sequences are kept verbatim, BASH-FG-4).
// eslint-disable-next-line no-control-regex
const NON_TEXT = /[\u0000-\u0006\u000e-\u001a\u001c-\u001f\u007f]/g;

export function sanitize(text: string): { text: string; binary: boolean } {
  let binary = false;
  const out = text.replace(NON_TEXT, () => {
    binary = true;
    return "\uFFFD";
  });
  return { text: out, binary };
}

/** Cuts at a line break near the edge when there is one, so the kept parts start/end cleanly. */
function headAtLine(s: string): string {
  const nl = s.lastIndexOf("\n");
  return nl >= s.length * 0.9 ? s.slice(0, nl + 1) : s;
}

function tailAtLine(s: string): string {
  const nl = s.indexOf("\n");
  return nl >= 0 && nl <= s.length * 0.1 ? s.slice(nl + 1) : s;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

function omissionMarker(omittedBytes: number, totalBytes: number, file: string): string {
  return `\n\n[… ${omittedBytes.toLocaleString("en-US")} bytes omitted. Full output (${formatBytes(totalBytes)}): ${file} — read it with the Read tool (offset/limit) or grep/tail …]\n\n`;
}

function combine(head: string, tail: string, omittedBytes: number, totalBytes: number, file: string, limit: number) {
  const marker = omissionMarker(omittedBytes, totalBytes, file);
  const headBudget = Math.floor((limit - marker.length) * HEAD_SHARE);
  const tailBudget = limit - marker.length - headBudget;
  const h = headAtLine(cutChars(head, headBudget));
  const t = tailAtLine(lastChars(tail, tailBudget));
  return { h, t, marker };
}

/**
 * Reads the output file into result text. `displayPath` is the path named in the omission marker.
 * Synchronous on purpose: at most two windows of 120 KB are read, which costs microseconds, while
 * each asynchronous file operation waits for a thread-pool turn (milliseconds on a busy machine).
 */
export function summarizeOutput(file: string, limit = MAX_RESULT_CHARS, displayPath = file): OutputSummary {
  const fd = openSync(file, "r");
  try {
    const totalBytes = fstatSync(fd).size;
    if (totalBytes === 0) return { text: "", truncated: false, totalBytes, binary: false };
    if (totalBytes <= limit * BYTES_PER_CHAR) {
      const buf = Buffer.alloc(totalBytes);
      const bytesRead = readSync(fd, buf, 0, totalBytes, 0);
      const { text, binary } = sanitize(decoder().decode(buf.subarray(0, bytesRead)));
      if (text.length <= limit) return { text, truncated: false, totalBytes, binary };
      const first = combine(text, text, 0, totalBytes, displayPath, limit);
      const omitted = Math.max(0, totalBytes - Buffer.byteLength(first.h) - Buffer.byteLength(first.t));
      const exact = combine(text, text, omitted, totalBytes, displayPath, limit);
      return { text: exact.h + exact.marker + exact.t, truncated: true, totalBytes, binary };
    }
    const window = limit * BYTES_PER_CHAR;
    const headBuf = Buffer.alloc(window);
    const tailBuf = Buffer.alloc(window);
    const headRead = readSync(fd, headBuf, 0, window, 0);
    const tailRead = readSync(fd, tailBuf, 0, window, Math.max(0, totalBytes - window));
    const head = sanitize(decoder().decode(trimIncompleteTail(headBuf.subarray(0, headRead))));
    const tail = sanitize(decoder().decode(trimIncompleteHead(tailBuf.subarray(0, tailRead))));
    const first = combine(head.text, tail.text, 0, totalBytes, displayPath, limit);
    const omitted = Math.max(0, totalBytes - Buffer.byteLength(first.h) - Buffer.byteLength(first.t));
    const exact = combine(head.text, tail.text, omitted, totalBytes, displayPath, limit);
    return { text: exact.h + exact.marker + exact.t, truncated: true, totalBytes, binary: head.binary || tail.binary };
  } finally {
    closeSync(fd);
  }
}
