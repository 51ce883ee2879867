// Where a path really is, and how it relates to the directories the user allowed.
import { lstatSync } from "node:fs";
import path from "node:path";
import { isWithin, physicalPath } from "../util/paths.js";
import type { WarningId } from "./danger.js";

/**
 * The absolute path with symlinks resolved as the kernel would when writing it: `ws/link-to-etc/passwd`
 * becomes `/etc/passwd`, a dangling link becomes the file it would create, and a file that does
 * not exist yet keeps its name under its real parent.
 */
export function realPath(abs: string): string {
  return physicalPath(abs);
}

export interface Places {
  /** Canonical allowed directories: the workspace root, --add-dir and session directories. */
  readonly allowedDirectories: readonly string[];
  /** Canonical home directory. */
  readonly home: string;
  /** Canonical system temporary directory. */
  readonly tempDir: string;
  /** Canonical Wave state directories (base/stateDir.ts): what writes them is sensitive. */
  readonly stateDirectories?: readonly string[];
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

/** The warning a path decision carries when the file has several hard links (writers read it too). */
export const HARD_LINKED = "hard-linked" satisfies WarningId;

/**
 * How many names (hard links) the regular file at the real path `p` has; 0 when there is none.
 * Only their number is cheap to know, not where the others are, so a file with more than one
 * cannot be shown to lie inside the allowed directories.
 */
export function hardLinkCount(p: string): number {
  try {
    const st = lstatSync(p);
    return st.isFile() ? st.nlink : 0;
  } catch {
    return 0;
  }
}
