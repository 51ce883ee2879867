import { lstatSync, readlinkSync, realpathSync } from "node:fs";
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

/** Linux's limit on symlinks followed in one lookup (ELOOP beyond it). */
const MAX_LINK_HOPS = 40;

/**
 * Where the kernel would put a file created at `abs`: the absolute path with every symlink
 * followed, component by component, the way open(O_CREAT) and mkdir resolve it — including a
 * dangling link (its target is what gets created), chains of links, and `..` inside a link's
 * target (taken from where the link leads, not lexically). The part below the deepest existing
 * directory keeps its names. A path that loops or cannot be looked up comes back as far as it
 * resolved; writing it then fails (ELOOP, EACCES) without creating anything elsewhere.
 */
export function physicalPath(abs: string): string {
  const start = path.resolve(abs);
  // A missing path is common (a file about to be created, a build folder): it is walked without
  // the cost of the exception realpath would throw (an Error with its stack, per call).
  let exists: boolean;
  try {
    exists = lstatSync(start, { throwIfNoEntry: false }) !== undefined;
  } catch {
    exists = true; // a loop (ELOOP) or not a directory: let realpath say, then walk
  }
  if (exists) {
    try {
      return realpathSync.native(start);
    } catch {
      // Dangling, a loop or unreadable: walk it.
    }
  }
  const { root } = path.parse(start);
  let resolved = root;
  let rest = components(start.slice(root.length));
  let hops = 0;
  while (rest.length > 0) {
    const name = rest.shift()!;
    if (name === "." || name === "") continue;
    if (name === "..") {
      resolved = path.dirname(resolved);
      continue;
    }
    const next = path.join(resolved, name);
    let stat;
    try {
      stat = lstatSync(next, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    // Nothing there yet (or not a directory): the rest is created as named.
    if (stat === undefined) return path.join(next, ...rest);
    if (!stat.isSymbolicLink()) {
      resolved = next;
      continue;
    }
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      return path.join(next, ...rest);
    }
    if (++hops > MAX_LINK_HOPS) return path.join(next, ...rest);
    // Not path.resolve: `..` in a target is taken physically, after the links before it.
    const targetRoot = path.isAbsolute(target) ? path.parse(target).root : "";
    if (targetRoot) resolved = targetRoot;
    rest = [...components(target.slice(targetRoot.length)), ...rest];
  }
  return resolved;
}

function components(p: string): string[] {
  return p.split(path.sep === "\\" ? /[\\/]+/ : "/").filter((c) => c !== "");
}
