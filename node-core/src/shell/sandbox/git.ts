// Git metadata in the places a sandboxed command may write, protected by directory: every git
// directory found is read-only as a whole (Codex's rule for `.git` under a writable root, taken to
// every depth), so nothing a command writes can change which configuration, hooks or repository
// git uses later, outside the sandbox. Found here:
//  - `.git` directories, `.git` files (worktrees, submodules: the file itself and the git directory
//    and common directory it leads to), `.git` symlinks (their target), and bare repositories
//    (a folder with HEAD, objects/ and refs/: git run inside one uses its config);
//  - what their configuration, and the user's global configuration, names outside them:
//    `include.path` / `includeIf.*.path` files and the `core.hooksPath` folder. One that does not
//    exist yet cannot be held by a mount: its nearest existing folder is made read-only instead;
//  - the same walk finds the protected names (`.envrc`, `.vscode/`, `.mcp.json`, … — the gate's
//    sensitive workspace list) at every depth, except below `node_modules` (dependencies are code
//    that runs anyway: writing one's `.npmrc` gives a command nothing its `index.js` does not).
//    Past PROTECTED_LIMIT of them, the folders holding the rest are read-only whole.
// It also answers the gate's question which repository git run in a folder uses (discoverRepository).
// The search has no skip list and no depth limit. It stops after SEARCH_LIMIT folders; the folders
// it did not reach are then read-only as a whole (fail closed: a repository in there stays
// unchangeable, and a write there fails with "Read-only file system", which the model may retry
// outside the sandbox — asked). A folder's listing is kept while its mtime, ctime and inode hold,
// so a search repeated for the next command stats each folder instead of listing it.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import { isWithin } from "../../util/paths.js";
import { SENSITIVE_WORKSPACE } from "../../base/sensitive.js";

/**
 * Whether a name in a writable directory is one of the workspace files that run code or grant
 * permissions later — the permission gate's list (base/sensitive.ts), so both guard the same
 * files. Git's metadata is found separately (the rest of this file).
 */
export function protectedName(name: string): boolean {
  return name.toLowerCase() !== ".git" && PROTECTED_NAMES.test(name);
}
/** The list's names in one expression: the walk tests every entry of every folder it lists. */
const PROTECTED_NAMES = new RegExp(
  SENSITIVE_WORKSPACE.filter((e) => !e.parent)
    .map((e) => `(?:${e.name.source})`)
    .join("|"),
  SENSITIVE_WORKSPACE.every((e) => e.name.flags.includes("i")) ? "i" : "",
);

/**
 * Protected names found below the top of the writable roots that get a mount of their own, at
 * most; past this many, the folders that hold the rest are read-only as a whole (fail closed).
 */
export const PROTECTED_LIMIT = 256;
/** Folders whose protected names are not looked for: dependencies, which are code that runs anyway (docs/user/sandbox.md, "Protected names"). */
const NOT_PROTECTED_BELOW = /^node_modules$/;

/** Folders searched per policy, over all writable roots. */
export const SEARCH_LIMIT = 20_000;
/** At most this many read-only mounts for the part of the tree not searched (they are collapsed upwards). */
const UNSEARCHED_MOUNTS_MAX = 32;
/** Nesting of include files followed. */
const INCLUDE_DEPTH = 8;
const CONFIG_MAX_BYTES = 1024 * 1024;

export interface GitProtection {
  /** Git directories, `.git` files and config-named targets that exist: read-only. */
  readOnly: string[];
  /** Folders that hold a config-named target that does not exist yet: read-only (fail closed). */
  missingTargetHolders: string[];
  /** Subtrees the search did not reach (over SEARCH_LIMIT): read-only. */
  unsearched: string[];
  /** Every git metadata entry found (for spotting new ones after a command: repositories created in the sandbox). */
  entries: string[];
  /** Folders visited. */
  searched: number;
  /** Protected names (protectedName) at any depth of the roots, outside dependency folders: read-only. */
  protectedFound: string[];
  /** Folders holding protected names past PROTECTED_LIMIT: read-only as a whole. */
  protectedHolders: string[];
}

