// What a sandboxed command may touch, as plain lists of canonical paths: the policy both the
// bubblewrap argv (linux.ts) and the Seatbelt profile (macos.ts) are generated from. Pure apart
// from the file-system questions it asks through `PolicyFs` (does this exist, where does it
// really lead, what is in this directory) and the git search (git.ts), so tests can give any
// machine layout.
//
// Reading: everything the user can read, minus credential stores (base/credentials.ts, the list
// the permission gate shares, for `$HOME` and the account's home directory both, with the private
// keys in ~/.ssh and its sub-folders; the ones that are configuration too get a copy without their
// secrets), root-only system secrets, `sandbox.denyRead`, and Wave's state directories, where
// listening cores keep their bearer tokens (base/stateDir.ts). Unix sockets: none at all when the
// seccomp filter can refuse them (seccomp.ts); with `sandbox.allowUnixSockets`, every other socket
// found is masked instead.
// Writing: only the allowed directories, `sandbox.allowWrite`, the private temporary directory,
// this command's own output and cwd files, and named package-manager caches — never a kernel
// interface; inside those, every git directory at any depth (git.ts), the gate's sensitive
// workspace files (base/sensitive.ts), the core's own start-up files, and in the home directory
// PROTECTED_IN_HOME stay read-only.
import { accessSync, constants as fsConstants, existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { CREDENTIAL_FILTERS, CREDENTIALS_IN_HOME, credentialsFromEnvironment, isSshCredential, REWRITTEN_OFTEN, SYSTEM_CREDENTIALS, type CredentialFilter } from "../../base/credentials.js";
import { LOCK_FOLDER } from "../../base/stateDir.js";
import { isWithin } from "../../util/paths.js";
import type { SandboxNetwork } from "../../base/settings.js";
import { findGitMetadata, protectedName, type GitProtection } from "./git.js";
import { linkedCredentialFiles, linkedCredentialsInside } from "../../base/hardLinks.js";

/**
 * In the home directory, read-only whenever the home directory (or the file a link leads to) is
 * writable at all: shell and tool start-up files, agent configuration, autostart entries.
 */
export const PROTECTED_IN_HOME: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".config/fish",
  ".gitconfig",
  ".config/git",
  ".ssh",
  ".npmrc",
  ".pypirc",
  ".claude",
  ".claude.json",
  ".config/autostart",
  ".config/systemd",
  ".local/bin",
];

/**
 * Sockets of daemons that run programs or containers for whoever connects (Docker is root on the
 * host; the user's systemd and D-Bus session start processes outside the sandbox; gpg-agent and
 * the keyring hand out secrets). Masked so connecting fails with "Permission denied".
 */
export function daemonSockets(env: Readonly<Record<string, string | undefined>>): string[] {
  const out = ["/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock", "/run/podman/podman.sock", "/run/dbus/system_bus_socket", "/tmp/.X11-unix"];
  const runtime = absolute(env.XDG_RUNTIME_DIR);
  if (runtime) {
    for (const name of ["bus", "docker.sock", "podman", "systemd", "gnupg", "keyring"]) out.push(path.join(runtime, name));
  }
  const dockerHost = env.DOCKER_HOST?.startsWith("unix://") ? env.DOCKER_HOST.slice("unix://".length) : undefined;
  if (absolute(dockerHost)) out.push(dockerHost!);
  const bus = /(?:^|;)unix:path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? "")?.[1];
  if (absolute(bus)) out.push(bus!);
  return out;
}

/**
 * Package-manager and build-tool caches commands may write: the cache folders only, never the
 * tools' configuration, init scripts or hooks. Each honours the variable that moves it.
 */
