// Glob matching for the Glob tool: every file under a root whose path (relative to the root)
// matches the pattern, gitignored files included, newest first. Nothing inside a version-control
// directory is listed, at any depth, unless `root` itself is inside it (util/vcs.ts has the rule).
// Listing uses ripgrep when available (parallel walk, `--no-ignore`) and otherwise a Node walker
// with the same rules; matching is always picomatch's, so both listers give the same answers.
// Names with brackets or parentheses (`[id].tsx`, `(group)`) also match literally.
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import os from "node:os";
import path from "node:path";
import picomatch from "picomatch/posix";
import { isWithin } from "../util/paths.js";
import { VCS_DIRECTORIES, insideVcsDirectory, isVcsDirectoryName } from "../util/vcs.js";
import { runRipgrep, type ResolvedRipgrep } from "./ripgrep.js";

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
  /** Which lister ran: ripgrep (sorted, in parts) or the Node walker. */
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
  /**
   * Folders and files (real paths) the listing goes around: credential stores and Wave's state
   * inside the root (tools/glob.ts). The Node walker knows each entry's real path; ripgrep's
   * listing leaves out what lies in them by path, not what a link below the root leads into.
   */
  around?: readonly string[];
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
  /** True when the pattern is "**" + "/" + the pre-filter: rg's filter is then exact. */
  prefilterIsExact: boolean;
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
  return pattern
    .split("/")
    .filter((s) => s !== "")
    .map((s) => (s === "**" ? "**" : picomatch(s, options)));
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

/** The folder a pattern's walk starts from (`root` plus its literal leading segments) and the pattern relative to it. */
export function globBase(pattern: string, root: string, platform: NodeJS.Platform = process.platform): { base: string; relative: string } {
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
  return { base: path.resolve(base, ...literalHead), relative: segs.slice(i).join("/") };
}

export function compileGlob(pattern: string, root: string, platform: NodeJS.Platform = process.platform): CompiledGlob {
  const { base, relative } = globBase(pattern, root, platform);
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
    prefilterIsExact: basenamePrefilter !== undefined && relative === `**/${basenamePrefilter}`,
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
  return st?.isFile() ? st.mtimeMs : undefined;
}

// A fact about a binary on disk, the same for every core: asked once per process.
const sortsGloballyCache = new Map<string, Promise<boolean>>();

/**
 * ripgrep 14 and later sort `--sortr modified` across all results; ripgrep 13 (Debian 12) only
 * within each directory, which is useless for "newest first". Asked once per binary.
 */
export function ripgrepSortsGlobally(rg: ResolvedRipgrep, env: NodeJS.ProcessEnv): Promise<boolean> {
  let cached = sortsGloballyCache.get(rg.path);
  if (!cached) {
    let out = "";
    cached = runRipgrep(rg.path, ["--version"], {
      cwd: path.dirname(rg.path),
      env,
      timeoutMs: 5000,
      onStdout: (chunk) => void (out += chunk.toString("utf8")),
    }).then(() => Number(/ripgrep (\d+)\./.exec(out)?.[1] ?? 0) >= 14);
    sortsGloballyCache.set(rg.path, cached);
  }
  return cached;
}

/** How many rg processes list a tree side by side (one per core, at most four). */
function listerCount(): number {
  const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(4, cores));
}

/** Files found while planning a split are matched in Node; beyond this many, rg lists them. */
const MAX_PLANNED_FILES = 1000;

/** Command lines stay well under Windows' 32,767-character limit. */
const MAX_PATH_ARG_CHARS = 24_000;

export interface ListingPlan {
  /** Directories for each rg process (one group of [base] when the walk is not split). */
  groups: string[][];
  /** Files picked up while planning; matched in Node, since rg would list explicit files unfiltered. */
  files: string[];
}

/**
 * Splits the walk over `groups` rg processes: the base's directories, and one level below them
 * when that gives a finer split, dealt round-robin. VCS directories are left out.
 */
