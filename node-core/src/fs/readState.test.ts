import { describe, expect, it } from "vitest";
import { checkFreshness, ReadState, sha256, type ReadRecord } from "./readState.js";

const full: ReadRecord = { mtimeMs: 1000, size: 3, hash: sha256(Buffer.from("abc")), source: "read", full: true };
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
    expect(checkFreshness({ ...partial, hash: full.hash }, 2000, () => full.hash!)).toEqual({ fresh: false, reason: "partial-read-outdated" });
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
