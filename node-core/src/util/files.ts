// File predicates every layer asks: one answer for "is this a file, a directory, something this
// process may execute". Symlinks are followed (as exec and open do); nothing here throws.
import { accessSync, constants, statSync } from "node:fs";

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
