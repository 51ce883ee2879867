import { describe, expect, it } from "vitest";
import { checkFreshness, deferredSha256, ReadState, sha256, type ReadRecord } from "./readState.js";

const ABC = sha256(Buffer.from("abc"));
const full: ReadRecord = { mtimeMs: 1000, size: 3, hash: ABC, source: "read", full: true };
const partial: ReadRecord = { mtimeMs: 1000, size: 3, source: "read", offset: 1, limit: 2, full: false };

describe("stale detection", () => {
  it("FS-STALE-1 only a newer mtime counts: same or older mtime is fresh without hashing", () => {
    let hashed = 0;
    const hash = () => (hashed++, "different");
    expect(checkFreshness(full, 1000, hash)).toEqual({ fresh: true, mtimeChanged: false });
    expect(checkFreshness(full, 500, hash)).toEqual({ fresh: true, mtimeChanged: false });
    expect(checkFreshness(partial, 999, hash)).toEqual({ fresh: true, mtimeChanged: false });
    expect(hashed).toBe(0);
  });

  it("FS-STALE-2 a newer mtime after a full read falls back to the content hash", () => {
    expect(checkFreshness(full, 2000, () => sha256(Buffer.from("abc")))).toEqual({ fresh: true, mtimeChanged: true });
    expect(checkFreshness(full, 2000, () => sha256(Buffer.from("abd")))).toEqual({ fresh: false, reason: "modified" });
  });

  it("FS-STALE-2 a newer mtime after a partial read is refused even with identical content", () => {
    expect(checkFreshness({ ...partial, hash: full.hash }, 2000, () => ABC)).toEqual({ fresh: false, reason: "partial-read-outdated" });
  });

  it("FS-STALE-2 the hash of written bytes is computed after the call (or when a check asks first), once, and compared like any other", async () => {
    const data = Buffer.from("abc");
    const early = deferredSha256(data);
    // A check before the next turn computes it on the spot.
    expect(checkFreshness({ ...full, hash: early }, 2000, () => ABC)).toEqual({ fresh: true, mtimeChanged: true });
    expect(checkFreshness({ ...full, hash: early }, 2000, () => sha256(Buffer.from("abd")))).toEqual({ fresh: false, reason: "modified" });
    const later = deferredSha256(Buffer.from("abc"));
    await new Promise((r) => setImmediate(r));
    expect(later()).toBe(ABC);
    const big = Buffer.alloc(3 * 1024 * 1024, "héllo\n");
    expect(deferredSha256(big)()).toBe(sha256(big));
  });

  it("FS-ATOMIC-3 read state is per instance, can forget some or all files, and empties on dispose", () => {
    const s = new ReadState();
    s.set("/a", full);
    s.set("/b", partial);
    expect(s.clear(["/a", "/nope"])).toBe(1);
    expect(s.get("/a")).toBeUndefined();
    expect(s.size).toBe(1);
    s.dispose();
    expect(s.size).toBe(0);
  });
});
