// Where a path really is, and how it relates to the directories the user allowed.
import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";
import { isWithin, physicalPath } from "../util/paths.js";
import type { WarningId } from "./danger.js";

/**
 * The absolute path with symlinks resolved as the kernel would when writing it: `ws/link-to-etc/passwd`
 * becomes `/etc/passwd`, a dangling link becomes the file it would create, and a file that does
 * not exist yet keeps its name under its real parent.
 */
export function realPath(abs: string): string {
  return resolved ? resolveMemoized(path.resolve(abs), resolved, { hops: 0 }) : physicalPath(abs);
}

/** Paths resolved during the current decision (see withPathMemo), keyed as given and by their result. */
let resolved: Map<string, string> | undefined;
/** Real paths found missing during the current decision: nothing below them exists either. */
let missing: Set<string> | undefined;

/**
 * Runs one decision with each path component resolved once: a command's parts, its warnings and
 * the read-only check look at the same targets, their parents and every PATH directory again and
 * again (a realpath is a system call per component), and nothing on disk changes within one
 * synchronous decision.
 */
export function withPathMemo<T>(decide: () => T): T {
  if (resolved) return decide();
  resolved = new Map();
  missing = new Set();
  try {
    return decide();
  } finally {
    resolved = undefined;
    missing = undefined;
  }
}

/** Linux's limit on symlinks followed in one lookup. */
const MAX_LINK_HOPS = 40;

/**
 * physicalPath (util/paths.ts) with a memo shared by every path of one decision: the parent is
 * resolved first (once), then the last name is looked at under it; a link's target is walked
 * component by component, `..` taken physically.
 */
function resolveMemoized(p: string, memo: Map<string, string>, budget: { hops: number }): string {
  const known = memo.get(p);
  if (known !== undefined) return known;
  const parent = path.dirname(p);
  if (parent === p) return p;
  const realParent = resolveMemoized(parent, memo, budget);
  const candidate = path.join(realParent, path.basename(p));
  let real = candidate;
  let isLink = false;
  if (missing?.has(realParent)) missing.add(candidate);
  else {
    try {
      const st = lstatSync(candidate, { throwIfNoEntry: false });
      if (st === undefined) missing?.add(candidate);
      isLink = st?.isSymbolicLink() === true;
    } catch {
      // Not a directory on the way, a loop, no permission: the rest keeps its names.
    }
  }
  if (isLink && ++budget.hops <= MAX_LINK_HOPS) {
    let target: string | undefined;
    try {
      target = readlinkSync(candidate);
    } catch {
      target = undefined;
    }
    if (target !== undefined) {
      let at = path.isAbsolute(target) ? path.parse(target).root : realParent;
      for (const name of target.split(path.sep === "\\" ? /[\\/]+/ : "/")) {
        if (name === "" || name === ".") continue;
        at = name === ".." ? path.dirname(at) : resolveMemoized(path.join(at, name), memo, budget);
      }
      real = at;
    }
  }
  memo.set(p, real);
  memo.set(real, real);
  return real;
}

export interface Places {
  /** Canonical allowed directories: the workspace root, --add-dir and session directories. */
  readonly allowedDirectories: readonly string[];
  /** Canonical home directory. */
  readonly home: string;
  /**
   * Every home whose credential stores count (canonical): `$HOME` and the account's home from the
   * password database, which differ when a core runs with another HOME. Default: [home].
   */
  readonly homes?: readonly string[];
  /** Canonical system temporary directory. */
  readonly tempDir: string;
  /** Canonical Wave state directories (base/stateDir.ts): what writes them is sensitive. */
  readonly stateDirectories?: readonly string[];
}

/** The homes whose credential stores count (Places.homes). */
export function homesOf(places: Pick<Places, "home" | "homes">): readonly string[] {
  return places.homes ?? [places.home];
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
