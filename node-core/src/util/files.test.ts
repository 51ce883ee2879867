import { promises as fsp, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/processes.js";
import { readAll, readWholeFile } from "./files.js";

/** A real open file whose reads are counted and, with `piece`, come back at most that long (as some file systems do). */
async function counted(file: string, piece?: number) {
  const handle = await fsp.open(file, "r");
  const reads: number[] = [];
  const wrapped = {
    stat: () => handle.stat(),
    read: async (buf: Buffer, offset: number, length: number, position: number) => {
      const r = await handle.read(buf, offset, piece === undefined ? length : Math.min(length, piece), position);
      reads.push(r.bytesRead);
      return r;
    },
  } as unknown as fsp.FileHandle;
  return { handle: wrapped, reads, close: () => handle.close() };
}

describe("readAll", () => {
  const dir = tempDir();
  const content = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
  const file = path.join(dir, "f.bin");
  writeFileSync(file, content);

  it("reads a file whose size holds still in one read", async () => {
    for (const size of [undefined, content.length]) {
      const f = await counted(file);
      expect((await readAll(f.handle, size)).equals(content)).toBe(true);
      expect(f.reads).toEqual([content.length]);
      await f.close();
    }
  });

  it("reads to the end whatever the expected size says", async () => {
    for (const size of [0, 1000, content.length - 1, content.length + 1, content.length * 3]) {
      const f = await counted(file);
      expect((await readAll(f.handle, size)).equals(content), String(size)).toBe(true);
      await f.close();
    }
    const empty = path.join(dir, "empty");
    writeFileSync(empty, "");
    expect((await readWholeFile(empty, 0)).length).toBe(0);
    expect((await readWholeFile(empty)).length).toBe(0);
  });

  it("does not take a short read before the expected size for the end", async () => {
    const f = await counted(file, 4096);
    expect((await readAll(f.handle, content.length)).equals(content)).toBe(true);
    expect(f.reads.length).toBeGreaterThan(content.length / 4096);
    await f.close();
  });
});
