import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mismatch, replay, TRANSCRIPT_DIR, type Transcript } from "./transcript.js";

describe("golden protocol transcripts", () => {
  const files = readdirSync(TRANSCRIPT_DIR).filter((f) => f.endsWith(".json"));
  it("has transcripts to replay", () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });
  for (const file of files) {
    const transcript = JSON.parse(readFileSync(path.join(TRANSCRIPT_DIR, file), "utf8")) as Transcript;
    it(`${file}: ${transcript.description}`, async () => {
      await replay(transcript);
    });
  }
});

describe("transcript matcher", () => {
  it("matches subsets, placeholders and regexes", () => {
    expect(mismatch({ a: 1, b: "<<string>>" }, { a: 1, b: "x", c: 3 })).toBeUndefined();
    expect(mismatch({ a: "<<absent>>" }, { b: 1 })).toBeUndefined();
    expect(mismatch("<<regex:^ab>>", "abc")).toBeUndefined();
    expect(mismatch([1, 2], [1, 2])).toBeUndefined();
  });
  it("reports what does not match", () => {
    expect(mismatch({ a: 1 }, { a: 2 })).toMatch(/\$\.a: expected 1, got 2/);
    expect(mismatch({ a: "<<absent>>" }, { a: 1 })).toMatch(/absent/);
    expect(mismatch([1], [1, 2])).toMatch(/expected 1 elements/);
    expect(mismatch("<<number>>", "1")).toMatch(/expected a number/);
    expect(mismatch({ a: 1 }, null)).toMatch(/expected an object/);
  });
});
