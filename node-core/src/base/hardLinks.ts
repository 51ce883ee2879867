// A hard link is the file it links to: `ln ~/.ssh/id_ed25519 notes.txt` gives the key a second
// name that no list of paths knows, and reading `notes.txt` reads the key. So a file the gate is
// asked to let the model read is compared, by device and inode, with the files of the credential
// stores (base/credentials.ts, the list the sandbox masks) and Wave's state — but only when it has
// more than one name (st_nlink > 1), the cheap trigger: a file with one name is no other file.
//
// Searches (Grep, Glob, a read-only `grep -r`) read files they are not given by name. The other
// direction is cheap too: a credential file with one name (st_nlink 1) has no other name
// anywhere. Only when one has more is the searched folder walked for its other names
// (LINK_WALK_LIMIT entries at most; a folder larger than that is not searched at all — fail
// closed, and the result says so).
//
// Cost: the stores' files are known by listing their folders once and keeping each listing while
// the folder's mtime, ctime and inode hold (a replaced file changes its folder), so a question
// costs one stat per store path and per store folder — STORE_WALK_LIMIT entries at most; stores
// larger than that (a browser profile with tens of thousands of files) make every file with
// several names count as possibly a credential (fail closed).
import { lstatSync, readdirSync, statSync, type BigIntStats } from "node:fs";
import path from "node:path";
import { CREDENTIAL_FOLDERS_IN_HOME, CREDENTIALS_IN_HOME, credentialsFromEnvironment, SYSTEM_CREDENTIALS } from "./credentials.js";

/** Entries of the credential stores compared at most (all homes together). */
export const STORE_WALK_LIMIT = 20_000;
/** Entries of a searched folder walked at most for the other names of a hard-linked credential. */
export const LINK_WALK_LIMIT = 100_000;
/** Names a search goes around one by one at most; beyond, it goes around the whole folder. */
const AROUND_MAX = 1_000;

export interface Places {
  readonly homes: readonly string[];
  readonly stateDirectories?: readonly string[];
}

interface Credential {
  /** `dev:ino`. */
  id: string;
  path: string;
  nlink: number;
}

interface FolderListing {
  key: string;
  files: Credential[];
  dirs: string[];
}

const folders = new Map<string, FolderListing>();
const FOLDER_CACHE_MAX = 50_000;

const idOf = (st: BigIntStats) => `${st.dev}:${st.ino}`;

