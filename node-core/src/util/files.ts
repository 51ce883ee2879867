// File predicates every layer asks: one answer for "is this a file, a directory, something this
// process may execute". Symlinks are followed (as exec and open do); nothing here throws. And
// reading a whole file in as few reads as its size allows.
import { accessSync, constants, promises as fsp, statSync } from "node:fs";

export function isFile(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

export function isDirectory(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** A regular file this process may execute (the execute bit, as `access(X_OK)` sees it). */
export function isExecutableFile(file: string): boolean {
  if (!isFile(file)) return false;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A whole file, read in one go when its size holds still (fs.promises.readFile reads in 512 KB
 * steps, three times slower on a 2 MB file); a file that grows meanwhile is read to its end.
 * `expectedSize` (from a stat of the path just before) saves asking the open file for its size.
 */
export async function readWholeFile(file: string, expectedSize?: number): Promise<Buffer> {
  const handle = await fsp.open(file, "r");
  try {
    return await readAll(handle, expectedSize);
  } finally {
    await handle.close();
  }
}

/**
 * Everything in an open file from its start, by position (the handle's own offset is not used).
 * Each read asks for one byte more than the size says is left: coming back short at or past that
 * size, it was the last, and no further read is needed to see the end. A read that comes back
 * short before it (a file cut meanwhile, a file system that reads in pieces) is followed by more,
 * until one reads nothing.
 */
export async function readAll(handle: fsp.FileHandle, expectedSize?: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const size = expectedSize ?? (await handle.stat()).size;
  let position = 0;
  for (;;) {
    const wanted = Math.max(size - position + 1, 64 * 1024);
    const buf = Buffer.allocUnsafe(wanted);
    const { bytesRead } = await handle.read(buf, 0, wanted, position);
    if (bytesRead > 0) chunks.push(buf.subarray(0, bytesRead));
    position += bytesRead;
    if (bytesRead === 0 || (bytesRead < wanted && position >= size)) break;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