interface Listing {
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  dirs: string[];
  /** `.git` (any case on case-insensitive systems): its kind. */
  dotGit?: "dir" | "file" | "link";
  dotGitName?: string;
  bare: boolean;
  /** Entries with a protected name (any kind). */
  protectedNames: string[];
}

const cache = new Map<string, Listing>();
const CACHE_MAX = 200_000;

function listing(dir: string): Listing | undefined {
  let st;
  try {
    st = statSync(dir, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!st?.isDirectory()) return undefined;
  const hit = cache.get(dir);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.ctimeMs === st.ctimeMs && hit.ino === st.ino) return hit;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const dirs: string[] = [];
  let dotGit: Listing["dotGit"];
  let dotGitName: string | undefined;
  let head = false;
  let objects = false;
  let refs = false;
  const protectedNames: string[] = [];
  for (const e of entries) {
    if (protectedName(e.name)) protectedNames.push(e.name);
    if (e.name.toLowerCase() === ".git") {
      dotGit = e.isDirectory() ? "dir" : e.isSymbolicLink() ? "link" : "file";
      dotGitName = e.name;
      continue;
    }
    if (e.isDirectory()) {
      dirs.push(e.name);
      if (e.name === "objects") objects = true;
      else if (e.name === "refs") refs = true;
    } else if (e.name === "HEAD" && (e.isFile() || e.isSymbolicLink())) head = true;
  }
  const l: Listing = { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, dirs, dotGit, dotGitName, bare: head && objects && refs, protectedNames };
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(dir, l);
  return l;
}

function readSmall(file: string): string | undefined {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > CONFIG_MAX_BYTES) return undefined;
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** The git directory a `.git` file names (`gitdir: <path>`), resolved against the file's folder. */
export function gitdirOf(dotGitFile: string): string | undefined {
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGitFile) ?? "")?.[1];
  return pointer ? path.resolve(path.dirname(dotGitFile), pointer) : undefined;
}

/** A git directory and the common directory its `commondir` names (a worktree's: the main repository's). */
function withCommonDir(gitdir: string): string[] {
  const common = readSmall(path.join(gitdir, "commondir"))?.trim();
  return common ? [gitdir, path.resolve(gitdir, common)] : [gitdir];
}