export function cacheDirectories(home: string | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  const add = (p: string | undefined) => {
    if (p) out.push(p);
  };
  const inHome = (rel: string) => (home ? path.join(home, rel) : undefined);
  const xdgCache = absolute(env.XDG_CACHE_HOME) ?? inHome(".cache");
  const xdgData = absolute(env.XDG_DATA_HOME) ?? inHome(".local/share");
  const under = (base: string | undefined, rel: string) => (base ? path.join(base, rel) : undefined);
  // npm: the content-addressed cache (verified on read) and its logs; not _npx, whose packages run later.
  const npm = absolute(env.npm_config_cache) ?? inHome(".npm");
  add(under(npm, "_cacache"));
  add(under(npm, "_logs"));
  add(absolute(env.YARN_CACHE_FOLDER) ?? under(xdgCache, "yarn"));
  add(inHome(".yarn/berry/cache"));
  add(under(xdgData, "pnpm/store"));
  add(under(xdgCache, "pnpm"));
  add(inHome(".bun/install/cache"));
  add(absolute(env.PIP_CACHE_DIR) ?? under(xdgCache, "pip"));
  add(absolute(env.UV_CACHE_DIR) ?? under(xdgCache, "uv"));
  add(under(xdgCache, "pypoetry/cache"));
  add(under(xdgCache, "pypoetry/artifacts"));
  const cargo = absolute(env.CARGO_HOME) ?? inHome(".cargo");
  add(under(cargo, "registry"));
  add(under(cargo, "git"));
  const gopath = absolute(env.GOPATH?.split(path.delimiter)[0]) ?? inHome("go");
  add(absolute(env.GOMODCACHE) ?? under(gopath, "pkg/mod"));
  add(absolute(env.GOCACHE) ?? under(xdgCache, "go-build"));
  const gradle = absolute(env.GRADLE_USER_HOME) ?? inHome(".gradle");
  for (const rel of ["caches", "wrapper/dists", "daemon", "native"]) add(under(gradle, rel));
  add(inHome(".m2/repository"));
  add(absolute(env.CCACHE_DIR) ?? under(xdgCache, "ccache"));
  add(inHome(".ccache"));
  add(under(xdgCache, "sccache"));
  add(under(xdgCache, "node-gyp"));
  add(absolute(env.DENO_DIR) ?? under(xdgCache, "deno"));
  add(under(xdgCache, "composer"));
  add(inHome(".nuget/packages"));
  // macOS puts several of these under ~/Library/Caches.
  for (const rel of ["pip", "go-build", "Yarn", "pnpm", "deno", "sccache", "ccache"]) add(inHome(`Library/Caches/${rel}`));
  return out;
}

function absolute(p: string | undefined): string | undefined {
  return p && path.isAbsolute(p) ? p : undefined;
}

/** The file-system questions the policy asks. */
export interface PolicyFs {
  /** What the path is once symlinks are followed; undefined when it does not exist. */
  kind(p: string): "file" | "dir" | "other" | undefined;
  /** The path with every symlink resolved; undefined when it does not exist. */
  realpath(p: string): string | undefined;
  /** Entry names of a directory ([] when it cannot be listed). */
  list(dir: string): string[];
  /** Names of the real subdirectories of a directory (symlinks not followed). */
  listDirectories(dir: string): string[];
  /** A small text file's contents (undefined when unreadable). */
  readText(file: string): string | undefined;
  /** Whether this process may read the path (a file only root can read needs no mask otherwise). */
  readable(p: string): boolean;
}

/**
 * Node's file system, memoised for one policy: a path whose parent is missing is missing without
 * asking, and the home directory and its direct subdirectories — where most candidates are — are
 * listed once instead of asked about name by name. No answer costs an exception (throwing costs
 * more than asking).
 */
export function nodePolicyFs(home?: string): PolicyFs {
  const present = new Map<string, boolean>();
  const listings = new Map<string, Set<string> | null>();
  const listing = (dir: string): Set<string> | null => {
    let l = listings.get(dir);
    if (l === undefined) {
      try {
        l = new Set(readdirSync(dir));
      } catch {
        l = null;
      }
      listings.set(dir, l);
    }
    return l;
  };
  const exists = (p: string): boolean => {
    let v = present.get(p);
    if (v === undefined) {
      const parent = path.dirname(p);
      if (parent === p) v = true;
      else if (!exists(parent)) v = false;
      else {
        const listed = home !== undefined && (parent === home || path.dirname(parent) === home) ? listing(parent) : null;
        v = listed ? listed.has(path.basename(p)) : existsSync(p);
      }
      present.set(p, v);
    }
    return v;
  };
  return {
    kind(p) {
      if (!exists(p)) return undefined;
      const st = statSync(p, { throwIfNoEntry: false });
      return st === undefined ? undefined : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
    },
    realpath(p) {
      if (!exists(p)) return undefined;
      try {
        return realpathSync.native(p);
      } catch {
        return undefined;
      }
    },
    list(dir) {
      if (!exists(dir)) return [];
      try {
        return readdirSync(dir);
      } catch {
        return [];
      }
    },
    listDirectories(dir) {
      if (!exists(dir)) return [];
      try {
        return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? [d.name] : []));
      } catch {
        return [];
      }
    },
    readable(p) {
      if (!exists(p)) return false;
      try {
        accessSync(p, fsConstants.R_OK);
        return true;
      } catch {
        return false;
      }
    },
    readText(file) {
      if (!exists(file)) return undefined;
      try {
        const text = readFileSync(file, "utf8");
        return text.length > 256 * 1024 ? undefined : text;
      } catch {
        return undefined;
      }
    },
  };
}

