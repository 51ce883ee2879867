// Glob matching for the Glob tool: every file under a root whose path (relative to the root)
// matches the pattern, gitignored files included, VCS directories never, newest first.
// Listing uses ripgrep when available (parallel walk, `--no-ignore`) and otherwise a Node walker
// with the same rules; matching is always picomatch's, so both listers give the same answers.
// Names with brackets or parentheses (`[id].tsx`, `(group)`) also match literally.
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import picomatch from "picomatch/posix";
import { isWithin } from "../core/paths.js";
import { RecordSplitter, runRipgrep, type ResolvedRipgrep } from "./ripgrep.js";

/** Version-control metadata directories neither Glob nor Grep ever look into. */
export const VCS_DIRS = [".git", ".svn", ".hg", ".jj", ".bzr", ".sl"];

export interface GlobMatch {
  /** Absolute path. */
  path: string;
  mtimeMs: number;
}

export interface GlobOutcome {
  /** Newest first (ties by path), at most `limit`. */
  matches: GlobMatch[];
  /** Matches found in all (the whole tree, or what was walked before a timeout). */
  total: number;
  timedOut: boolean;
  engine: "ripgrep" | "node";
  /** Problems the walk ran into (unreadable directories, symlink loops), at most a few. */
  warnings: string[];
}

export interface GlobRequest {
  pattern: string;
  /** Absolute directory to search from (the pattern is relative to it). */
  root: string;
  limit: number;
  timeoutMs: number;
  signal?: AbortSignal;
  platform?: NodeJS.Platform;
}

export interface CompiledGlob {
  /** Directory the walk starts from: `root` plus the pattern's literal leading segments. */
  base: string;
  /** The pattern relative to `base`. */
  relative: string;
  isMatch(rel: string): boolean;
  /** False when no file below `relDir` can match (lets the walker skip the directory). */
  mayContainMatches(relDir: string): boolean;
  /** A basename glob rg may pre-filter with, when it is certainly a superset of matches. */
  basenamePrefilter?: string;
  /** Matching ignores case (Windows and macOS file systems). */
  nocase: boolean;
}

const MAGIC = /[*?[\]{}()!+@]/;
const LITERAL_SPECIALS = /[[\]()]/;

function escapeLiteralSpecials(pattern: string): string {
  return pattern.replace(/[[\]()]/g, (c) => `\\${c}`);
}

type SegmentMatcher = ((name: string) => boolean) | "**";

function segmentMatchers(pattern: string, options: picomatch.PicomatchOptions): SegmentMatcher[] {
  return pattern.split("/").filter((s) => s !== "").map((s) => (s === "**" ? "**" : picomatch(s, options)));
}

/** Pattern positions still alive after walking `dirs` (an NFA over path segments). */
function aliveAfter(segs: SegmentMatcher[], dirs: string[]): boolean {
  const closure = (states: Set<number>) => {
    for (const i of [...states]) {
      let j = i;
      while (segs[j] === "**") states.add(++j);
    }
    return states;
  };
  let states = closure(new Set([0]));
  for (const name of dirs) {
    const next = new Set<number>();
    for (const i of states) {
      const seg = segs[i];
      if (seg === undefined) continue;
      if (seg === "**") {
        next.add(i);
      } else if (seg(name)) next.add(i + 1);
    }
    states = closure(next);
    // A directory is worth entering only if some position still needs more segments.
    if (![...states].some((i) => i < segs.length)) return false;
  }
  return [...states].some((i) => i < segs.length);
}

export function compileGlob(pattern: string, root: string, platform: NodeJS.Platform = process.platform): CompiledGlob {
  let p = platform === "win32" ? pattern.replace(/\\/g, "/") : pattern;
  let base = root;
  if (path.isAbsolute(p) || (platform === "win32" && /^[a-zA-Z]:\//.test(p))) {
    const parsed = path.parse(p);
    base = parsed.root;
    p = p.slice(parsed.root.length);
  }
  // Literal leading segments (including `..`) move the base; the rest is matched.
  const segs = p.split("/");
  let i = 0;
  while (i < segs.length - 1 && !MAGIC.test(segs[i]!)) i++;
  const literalHead = segs.slice(0, i).filter((s) => s !== "" && s !== ".");
  base = path.resolve(base, ...literalHead);
  const relative = segs.slice(i).join("/");
  const nocase = platform === "win32" || platform === "darwin";
  const options: picomatch.PicomatchOptions = { dot: true, nocase };
  const variants = [relative];
  if (LITERAL_SPECIALS.test(relative)) variants.push(escapeLiteralSpecials(relative));
  const matchers = variants.map((v) => picomatch(v, options));
  // Braces or extglobs spanning a "/" defeat segment-wise pruning: then walk everything.
  const prunable = !/\{[^}]*\/[^}]*\}|\([^)]*\/[^)]*\)/.test(relative);
  const segmentSets = prunable ? variants.map((v) => segmentMatchers(v, options)) : [];
  const last = relative.split("/").pop() ?? "";
  const basenamePrefilter = last !== "" && last !== "**" && !/[[\]()!+@\\]/.test(last) ? last : undefined;
  return {
    base,
    relative,
    isMatch: (rel) => matchers.some((m) => m(rel)),
    mayContainMatches: (relDir) => {
      if (!prunable) return true;
      const dirs = relDir.split("/").filter((s) => s !== "");
      return segmentSets.some((s) => aliveAfter(s, dirs));
    },
    basenamePrefilter,
    nocase,
  };
}

