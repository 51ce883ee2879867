// Paths as the file tools see them: resolved against the session's cwd, keyed by their real
// location for read state, shown relative to the cwd, and explained when they do not exist.
import { lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { editDistance } from "../util/text.js";
import { isDirectory } from "../util/files.js";

/** Absolute path of a tool's path argument: `~` expands to the home directory, relatives join `cwd`. */
export function resolveToolPath(input: string, cwd: string, home: string = os.homedir()): string {
  let p = input;
  if (p === "~") p = home;
  else if (p.startsWith("~/") || p.startsWith("~\\")) p = path.join(home, p.slice(2));
  return path.resolve(cwd, p);
}

/**
 * The key a file's read state is stored under: its real path when it exists, so a file reached
 * through a symlink or `..` is the same file. Case-insensitive on Windows.
 */
export function fileKey(abs: string, platform: NodeJS.Platform = process.platform): string {
  let real = abs;
  try {
    real = realpathSync.native(abs);
  } catch {
    // A missing file keys by its resolved path (a file about to be created).
  }
  return platform === "win32" ? real.toLowerCase() : real;
}

/** `abs` relative to `cwd` when inside it, otherwise absolute. */
export function displayPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  if (rel === "") return ".";
  return rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel;
}

function stem(name: string): string {
  const ext = path.extname(name);
  return ext ? name.slice(0, -ext.length) : name;
}

/** Up to `max` entries of `dir` whose names look like `name` (case, extension or a typo away). */
export function nearNames(dir: string, name: string, max = 3): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const lower = name.toLowerCase();
  const budget = Math.max(1, Math.min(3, Math.floor(name.length / 4)));
  const scored: Array<[number, string]> = [];
  for (const e of entries) {
    if (e === name) continue;
    const el = e.toLowerCase();
    let score: number | undefined;
    if (el === lower) score = 0;
    else if (stem(e) === stem(name) && stem(name) !== "") score = 1;
    else {
      const d = editDistance(el, lower, budget);
      if (d <= budget) score = 1 + d;
      else if (lower.length >= 4 && (el.startsWith(lower) || lower.startsWith(el)) && el.length >= 3) score = 5;
    }
    if (score !== undefined) scored.push([score, e]);
  }
  scored.sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1]));
  return scored.slice(0, max).map(([, e]) => path.join(dir, e));
}

/**
 * Why `abs` cannot be found and what might have been meant: a dangling symlink names its target;
 * a missing directory names the deepest existing ancestor; a missing file lists near names.
 */
export function describeMissing(abs: string, cwd: string): string {
  try {
    const l = lstatSync(abs);
    if (l.isSymbolicLink()) {
      let target = "(unreadable link)";
      try {
        target = path.resolve(path.dirname(abs), readlinkSync(abs));
      } catch {
        // keep the placeholder
      }
      return `${abs} is a symbolic link whose target does not exist (${target}). Fix or remove the link, or read the file it should point to.`;
    }
  } catch {
    // Not there at all: fall through.
  }
  let dir = path.dirname(abs);
  let missingPart = path.basename(abs);
  while (!isDirectory(dir)) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    missingPart = path.basename(dir);
    dir = parent;
  }
  const parts: string[] = [`File does not exist: ${abs}.`];
  if (dir !== path.dirname(abs)) {
    parts.push(`The directory ${path.join(dir, missingPart)} does not exist either (the deepest existing one is ${dir}).`);
  }
  const near = nearNames(dir, missingPart);
  if (near.length > 0) parts.push(`Did you mean ${near.map((n) => displayPath(n, cwd)).join(", ")}?`);
  else parts.push(`The working directory is ${cwd}. Use Glob to find the file.`);
  return parts.join(" ");
}