export interface PolicyInput {
  /** `$HOME`. */
  home: string | undefined;
  /** The account's home directory from the password database (base/stateDir.ts accountHome), when it differs. */
  accountHome?: string;
  /** The core's environment: where caches and daemon sockets are. */
  env: Readonly<Record<string, string | undefined>>;
  /** The workspace root and every directory the session may use (absolute). */
  allowedDirectories: readonly string[];
  /** `sandbox.allowWrite`, absolute. */
  allowWrite: readonly string[];
  /** `sandbox.denyRead`, absolute. */
  denyRead: readonly string[];
  /**
   * Wave's state directories (base/stateDir.ts), absolute: unreadable and unwritable, as they hold
   * the tokens of listening cores. Only those that exist can be masked: create them first.
   */
  stateDirectories?: readonly string[];
  /** The private temporary directory (TMPDIR inside the sandbox). */
  tmpDir: string;
  /** This command's own output file(s) and cwd file. */
  runFiles: readonly string[];
  network: SandboxNetwork;
  /**
   * Folders of the core's own that it reads as code outside the sandbox (its shells' start-up
   * files, the shim prelude, the sandbox's own files): read-only wherever they are.
   */
  coreFiles?: readonly string[];
  /**
   * Unix sockets are not refused by the seccomp filter (`sandbox.allowUnixSockets` is set, or no
   * filter exists for this architecture): the sockets `found` (sockets.ts) and the daemon sockets
   * are masked, except those `allow` names.
   */
  unixSockets?: { allow: readonly string[]; found?: readonly string[] };
  /** Root-only system secrets to mask where this process can read them (default SYSTEM_CREDENTIALS). */
  systemCredentials?: readonly string[];
  /** Folders the git search visits at most (default git.ts SEARCH_LIMIT). */
  gitSearchLimit?: number;
  /** The git search's answer for these roots when the caller made it already (guard.ts looks at it first). */
  git?: GitProtection;
  /** Writes the copy of a credential store without its secrets and returns its path (undefined: mask it instead). */
  filteredCopy?: (file: string, filter: CredentialFilter) => string | undefined;
  fs?: PolicyFs;
}

export interface FilteredPath {
  /** The credential store (canonical). */
  path: string;
  /** The copy without secrets bound read-only over it. */
  copy: string;
}

export interface DeniedPath {
  path: string;
  /** Masked with an empty unreadable directory (true) or file (false). */
  directory: boolean;
}

export interface SandboxPolicy {
  /** Writable (bound read-write), canonical, outermost first. */
  writable: string[];
  /**
   * Directories between a writable directory and a protected or denied path below it, bound onto
   * themselves (still writable) so they cannot be renamed away with the protection inside:
   * `mv .git x && mkdir .git` must not leave a writable `.git/config`.
   */
  pinned: string[];
  /** Protected paths inside writable directories: read-only. */
  readOnly: string[];
  /** Unreadable. */
  denied: DeniedPath[];
  /** Credential stores shown as a copy without their secrets. */
  filtered: FilteredPath[];
  network: SandboxNetwork;
  /** `blocked`: the seccomp filter refuses every unix socket; `masked`: the ones found are masked. */
  unixSockets: "blocked" | "masked";
  /** `sandbox.allowUnixSockets`, canonical: the sockets commands may connect to (Seatbelt allows exactly these). */
  unixSocketsAllowed: string[];
  tmpDir: string;
  /** Writable places given that the policy does not honour, and why. */
  ignored: IgnoredPath[];
  /** What else the log should say about this policy (read-only folders that fail closed). */
  notes: string[];
  /** Git metadata found in the writable places (a `.git`, a bare repository): new ones after a command were made in the sandbox. */
  gitEntries: string[];
  /** The writable roots searched for it. */
  gitRoots: string[];
  /** Protections held by a mount on a single file (lost if the file is replaced by rename outside): watched. */
  fileLevel: string[];
  /** Each `fileLevel` file's `dev:ino` when the policy was made (set by the service): what the sandbox was built on. */
  fileLevelIds?: Record<string, string>;
}

