// Where a path really is, and how it relates to the directories the user allowed.
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { isWithin } from "../util/paths.js";

/**
 * The absolute path with symlinks resolved as far as it exists: `ws/link-to-etc/passwd` becomes
 * `/etc/passwd`, and a file that does not exist yet keeps its name under its real parent.
 */
export function realPath(abs: string): string {
  const missing: string[] = [];
  let current = path.resolve(abs);
  // existsSync neither throws nor builds a Stats object: a missing path is common here.
  while (!existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) return path.resolve(abs);
    missing.push(path.basename(current));
    current = parent;
  }
  let real: string;
  try {
    real = realpathSync.native(current);
  } catch {
    return path.resolve(abs);
  }
  return missing.length ? path.join(real, ...missing.reverse()) : real;
}

export interface Places {
  /** Canonical allowed directories: the workspace root, --add-dir and session directories. */
  readonly allowedDirectories: readonly string[];
  /** Canonical home directory. */
  readonly home: string;
  /** Canonical system temporary directory. */
  readonly tempDir: string;
}

export type Placement =
  | { where: "filesystem-root" }
  | { where: "home" }
  | { where: "contains-allowed"; allowed: string }
  | { where: "allowed-root"; allowed: string }
  | { where: "inside" }
  | { where: "temp" }
  | { where: "outside" };

/** How a path a command deletes or changes (already resolved with realPath) relates to the places the user cares about. */
export function place(p: string, places: Places): Placement {
  if (p === path.parse(p).root) return { where: "filesystem-root" };
  if (isWithin(places.home, p)) return { where: "home" };
  for (const d of places.allowedDirectories) {
    if (p === d) return { where: "allowed-root", allowed: d };
    if (isWithin(d, p)) return { where: "contains-allowed", allowed: d };
  }
  if (places.allowedDirectories.some((d) => isWithin(p, d))) return { where: "inside" };
  if (p !== places.tempDir && isWithin(p, places.tempDir)) return { where: "temp" };
  return { where: "outside" };
}

export function isInsideAllowed(target: string, places: Places): boolean {
  const p = realPath(target);
  return places.allowedDirectories.some((d) => isWithin(p, d));
}