export function partitionForListing(base: string, groups: number, root = base, leaveOut: (abs: string) => boolean = () => false): ListingPlan {
  const whole: ListingPlan = { groups: [[base]], files: [] };
  if (groups <= 1) return whole;
  // A symlink given to rg as a root of its own would escape rg's loop detection (which only
  // knows the ancestors inside one walk), so a level holding links is never split.
  const children = (dir: string): { dirs: string[]; files: string[]; hasLinks: boolean } | undefined => {
    try {
      const dirs: string[] = [];
      const files: string[] = [];
      let hasLinks = false;
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (leaveOut(path.join(dir, e.name))) continue;
        if (e.isSymbolicLink()) hasLinks = true;
        if (e.isDirectory() && isVcsDirectoryName(e.name) && insideVcsDirectory(path.join(dir, e.name, "_"), root)) continue;
        (e.isDirectory() ? dirs : files).push(path.join(dir, e.name));
      }
      return { dirs, files, hasLinks };
    } catch {
      return undefined;
    }
  };
  const top = children(base);
  // Loose files are matched in Node one by one: many of them are rg's job.
  if (!top || top.hasLinks || top.files.length > MAX_PLANNED_FILES) return whole;
  let dirs = top.dirs;
  const files = [...top.files];
  if (dirs.length < groups * 4) {
    const finer: string[] = [];
    const finerFiles: string[] = [];
    for (const d of dirs) {
      const c = children(d);
      // An unreadable directory stays whole: rg reports it like any other.
      if (!c || c.hasLinks) finer.push(d);
      else {
        finer.push(...c.dirs);
        finerFiles.push(...c.files);
      }
    }
    const worthIt = finer.length > dirs.length && files.length + finerFiles.length <= MAX_PLANNED_FILES;
    if (worthIt && finer.reduce((n, p) => n + p.length + 3, 0) <= MAX_PATH_ARG_CHARS) {
      dirs = finer;
      files.push(...finerFiles);
    }
  }
  if (dirs.reduce((n, p) => n + p.length + 3, 0) > MAX_PATH_ARG_CHARS) return whole;
  const out: string[][] = Array.from({ length: Math.min(groups, dirs.length) }, () => []);
  for (const [i, p] of dirs.entries()) out[i % out.length]!.push(p);
  return { groups: out, files };
}

/** Counts `byte` in `buf`. */
function countByte(buf: Buffer, byte: number): number {
  let n = 0;
  for (let i = buf.indexOf(byte); i !== -1; i = buf.indexOf(byte, i + 1)) n++;
  return n;
}

/**
 * rg's listing flags. The VCS exclusions come last because rg's later globs win: a pre-filter
 * such as `*` after them would let `.git` back in. `name/` excludes directories only.
 */
function ripgrepListArgs(compiled: CompiledGlob, excludeVcs: boolean, around: readonly string[] = []): string[] {
  const args = ["--files", "--no-config", "--no-ignore", "--hidden", "--follow", "--null", "--no-messages"];
  if (compiled.basenamePrefilter) args.push(compiled.nocase ? "--iglob" : "--glob", compiled.basenamePrefilter);
  if (excludeVcs) for (const d of VCS_DIRECTORIES) args.push("--glob", `!${d}/`);
  // rg prints the paths below the absolute base: an absolute path (without its root) after `**/`.
  for (const p of around) args.push("--glob", `!**/${p.slice(path.parse(p).root.length).replace(/[\\*?[\]{}!]/g, (c) => "\\" + c)}`);
  return args;
}

/** A directory with a VCS name between `base` and `root` holds `root`: rg must not prune it by name. */
function vcsNameAbove(root: string, base: string): boolean {
  return path
    .relative(base, root)
    .split(path.sep)
    .some((s) => isVcsDirectoryName(s));
}

/** Is `real` (or does it lie in) one of the places a listing goes around? */
function isAround(real: string, around: readonly string[] | undefined): boolean {
  return around?.some((a) => isWithin(real, a)) ?? false;
}

function relativeTo(compiled: CompiledGlob, abs: string, win: boolean): string {
  const prefix = compiled.base.endsWith(path.sep) ? compiled.base : compiled.base + path.sep;
  const rel = abs.startsWith(prefix) ? abs.slice(prefix.length) : path.relative(compiled.base, abs);
  return win ? rel.replace(/\\/g, "/") : rel;
}

/**
 * Lists with rg, newest first: gitignored files included, VCS directories never, symlinks
 * followed with rg's loop detection. Several `rg --sortr modified` processes (one per core, at
 * most four) each list part of the tree already sorted, so only the first `limit` matches of
 * each need a stat; with an exact pre-filter the rest are only counted. Needs a ripgrep that
 * sorts globally (see ripgrepSortsGlobally); the tool uses the Node walker otherwise.
 */
