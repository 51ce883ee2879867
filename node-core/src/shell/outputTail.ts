// The latest lines of a growing output file, for live progress: only the last few KiB are read,
// whatever the file's size, so a command printing gigabytes costs the same as one printing a line.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { sanitize, trimIncompleteHead } from "./output.js";

export interface Tail {
  /** Size of the whole file in bytes (0 when it is missing). */
  size: number;
  /** Its last lines (the last one possibly unfinished), at most `maxLines`, without a final newline. */
  text: string;
}

/** The last `maxLines` lines within the last `maxBytes` bytes of `file`. A missing file is empty. */
export function readTail(file: string, maxBytes = 4096, maxLines = 20): Tail {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return { size: 0, text: "" };
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return { size, text: "" };
    const want = Math.min(size, maxBytes);
    const buf = Buffer.alloc(want);
    const got = readSync(fd, buf, 0, want, size - want);
    let bytes: Buffer = buf.subarray(0, got);
    if (size > want) bytes = trimIncompleteHead(bytes);
    let text = sanitize(new TextDecoder("utf-8", { fatal: false }).decode(bytes)).text;
    // A window that starts mid-line drops that partial first line (when there is more than one).
    if (size > want) {
      const nl = text.indexOf("\n");
      if (nl >= 0 && nl < text.length - 1) text = text.slice(nl + 1);
    }
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return { size, text: lines.slice(Math.max(0, lines.length - maxLines)).join("\n") };
  } finally {
    closeSync(fd);
  }
}

/**
 * Decides when a progress update may go out: at most one per `intervalMs`, when the output changed
 * since the last one, or after `heartbeatMs` without any (so clients that reset their request
 * timeout on progress keep waiting for a quiet command). The clock is injected for tests.
 */
export class ProgressGate {
  private last: number;
  readonly startedAt: number;

  constructor(
    private readonly intervalMs: number,
    private readonly heartbeatMs: number,
    private readonly now: () => number,
    /** The output at the start (nothing printed yet). */
    private lastKey = "",
  ) {
    this.last = now();
    this.startedAt = this.last;
  }

  /** When the last update was let through (the start, before any). */
  get sentAt(): number {
    return this.last;
  }

  /** `key` identifies the output seen (e.g. the file sizes); returns true when an update should be sent now. */
  offer(key: string): boolean {
    const t = this.now();
    const elapsed = t - this.last;
    if (elapsed < this.intervalMs) return false;
    if (key === this.lastKey && elapsed < this.heartbeatMs) return false;
    this.last = t;
    this.lastKey = key;
    return true;
  }
}