/** One `[section "sub"]` key's values in a git config text. Section and key without regard to case. */
function configValues(text: string, wanted: (section: string, key: string) => boolean): string[] {
  const out: string[] = [];
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (head) {
      section = head[1]!.toLowerCase() + (head[2] !== undefined ? `\0${head[2]}` : "");
      line = head[3]!.trim();
      if (!line) continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv) continue;
    if (!wanted(section.split("\0")[0]!, kv[1]!.toLowerCase())) continue;
    let v = (kv[2] ?? "").replace(/\s+[#;].*$/, "").trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    if (v) out.push(v);
  }
  return out;
}

/** `core.hooksPath`, if set (the last one wins, as in git). */
export function hooksPathOf(configText: string): string | undefined {
  return configValues(configText, (s, k) => s === "core" && k === "hookspath").at(-1);
}

/** `include.path` and `includeIf.<condition>.path` values (every condition counts: it may hold later). */
export function includePathsOf(configText: string): string[] {
  return configValues(configText, (s, k) => (s === "include" || s === "includeif") && k === "path").map((p) => p.replace(/^:\(optional\)/, ""));
}

function expandHome(p: string, home: string | undefined): string | undefined {
  if (p === "~" || p.startsWith("~/")) return home ? path.join(home, p.slice(2)) : undefined;
  if (p.startsWith("~")) return undefined;
  return p;
}

/**
 * Files and folders a config file (and the files it includes) names: include files (relative to
 * the including file's folder) and the hooks folder (relative to `workTree` when given).
 */
function namedByConfig(configFile: string, home: string | undefined, workTree: string | undefined, out: Set<string>, depth = 0): void {
  if (depth > INCLUDE_DEPTH) return;
  const text = readSmall(configFile);
  if (text === undefined) return;
  const hooks = hooksPathOf(text);
  if (hooks !== undefined) {
    const h = expandHome(hooks, home);
    if (h) out.add(path.resolve(workTree ?? path.dirname(configFile), h));
  }
  for (const inc of includePathsOf(text)) {
    const p = expandHome(inc, home);
    if (!p) continue;
    const target = path.resolve(path.dirname(configFile), p);
    if (out.has(target)) continue;
    out.add(target);
    namedByConfig(target, home, workTree, out, depth + 1);
  }
}

/** The user's global git configuration files (include targets in them count too). */
export function globalGitConfigs(home: string | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  const out = ["/etc/gitconfig"];
  if (env.GIT_CONFIG_SYSTEM && path.isAbsolute(env.GIT_CONFIG_SYSTEM)) out.push(env.GIT_CONFIG_SYSTEM);
  if (env.GIT_CONFIG_GLOBAL && path.isAbsolute(env.GIT_CONFIG_GLOBAL)) out.push(env.GIT_CONFIG_GLOBAL);
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : home ? path.join(home, ".config") : undefined;
  if (xdg) out.push(path.join(xdg, "git/config"));
  if (home) out.push(path.join(home, ".gitconfig"));
  return out;
}

/** Collapses the not-searched folders upwards until there are few enough to mount. */
function collapse(dirs: string[], roots: readonly string[]): string[] {
  let list = [...new Set(dirs)];
  const depth = (p: string) => p.split("/").length;
  while (list.length > UNSEARCHED_MOUNTS_MAX) {
    const deepest = Math.max(...list.map(depth));
    list = [...new Set(list.map((p) => (depth(p) === deepest && !roots.includes(p) ? path.dirname(p) : p)))];
    list = list.filter((p) => !list.some((q) => q !== p && isWithin(p, q)));
    if (list.every((p) => roots.includes(p))) break;
  }
  return list;
}

/**
 * Finds the git metadata under `roots` (canonical, existing folders) and what configuration
 * names: see the file's head. `home`/`env` locate the global configuration.
 */
export function findGitMetadata(
  roots: readonly string[],
  home: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  limit = SEARCH_LIMIT,
  protectedLimit = PROTECTED_LIMIT,
): GitProtection {
  const protectedFound: string[] = [];
  const protectedHolders: string[] = [];
  // Dependencies' folders (`node_modules`) and what is below them: no protected names looked for.
  const dependencies = new Set<string>();
  const readOnly = new Set<string>();
  const entries: string[] = [];
  const configs: Array<{ file: string; workTree?: string }> = [];
  const addGitDir = (gitdir: string, workTree: string | undefined) => {
    for (const d of withCommonDir(gitdir)) {
      readOnly.add(d);
      configs.push({ file: path.join(d, "config"), workTree }, { file: path.join(d, "config.worktree"), workTree });
    }
  };
  let searched = 0;
  const stack = [...roots].reverse();
  const unsearched: string[] = [];
  while (stack.length) {
    const dir = stack.pop()!;
    if (searched >= limit) {
      unsearched.push(dir, ...stack.splice(0));
      break;
    }
    searched++;
    const l = listing(dir);
    if (!l) continue;
    const parent = path.dirname(dir);
    const inDependencies = dependencies.has(parent) || (NOT_PROTECTED_BELOW.test(path.basename(dir)) && !roots.includes(dir));
    if (inDependencies) dependencies.add(dir);
    else if (l.protectedNames.length) {
      if (protectedFound.length + l.protectedNames.length > protectedLimit) protectedHolders.push(dir);
      else for (const name of l.protectedNames) protectedFound.push(path.join(dir, name));
    }
    if (l.bare) {
      // git run here (or below) treats this folder as a repository.
      entries.push(dir);
      addGitDir(dir, undefined);
      continue;
    }
    if (l.dotGit) {
      const dotGit = path.join(dir, l.dotGitName!);
      entries.push(dotGit);
      if (l.dotGit === "dir") addGitDir(dotGit, dir);
      else if (l.dotGit === "file") {
        readOnly.add(dotGit);
        const gitdir = gitdirOf(dotGit);
        if (gitdir) addGitDir(gitdir, dir);
      } else {
        const target = realOrUndefined(dotGit);
        if (target) addGitDir(target, dir);
      }
    }
    for (let i = l.dirs.length - 1; i >= 0; i--) stack.push(path.join(dir, l.dirs[i]!));
  }
  const named = new Set<string>();
  for (const c of configs) namedByConfig(c.file, home, c.workTree, named);
  for (const g of globalGitConfigs(home, env)) namedByConfig(g, home, undefined, named);
  const missingTargetHolders: string[] = [];
  for (const target of named) {
    let st;
    try {
      st = lstatSync(target, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (st) {
      readOnly.add(target);
      const real = realOrUndefined(target);
      if (real && real !== target) readOnly.add(real);
      continue;
    }
    // Not there yet: the folder it would be created in, or the nearest one that exists.
    let holder = path.dirname(target);
    while (holder !== path.dirname(holder) && statSync(holder, { throwIfNoEntry: false }) === undefined) holder = path.dirname(holder);
    missingTargetHolders.push(holder);
  }
  return { readOnly: [...readOnly], missingTargetHolders, unsearched: collapse(unsearched, roots), entries, searched, protectedFound, protectedHolders: collapse(protectedHolders, roots) };
}

/** Forgets cached listings (tests). */
export function clearGitSearchCache(): void {
  cache.clear();
}

/** Whether `dir` is a git directory as git's discovery takes one: HEAD, and objects/ and refs/ (or a commondir). */
function isGitDirectory(dir: string): boolean {
  const kind = (name: string) => lstatSync(path.join(dir, name), { throwIfNoEntry: false });
  try {
    if (!kind("HEAD")) return false;
    if (kind("commondir")) return true;
    return statSync(path.join(dir, "objects"), { throwIfNoEntry: false })?.isDirectory() === true && statSync(path.join(dir, "refs"), { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** The repository git run in `cwd` would use, as its discovery finds it. */
export interface DiscoveredRepository {
  /** The git directory (canonical where it exists): its config is what git reads. */
  gitDir: string;
  /** What led there: a `.git` folder, a `.git` file or link, or the folder itself (a bare repository, or one with `core.worktree`). */
  via: "dir" | "file" | "bare";
  /** The folder discovery stopped in. */
  at: string;
}

/**
 * The repository git run in `cwd` (canonical) would use: each folder from `cwd` up, its `.git`
 * (a folder, or a file or link leading to the git directory) and then the folder itself (a bare
 * repository). `GIT_CEILING_DIRECTORIES` stops the walk as it stops git. Undefined when there is
 * none. Errs towards finding one: a `.git` that git would pass over still counts.
 */
export function discoverRepository(cwd: string, env: Readonly<Record<string, string | undefined>> = process.env): DiscoveredRepository | undefined {
  const ceilings = (env.GIT_CEILING_DIRECTORIES ?? "")
    .split(":")
    .filter((c) => path.isAbsolute(c))
    .map((c) => realOrUndefined(c) ?? c);
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    let st;
    try {
      st = lstatSync(dotGit, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) return { gitDir: dotGit, via: "dir", at: dir };
    if (st) {
      const target = st.isSymbolicLink() ? realOrUndefined(dotGit) : gitdirOf(dotGit);
      return { gitDir: (target && realOrUndefined(target)) ?? target ?? dotGit, via: "file", at: dir };
    }
    if (isGitDirectory(dir)) return { gitDir: dir, via: "bare", at: dir };
    const up = path.dirname(dir);
    if (up === dir || ceilings.includes(up)) return undefined;
  }
}

/** The common directory of a git directory (its `commondir`, a linked worktree's main repository), or the directory itself. */
export function commonDirOf(gitDir: string): string {
  const [, common] = withCommonDir(gitDir);
  return common ? (realOrUndefined(common) ?? common) : gitDir;
}