export interface IgnoredPath {
  path: string;
  reason: string;
}

const inside = (p: string, dirs: readonly string[]) => dirs.some((d) => isWithin(p, d));
const depth = (p: string) => p.split("/").filter(Boolean).length;
const unique = (list: Iterable<string>) => [...new Set(list)];

/** Drops entries lying inside another entry of the same list (they add nothing). */
function outermost(list: readonly string[]): string[] {
  const sorted = unique(list).sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
  const out: string[] = [];
  for (const p of sorted) if (!inside(p, out)) out.push(p);
  return out;
}

/** Kernel interfaces: never writable, whatever a setting says (their files change the host, not a folder). */
const KERNEL_TREES = ["/proc", "/sys", "/dev"];

/** The protected paths to consider at the top of one writable directory (existing or not). */
function protectedCandidates(root: string, fs: PolicyFs): string[] {
  return fs
    .list(root)
    .filter(protectedName)
    .map((name) => path.join(root, name));
}

/**
 * Credential stores of one home directory: CREDENTIALS_IN_HOME, and in ~/.ssh every entry that is
 * not a readable name — in its sub-folders too.
 */
function homeCredentials(home: string, fs: PolicyFs): string[] {
  const out = CREDENTIALS_IN_HOME.map((rel) => path.join(home, rel));
  const walk = (dir: string, rel: string, level: number) => {
    for (const name of fs.list(dir)) {
      const r = rel ? `${rel}/${name}` : name;
      const p = path.join(dir, name);
      const kind = fs.kind(p);
      if (kind === "dir") {
        if (isSshCredential(r)) out.push(p);
        else if (level < 4) walk(p, r, level + 1);
      } else if (isSshCredential(r, level > 0 && kind === "file" ? fs.readText(p)?.slice(0, 4096) : undefined)) out.push(p);
    }
  };
  walk(path.join(home, ".ssh"), "", 0);
  return out;
}