/** Keeps the newest `limit` matches without holding every match of a huge tree. */
class NewestFirst {
  private items: GlobMatch[] = [];
  total = 0;
  constructor(private readonly limit: number) {}

  add(m: GlobMatch): void {
    this.total++;
    this.items.push(m);
    if (this.items.length >= Math.max(1000, this.limit * 4)) this.trim();
  }

  private trim(): void {
    this.items.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.items.length = Math.min(this.items.length, this.limit);
  }

  result(): GlobMatch[] {
    this.trim();
    return this.items;
  }
}

function mtimeOf(file: string): number | undefined {
  const st = statSync(file, { throwIfNoEntry: false });
  return st && st.isFile() ? st.mtimeMs : undefined;
}

/** Lists with `rg --files`: parallel, ignores nothing but VCS directories, follows symlinks safely. */
export async function globWithRipgrep(req: GlobRequest, compiled: CompiledGlob, rg: ResolvedRipgrep, env: NodeJS.ProcessEnv): Promise<GlobOutcome> {
  const args = ["--files", "--no-config", "--no-ignore", "--hidden", "--follow", "--null", "--no-messages"];
  for (const d of VCS_DIRS) args.push("--glob", `!${d}`);
  if (compiled.basenamePrefilter) args.push(compiled.nocase ? "--iglob" : "--glob", compiled.basenamePrefilter);
  args.push("--", compiled.base);
  const acc = new NewestFirst(req.limit);
  const splitter = new RecordSplitter(0);
  const prefix = compiled.base.endsWith(path.sep) ? compiled.base : compiled.base + path.sep;
  const win = (req.platform ?? process.platform) === "win32";
  const onRecord = (record: Buffer) => {
    const abs = record.toString("utf8");
    let rel = abs.startsWith(prefix) ? abs.slice(prefix.length) : path.relative(compiled.base, abs);
    if (win) rel = rel.replace(/\\/g, "/");
    if (!compiled.isMatch(rel)) return;
    const mtimeMs = mtimeOf(abs);
    if (mtimeMs !== undefined) acc.add({ path: abs, mtimeMs });
  };
  const run = await runRipgrep(rg.path, args, {
    cwd: compiled.base,
    env,
    signal: req.signal,
    timeoutMs: req.timeoutMs,
    onStdout: (chunk) => void splitter.push(chunk, onRecord),
  });
  if (!run.timedOut && !run.aborted) splitter.flush(onRecord);
  if (run.aborted) throw req.signal?.reason instanceof Error ? req.signal.reason : new Error("aborted");
  const warnings: string[] = [];
  if (run.spawnError) throw new Error(`could not start ripgrep (${rg.path}): ${run.spawnError}`);
  return { matches: acc.result(), total: acc.total, timedOut: run.timedOut, engine: "ripgrep", warnings };
}

interface PendingDir {
  abs: string;
  rel: string;
  /** Real path, to recognise a symlink that leads back into its own ancestry. */
  real: string;
  parent?: PendingDir;
}

/** True when following a link to `target` from `dir` would walk a directory again. */
function isLoop(dir: PendingDir, target: string): boolean {
  if (isWithin(dir.real, target)) return true;
  for (let d: PendingDir | undefined = dir; d; d = d.parent) if (d.real === target) return true;
  return false;
}

/** The same listing in Node: synchronous readdir in slices, yielding so other calls keep flowing. */
export async function globWithNode(req: GlobRequest, compiled: CompiledGlob): Promise<GlobOutcome> {
  const deadline = Date.now() + req.timeoutMs;
  const acc = new NewestFirst(req.limit);
  const warnings: string[] = [];
  const warn = (w: string) => {
    if (warnings.length < 5) warnings.push(w);
  };
  let rootReal = compiled.base;
  try {
    rootReal = realpathSync.native(compiled.base);
  } catch {
    // keep the given path
  }
  const stack: PendingDir[] = [{ abs: compiled.base, rel: "", real: rootReal }];
  let timedOut = false;
  let sliceStart = Date.now();
  while (stack.length > 0) {
    if (req.signal?.aborted) throw req.signal.reason instanceof Error ? req.signal.reason : new Error("aborted");
    const now = Date.now();
    if (now >= deadline) {
      timedOut = true;
      break;
    }
    if (now - sliceStart > 10) {
      await new Promise((r) => setImmediate(r));
      sliceStart = Date.now();
    }
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir.abs, { withFileTypes: true });
    } catch (err) {
      warn(`cannot list ${dir.abs}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      continue;
    }
    for (const e of entries) {
      const name = e.name;
      const abs = dir.abs + path.sep + name;
      const rel = dir.rel === "" ? name : dir.rel + "/" + name;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      let real = dir.real + path.sep + name;
      if (e.isSymbolicLink()) {
        const st = statSync(abs, { throwIfNoEntry: false });
        if (!st) continue; // dangling link: not a file
        isDir = st.isDirectory();
        isFile = st.isFile();
        if (isDir) {
          try {
            real = realpathSync.native(abs);
          } catch {
            continue;
          }
          if (isLoop(dir, real)) {
            warn(`skipped symlink loop ${abs} -> ${real}`);
            continue;
          }
        }
      }
      if (isDir) {
        if (VCS_DIRS.includes(name)) continue;
        if (compiled.mayContainMatches(rel)) stack.push({ abs, rel, real, parent: dir });
      } else if (isFile && compiled.isMatch(rel)) {
        const mtimeMs = mtimeOf(abs);
        if (mtimeMs !== undefined) acc.add({ path: abs, mtimeMs });
      }
    }
  }
  return { matches: acc.result(), total: acc.total, timedOut, engine: "node", warnings };
}
