import { realpathSync } from "node:fs";
import path from "node:path";

/** Absolute, symlink-resolved form of a directory when it exists (so it compares with `pwd -P`). */
export function canonicalDir(dir: string, base = process.cwd()): string {
  const abs = path.resolve(base, dir);
  try {
    return realpathSync.native(abs);
  } catch {
    return abs;
  }
}

/** True when `child` is `parent` or lies below it. Both must be absolute. */
export function isWithin(child: string, parent: string, pathApi: path.PlatformPath = path): boolean {
  const rel = pathApi.relative(parent, child);
  // `..x` is a name inside `parent`; only `..` itself or `../…` leaves it.
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + pathApi.sep) && !pathApi.isAbsolute(rel));
}