function lstat(p: string): BigIntStats | undefined {
  try {
    return lstatSync(p, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** As lstat, through links: a store named through one (~/.aws -> dotfiles/aws) is its real file. */
function stat(p: string): BigIntStats | undefined {
  try {
    return statSync(p, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function folder(dir: string, st: BigIntStats): FolderListing {
  const key = `${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
  const hit = folders.get(dir);
  if (hit && hit.key === key) return hit;
  const files: Credential[] = [];
  const dirs: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // unreadable: nothing in it can be read through another name by us either
  }
  for (const name of names) {
    const p = path.join(dir, name);
    const e = lstat(p);
    if (!e) continue;
    if (e.isDirectory()) dirs.push(p);
    else if (e.isFile()) files.push({ id: idOf(e), path: p, nlink: Number(e.nlink) });
  }
  const l = { key, files, dirs };
  if (folders.size >= FOLDER_CACHE_MAX) folders.clear();
  folders.set(dir, l);
  return l;
}

const homeListings = new Map<string, { key: string; names: Set<string> }>();

/** The names in a home directory (undefined when it cannot be listed: every store is then asked about). */
function homeNames(home: string): Set<string> | undefined {
  const st = stat(home);
  if (!st?.isDirectory()) return undefined;
  const key = `${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
  const hit = homeListings.get(home);
  if (hit?.key === key) return hit.names;
  try {
    const names = new Set(readdirSync(home));
    homeListings.set(home, { key, names });
    return names;
  } catch {
    return undefined;
  }
}

/** The files of every credential store and state directory (each only where it exists), and whether the list is whole. */
export function credentialFiles(places: Places): { files: Credential[]; complete: boolean } {
  const roots = new Set<string>();
  for (const home of places.homes) {
    // Most stores are missing: one listing of the home directory (kept while it holds) rules them out by their first name.
    const names = homeNames(home);
    for (const rel of [...CREDENTIAL_FOLDERS_IN_HOME, ...CREDENTIALS_IN_HOME]) if (!names || names.has(rel.split("/")[0]!)) roots.add(path.join(home, rel));
  }
  for (const p of [...SYSTEM_CREDENTIALS, ...credentialsFromEnvironment(process.env), ...(places.stateDirectories ?? [])]) roots.add(p);
  const files: Credential[] = [];
  let budget = STORE_WALK_LIMIT;
  const stack: string[] = [];
  for (const r of roots) {
    // A store named through a link (~/.aws -> dotfiles/aws): its real file counts.
    const st = stat(r);
    if (!st) continue;
    if (st.isFile()) files.push({ id: idOf(st), path: r, nlink: Number(st.nlink) });
    else if (st.isDirectory()) stack.push(r);
  }
  const seen = new Set<string>();
  while (stack.length) {
    const dir = stack.pop()!;
    const real = stat(dir);
    if (!real?.isDirectory() || seen.has(idOf(real))) continue;
    seen.add(idOf(real));
    const l = folder(dir, real);
    budget -= l.files.length + l.dirs.length + 1;
    if (budget < 0) return { files, complete: false };
    files.push(...l.files);
    stack.push(...l.dirs);
  }
  return { files, complete: true };
}

/**
 * The credential a file with several names is (`target`: a real path), or — when the stores are
 * too large to compare with — the file itself as possibly one. Undefined for a file with one name.
 */
export function hardLinkedCredential(target: string, places: Places): { anchor: string; what: string } | undefined {
  const st = lstat(target);
  if (!st?.isFile() || st.nlink <= 1n) return undefined;
  return credentialWithId(idOf(st), target, places, Number(st.nlink));
}

/** As hardLinkedCredential, for a file already opened (its `fstat`): the name it was opened by is `shown`. */
export function credentialWithId(id: string, shown: string, places: Places, nlink = 2): { anchor: string; what: string } | undefined {
  const { files, complete } = credentialFiles(places);
  const same = files.find((f) => f.id === id && f.path !== shown);
  if (same) return { anchor: same.path, what: `a hard link to the credential store ${same.path}` };
  if (!complete && nlink > 1) return { anchor: shown, what: `a file with several hard links, which may be a credential store's (the stores hold over ${STORE_WALK_LIMIT} entries to compare with)` };
  return undefined;
}

/**
 * The other names, below `dir` (a real folder), of credential files that have several: what a
 * search of `dir` must go around. `[dir]` when the folder is too large to look through (the
 * search goes around all of it). Empty — after one stat per store — when no credential file has
 * a second name.
 */
export function linkedCredentialsInside(dir: string, places: Places): string[] {
  const { files, complete } = credentialFiles(places);
  const linked = new Map(files.filter((f) => f.nlink > 1).map((f) => [f.id, f.path]));
  if (complete && linked.size === 0) return [];
  const found: string[] = [];
  let budget = LINK_WALK_LIMIT;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    budget -= entries.length;
    if (budget < 0) return [dir];
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) {
        const st = lstat(p);
        if (!st || st.nlink <= 1n) continue;
        const id = idOf(st);
        if (linked.has(id) && linked.get(id) !== p) found.push(p);
        else if (!complete) found.push(p);
        if (found.length > AROUND_MAX) return [dir];
      }
    }
  }
  return found;
}

/** Forgets the cached store listings (tests). */
export function clearHardLinkCache(): void {
  folders.clear();
  homeListings.clear();
  linkedCache.clear();
}

const linkedCache = new Map<string, { at: number; linked: Credential[]; complete: boolean }>();

/**
 * The store files that have several names, looked at again at most every `maxAgeMs` (the sandbox
 * asks before every command; a second name is made rarely, and one made within that time is
 * found by the next look).
 */
export function linkedCredentialFiles(places: Places, maxAgeMs = 5000): { linked: Credential[]; complete: boolean } {
  const key = JSON.stringify([places.homes, places.stateDirectories ?? []]);
  const hit = linkedCache.get(key);
  const now = Date.now();
  if (hit && now - hit.at < maxAgeMs) return hit;
  const { files, complete } = credentialFiles(places);
  const entry = { at: now, linked: files.filter((f) => f.nlink > 1), complete };
  linkedCache.set(key, entry);
  return entry;
}
