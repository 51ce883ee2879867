// The whole results of recently finished calls, for a host that was told of a call (tool/finished
// carries only a summary) but did not make it: an attached agent's, or one made before the host
// listened. Bounded by count and by bytes, oldest first out; a session's go when it ends.
//
// Kept as their JSON text, not as the objects: a string cut from a larger one (a diff line from a
// 10 MB file, the start of a 2 MB argument) shares the larger one's memory in V8, so a kept object
// could hold megabytes its serialised size does not show. The text is exactly what is counted.
import type { ToolResult } from "./tool.js";

export interface FinishedResultLimits {
  /** How many results are kept at most. */
  maxResults: number;
  /** How many bytes (serialised JSON, UTF-8) all kept results take at most. */
  maxBytes: number;
}

export const DEFAULT_FINISHED_RESULT_LIMITS: FinishedResultLimits = { maxResults: 64, maxBytes: 16 * 1024 * 1024 };

interface Entry {
  sessionId: string;
  /** The result as JSON. */
  json: string;
  bytes: number;
}

export class FinishedResults {
  // A Map iterates in insertion order: the first entry is the oldest.
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(readonly limits: FinishedResultLimits = DEFAULT_FINISHED_RESULT_LIMITS) {}

  /**
   * Keeps a result, given as its JSON text and that text's size in UTF-8 bytes, under `callId`
   * (replacing an earlier call's of the same id), dropping the oldest results until the limits
   * hold. A result larger than the byte limit on its own is not kept. Returns whether it was kept.
   */
  keep(callId: string, sessionId: string, json: string, bytes: number): boolean {
    this.remove(callId);
    if (bytes > this.limits.maxBytes || this.limits.maxResults <= 0) return false;
    this.entries.set(callId, { sessionId, json, bytes });
    this.total += bytes;
    for (const [id] of this.entries) {
      if (this.entries.size <= this.limits.maxResults && this.total <= this.limits.maxBytes) break;
      this.remove(id);
    }
    return true;
  }

  get(callId: string): ToolResult | undefined {
    const e = this.entries.get(callId);
    return e && (JSON.parse(e.json) as ToolResult);
  }

  /** Forgets every result of `sessionId`'s calls; returns how many. */
  dropSession(sessionId: string): number {
    let dropped = 0;
    for (const [id, e] of this.entries) {
      if (e.sessionId === sessionId) {
        this.remove(id);
        dropped++;
      }
    }
    return dropped;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }

  private remove(callId: string): void {
    const e = this.entries.get(callId);
    if (!e) return;
    this.entries.delete(callId);
    this.total -= e.bytes;
  }
}
