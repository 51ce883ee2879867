// What this conversation (session) has read or written, per file: the basis of read-before-edit
// (FS-EDIT-5, FS-WRITE-1), stale detection (FS-STALE) and the "unchanged" answer (FS-READ-4).
// Each session owns its own; a sub-agent's reads are not its parent's.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import type { Session, SessionService } from "../base/session.js";
import { ServiceKey } from "../base/services.js";
import { fileKey, resolveToolPath } from "./paths.js";

export type ReadSource = "read" | "edit" | "write";

export interface ReadRecord {
  /** mtime in ms (fractional) when read or written. */
  mtimeMs: number;
  size: number;
  /**
   * sha256 of the whole file's bytes; present for full reads and after Edit/Write (there as a
   * function that computes it once, when first needed or right after the call, see deferredSha256).
   */
  hash?: string | (() => string);
  source: ReadSource;
  /** The Read call's `offset`/`limit` exactly as given (undefined when not given). */
  offset?: number;
  limit?: number;
  /** A full read: no offset and no limit (the only kind that may fall back to the content hash). */
  full: boolean;
}

export class ReadState implements SessionService {
  private readonly records = new Map<string, ReadRecord>();

  get(key: string): ReadRecord | undefined {
    return this.records.get(key);
  }

  set(key: string, record: ReadRecord): void {
    this.records.set(key, record);
  }

  /** Forgets some files, or everything (after the conversation was compacted). Returns how many. */
  clear(keys?: string[]): number {
    if (!keys) {
      const n = this.records.size;
      this.records.clear();
      return n;
    }
    let n = 0;
    for (const k of keys) if (this.records.delete(k)) n++;
    return n;
  }

  get size(): number {
    return this.records.size;
  }

  dispose(): void {
    this.records.clear();
  }
}

export const READ_STATE = new ServiceKey<ReadState, Session>("fs.readState", () => new ReadState());

/**
 * Forgets what a session has read (some paths, resolved against its cwd, or everything), e.g.
 * after the host compacted the conversation. Returns how many files were forgotten.
 */
export function clearReadState(session: Session, paths?: readonly string[]): number {
  return session.service(READ_STATE).clear(paths?.map((f) => fileKey(resolveToolPath(f, session.cwd))));
}

/**
 * Counts a file as read in full, as it is now, by a caller who decided without a Read: a person or
 * script running one `wave-core call` (each call is a session of its own, where no Read could come
 * first). From here on the stale checks apply as after a Read: a file that changes before the
 * change is written is refused. False when `abs` is no regular file (nothing to count).
 */
export function countAsRead(session: Session, abs: string): boolean {
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st?.isFile()) return false;
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch {
    return false;
  }
  session.service(READ_STATE).set(fileKey(abs), { mtimeMs: st.mtimeMs, size: st.size, hash: sha256(bytes), source: "read", full: true });
  return true;
}

export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * sha256 of bytes just written, off the write's path: computed on the next turn of the event loop
 * (after the call's answer has gone out) or earlier if a stale check asks first, then the bytes are
 * let go. The caller must not change `data` afterwards.
 */
export function deferredSha256(data: Uint8Array): () => string {
  let bytes: Uint8Array | undefined = data;
  let value: string | undefined;
  const get = (): string => {
    if (value === undefined) {
      value = sha256(bytes!);
      bytes = undefined;
    }
    return value;
  };
  setImmediate(get);
  return get;
}

export type Freshness = { fresh: true; mtimeChanged: boolean } | { fresh: false; reason: "modified" | "partial-read-outdated" };

/**
 * FS-STALE: only a newer mtime counts as a possible change. Then a full read whose recorded hash
 * equals the current content's hash is still fresh (a touch, checkout or editor save that kept the
 * content); a partial read is not (FS-EDIT-9). `currentHash` is computed only when needed.
 */
export function checkFreshness(record: ReadRecord, currentMtimeMs: number, currentHash: () => string): Freshness {
  if (!(currentMtimeMs > record.mtimeMs)) return { fresh: true, mtimeChanged: false };
  if (!record.full || record.hash === undefined) return { fresh: false, reason: "partial-read-outdated" };
  const recorded = typeof record.hash === "function" ? record.hash() : record.hash;
  return currentHash() === recorded ? { fresh: true, mtimeChanged: true } : { fresh: false, reason: "modified" };
}