export function buildPolicy(input: PolicyInput): SandboxPolicy {
  const fs = input.fs ?? nodePolicyFs(input.home);
  const real = (p: string) => fs.realpath(p);
  const existing = (list: Iterable<string>) => unique([...list].flatMap((p) => real(p) ?? []));
  const homesGiven = unique([input.home, input.accountHome].filter((h): h is string => !!h));
  const homes = unique(homesGiven.map((h) => real(h) ?? h));
  const home = homes[0];

  // Never a directory that contains a home directory or a kernel interface: one bad variable must not open everything.
  const tooBroad = (p: string) => p === "/" || homes.some((h) => isWithin(h, p));
  const kernel = (p: string) => KERNEL_TREES.some((k) => isWithin(p, k));
  // A writable place named through a symlink that lies inside another writable place could have
  // been planted by an earlier command (`rm -r cache && ln -s ~ cache`): such a name is ignored.
  const ignored: IgnoredPath[] = [];
  const notes: string[] = [];
  const cacheDirs = homesGiven.flatMap((h) => cacheDirectories(h, input.env));
  const givenWritable = [...input.allowedDirectories, ...input.allowWrite, ...cacheDirs].map((p) => path.resolve(p));
  const trusted = (given: string): string | undefined => {
    const r = real(given);
    if (r !== undefined && kernel(r)) {
      ignored.push({ path: given, reason: `it is a kernel interface (${r}): writing there would change the host` });
      return undefined;
    }
    if (r === undefined || r === given) return r;
    const holder = givenWritable.find((w) => w !== given && isWithin(given, w));
    if (holder === undefined) return r;
    ignored.push({ path: given, reason: `it leads through a symlink (to ${r}) inside ${holder}, which sandboxed commands may write` });
    return undefined;
  };
  const trustedAll = (list: readonly string[]) => unique(list.flatMap((p) => trusted(path.resolve(p)) ?? []));
  const roots = trustedAll([...input.allowedDirectories, ...input.allowWrite]).filter((p) => p !== "/");
  const caches = trustedAll(cacheDirs).filter((p) => fs.kind(p) === "dir" && !tooBroad(p));
  const tmpDir = real(input.tmpDir) ?? input.tmpDir;
  const runFiles = existing(input.runFiles);
  const writableAll = unique([...roots, ...caches, tmpDir, ...runFiles]);

  // Unreadable paths, each only where it exists; credential stores that are configuration too get a filtered copy.
  const denyCandidates = [...input.denyRead, ...credentialsFromEnvironment(input.env)];
  const sockets = input.unixSockets;
  // A socket in a writable place is a command's own (a test server of a background task): not masked.
  if (sockets) denyCandidates.push(...[...daemonSockets(input.env), ...(sockets.found ?? [])].filter((p) => !inside(real(p) ?? p, writableAll)));
  const filtered: FilteredPath[] = [];
  for (const h of homesGiven) {
    for (const p of homeCredentials(h, fs)) {
      const rel = path.relative(h, p);
      const filter = CREDENTIAL_FILTERS[rel];
      const r = filter && input.filteredCopy && fs.kind(p) === "file" ? real(p) : undefined;
      const copy = r ? input.filteredCopy!(r, filter!) : undefined;
      if (r && copy) filtered.push({ path: r, copy });
      else denyCandidates.push(p);
    }
  }
  for (const p of input.systemCredentials ?? SYSTEM_CREDENTIALS) if (fs.readable(p)) denyCandidates.push(p);
  // A store file with several names (hard links) is masked by its name; its other names in the
  // writable folders are masked too (base/hardLinks.ts: looked for only when a store file has
  // several). Names elsewhere on the disk cannot be found per command: the log says so.
  if (!input.fs) {
    const places = { homes: homesGiven, stateDirectories: input.stateDirectories };
    const { linked, complete } = linkedCredentialFiles(places);
    if (linked.length && complete) {
      for (const r of roots) {
        const found = linkedCredentialsInside(r, places);
        if (found.length === 1 && found[0] === r)
          notes.push(`${r} holds too many files to look for the other names (hard links) of ${linked.map((f) => f.path).join(", ")}: a name in there stays readable`);
        else denyCandidates.push(...found);
      }
      notes.push(
        `${linked.map((f) => f.path).join(", ")} ${linked.length === 1 ? "has" : "have"} several names (hard links): the ones in the writable folders are masked too, a name elsewhere stays readable inside the sandbox`,
      );
    }
  }
  // A state directory that holds a writable place or a home directory (WAVE_STATE_DIR=~) cannot
  // be masked whole: then its lock folder is.
  const holdsOthers = (dir: string) => homes.some((h) => isWithin(h, dir)) || writableAll.some((w) => isWithin(w, dir));
  for (const s of existing(input.stateDirectories ?? [])) denyCandidates.push(holdsOthers(s) ? path.join(s, LOCK_FOLDER) : s);
  const allowedSockets = new Set(existing(sockets?.allow ?? []));
  // A folder to mask that holds an allowed socket is masked entry by entry around it.
  const aroundAllowed = (p: string): string[] => {
    const r = real(p);
    if (!r || ![...allowedSockets].some((a) => isWithin(a, r) && a !== r) || fs.kind(r) !== "dir") return [p];
    return fs.list(r).flatMap((name) => aroundAllowed(path.join(r, name)));
  };
  if (allowedSockets.size) denyCandidates.splice(0, denyCandidates.length, ...denyCandidates.flatMap(aroundAllowed));
  const filteredPaths = new Set(filtered.map((f) => f.path));
  const deniedPaths = outermost(existing(denyCandidates).filter((p) => p !== "/" && !homes.some((h) => isWithin(h, p)) && !allowedSockets.has(p) && !filteredPaths.has(p)));
  const denied: DeniedPath[] = deniedPaths.map((p) => ({ path: p, directory: fs.kind(p) === "dir" }));
  const filteredKept = filtered.filter((f) => !inside(f.path, deniedPaths));

  // Git metadata and the protected names at any depth of the writable roots (git.ts; protected
  // names outside node_modules, PROTECTED_LIMIT of them),
  // home start-up files, and the core's own files that it runs outside the sandbox.
  const git = input.git ?? findGitMetadata(roots, home, input.env, input.gitSearchLimit);
  for (const holder of git.missingTargetHolders) {
    if (inside(holder, writableAll))
      notes.push(`${holder} is read-only: git's configuration names a file or folder in it that does not exist yet (create it outside the sandbox to make ${holder} writable again)`);
  }
  if (git.unsearched.length) notes.push(`the search for git repositories stopped after ${git.searched} folders: ${git.unsearched.join(", ")} ${git.unsearched.length === 1 ? "is" : "are"} read-only`);
  if (git.protectedHolders.length)
    notes.push(
      `more than ${git.protectedFound.length} protected names (.envrc, .vscode, …) lie below the top of the writable folders: ${git.protectedHolders.join(", ")} ${git.protectedHolders.length === 1 ? "is" : "are"} read-only as a whole`,
    );
  // Protected names at the top of each root (through `fs`), and at every depth below it (the git search's walk, outside node_modules).
  const protectedList = [
    ...roots.flatMap((r) => protectedCandidates(r, fs)),
    ...git.protectedFound,
    ...git.protectedHolders,
    ...git.readOnly,
    ...git.missingTargetHolders,
    ...git.unsearched,
    ...(input.coreFiles ?? []),
  ];
  for (const h of homesGiven) protectedList.push(...PROTECTED_IN_HOME.map((rel) => path.join(h, rel)));
  // A writable root itself is made read-only only by what must fail closed (a repository, a folder not searched).
  const forced = new Set(existing([...git.unsearched, ...git.missingTargetHolders, ...git.readOnly, ...git.protectedHolders]));
  const readOnly = outermost(existing(protectedList).filter((p) => inside(p, writableAll) && !inside(p, deniedPaths) && (!writableAll.includes(p) || forced.has(p))));

  // A writable entry inside a protected or denied one loses: the protection is the point.
  const writable = outermost(writableAll).filter((p) => !inside(p, readOnly) && !inside(p, deniedPaths));
  const writableAlso = writableAll.filter((p) => !inside(p, readOnly) && !inside(p, deniedPaths));

  const mounts = new Set([...writableAlso, ...readOnly, ...deniedPaths]);
  const pinned = new Set<string>();
  for (const target of [...readOnly, ...deniedPaths, ...filteredKept.map((f) => f.path)]) {
    const base = writableAlso.filter((w) => isWithin(target, w) && w !== target).sort((a, b) => depth(b) - depth(a))[0];
    if (!base) continue;
    for (let dir = path.dirname(target); dir !== base && isWithin(dir, base); dir = path.dirname(dir)) {
      if (!mounts.has(dir) && !inside(dir, readOnly) && !inside(dir, deniedPaths)) pinned.add(dir);
    }
  }

  // Mounts on a single file are lost when the file is replaced by rename outside (the kernel
  // detaches a mount whose point is renamed over): the core watches these (guard.ts) — all but the
  // files the user's tools rewrite on every use and the system's own (base/credentials.ts REWRITTEN_OFTEN).
  const unwatched = new Set(existing([...homesGiven.flatMap((h) => REWRITTEN_OFTEN.map((rel) => path.join(h, rel))), ...(input.systemCredentials ?? SYSTEM_CREDENTIALS)]));
  const fileLevel = unique([...readOnly.filter((p) => fs.kind(p) === "file"), ...denied.filter((d) => !d.directory).map((d) => d.path), ...filteredKept.map((f) => f.path)]).filter(
    (p) => !unwatched.has(p),
  );

  return {
    writable,
    pinned: [...pinned].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b)),
    readOnly,
    denied,
    filtered: filteredKept,
    network: input.network,
    unixSockets: sockets ? "masked" : "blocked",
    unixSocketsAllowed: [...allowedSockets],
    tmpDir,
    ignored,
    notes,
    gitEntries: git.entries,
    gitRoots: roots,
    fileLevel,
  };
}

/** One mount of the policy, in the order they must be applied (outer paths first). */
export interface PolicyMount {
  kind: "writable" | "pinned" | "read-only" | "denied" | "filtered";
  path: string;
  directory?: boolean;
  /** For `filtered`: the copy bound over `path`. */
  source?: string;
}

/** The policy's mounts ordered so that no mount hides one made for a path below it. */
export function orderedMounts(policy: SandboxPolicy): PolicyMount[] {
  const rank = { writable: 0, pinned: 1, "read-only": 2, denied: 3, filtered: 3 } as const;
  const mounts: PolicyMount[] = [
    ...policy.writable.map((p) => ({ kind: "writable" as const, path: p })),
    ...policy.pinned.map((p) => ({ kind: "pinned" as const, path: p })),
    ...policy.readOnly.map((p) => ({ kind: "read-only" as const, path: p })),
    ...policy.denied.map((d) => ({ kind: "denied" as const, path: d.path, directory: d.directory })),
    ...policy.filtered.map((f) => ({ kind: "filtered" as const, path: f.path, source: f.copy })),
  ];
  return mounts.sort((a, b) => depth(a.path) - depth(b.path) || rank[a.kind] - rank[b.kind] || a.path.localeCompare(b.path));
}