export async function globWithRipgrep(req: GlobRequest, compiled: CompiledGlob, rg: ResolvedRipgrep, env: NodeJS.ProcessEnv, listers = listerCount()): Promise<GlobOutcome> {
  const win = (req.platform ?? process.platform) === "win32";
  // rg prints paths below the base as given; the base may be a link (its real path is what `around` holds).
  let baseReal = compiled.base;
  try {
    baseReal = realpathSync.native(compiled.base);
  } catch {
    // keep the given path
  }
  const plan = partitionForListing(compiled.base, listers, req.root, (abs) => isAround(path.join(baseReal, path.relative(compiled.base, abs)), req.around));
  const acc = new NewestFirst(req.limit);
  let total = 0;
  // rg prunes VCS directories by name; the rule itself is applied to every match here as well.
  const rgExcludesVcs = !vcsNameAbove(req.root, compiled.base);
  const counts = (abs: string) => compiled.isMatch(relativeTo(compiled, abs, win)) && !insideVcsDirectory(abs, req.root);
  const consider = (abs: string): boolean => {
    if (req.around?.length && isAround(path.join(baseReal, path.relative(compiled.base, abs)), req.around)) return false;
    if (!counts(abs)) return false;
    total++;
    const mtimeMs = mtimeOf(abs);
    if (mtimeMs !== undefined) acc.add({ path: abs, mtimeMs });
    return true;
  };
  for (const f of plan.files) consider(f);

  const runs = await Promise.all(
    plan.groups.map((paths) => {
      let kept = 0;
      let countingOnly = false;
      let carry: Buffer | undefined;
      const onChunk = (chunk: Buffer) => {
        if (countingOnly) {
          total += countByte(chunk, 0);
          return;
        }
        const data = carry ? Buffer.concat([carry, chunk]) : chunk;
        carry = undefined;
        let from = 0;
        for (let nul = data.indexOf(0); nul !== -1; nul = data.indexOf(0, from)) {
          const abs = data.toString("utf8", from, nul);
          from = nul + 1;
          if (kept < req.limit) {
            if (consider(abs)) kept++;
          } else if (counts(abs)) total++;
          if (kept >= req.limit && compiled.prefilterIsExact && rgExcludesVcs) {
            countingOnly = true;
            total += countByte(data.subarray(from), 0);
            return;
          }
        }
        if (from < data.length) carry = Buffer.from(data.subarray(from));
      };
      const args = [
        ...ripgrepListArgs(
          compiled,
          rgExcludesVcs,
          req.around?.map((a) => path.join(compiled.base, path.relative(baseReal, a))),
        ),
        "--sortr",
        "modified",
        "--",
        ...paths,
      ];
      return runRipgrep(rg.path, args, { cwd: compiled.base, env, signal: req.signal, timeoutMs: req.timeoutMs, onStdout: onChunk });
    }),
  );
  if (runs.some((r) => r.aborted)) throw req.signal?.reason instanceof Error ? req.signal.reason : new Error("aborted");
  const failed = runs.find((r) => r.spawnError);
  if (failed) throw new Error(`could not start ripgrep (${rg.path}): ${failed.spawnError}`);
  return { matches: acc.result(), total, timedOut: runs.some((r) => r.timedOut), engine: "ripgrep", warnings: [] };
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
      if (req.around?.length) {
        if (isFile && e.isSymbolicLink()) {
          try {
            real = realpathSync.native(abs);
          } catch {
            continue;
          }
        }
        if (isAround(real, req.around)) continue;
      }
      if (isDir) {
        if (isVcsDirectoryName(name) && insideVcsDirectory(abs + path.sep + "_", req.root)) continue;
        if (compiled.mayContainMatches(rel)) stack.push({ abs, rel, real, parent: dir });
      } else if (isFile && compiled.isMatch(rel) && !insideVcsDirectory(abs, req.root)) {
        const mtimeMs = mtimeOf(abs);
        if (mtimeMs !== undefined) acc.add({ path: abs, mtimeMs });
      }
    }
  }
  return { matches: acc.result(), total: acc.total, timedOut, engine: "node", warnings };
}
