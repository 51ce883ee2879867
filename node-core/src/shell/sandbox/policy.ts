// What a sandboxed command may touch, as plain lists of canonical paths: the policy both the
// bubblewrap argv (linux.ts) and the Seatbelt profile (macos.ts) are generated from. Pure apart
// from the file-system questions it asks through `PolicyFs` (does this exist, where does it
// really lead, what is in this directory), so tests can give any machine layout.
//
// Reading: everything the user can read, minus credential stores (base/credentials.ts, the list
// the permission gate shares, with the private keys in ~/.ssh), sockets of daemons that run
// programs for the caller, `sandbox.denyRead`, and Wave's state directories, where listening cores keep their bearer tokens (base/stateDir.ts).
// Writing: only the allowed directories, `sandbox.allowWrite`, the private temporary directory,
// this command's own output and cwd files, and named package-manager caches; inside those, the
// gate's sensitive workspace files (base/sensitive.ts), git's config and hooks, and in the home
// directory PROTECTED_IN_HOME stay read-only.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { CREDENTIALS_IN_HOME, SSH_READABLE } from "../../base/credentials.js";
import { SENSITIVE_WORKSPACE } from "../../base/sensitive.js";
import { LOCK_FOLDER } from "../../base/stateDir.js";
import { isWithin } from "../../util/paths.js";
import type { SandboxNetwork } from "../../base/settings.js";

/**
 * The files of git's metadata that make git run code: kept read-only (the rest of `.git` stays
 * writable, or git could not commit). Relative to the git directory.
 */
const GIT_PROTECTED = ["config", "config.worktree", "hooks"];

/**
 * Whether a name in a writable directory is one of the workspace files that run code or grant
 * permissions later — the permission gate's list (base/sensitive.ts), so both guard the same
 * files. `.git` itself is handled by GIT_PROTECTED.
 */
function protectedName(name: string): boolean {
  return name.toLowerCase() !== ".git" && SENSITIVE_WORKSPACE.some((e) => !e.parent && e.name.test(name));
}

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
  const out = [
    "/var/run/docker.sock",
    "/run/docker.sock",
    "/run/containerd/containerd.sock",
    "/run/podman/podman.sock",
    "/run/dbus/system_bus_socket",
    "/tmp/.X11-unix",
  ];
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
  home: string | undefined;
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
  fs?: PolicyFs;
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
  network: SandboxNetwork;
  tmpDir: string;
  /** Writable places given that the policy does not honour, and why. */
  ignored: IgnoredPath[];
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

/** `.git/config`'s `core.hooksPath`, if set (relative values are relative to the work tree). */
export function hooksPathOf(configText: string): string | undefined {
  let inCore = false;
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (section) {
      inCore = section[1]!.toLowerCase() === "core";
      continue;
    }
    if (!inCore) continue;
    const m = /^hookspath\s*=\s*(.*)$/i.exec(line);
    if (m) {
      let v = m[1]!.replace(/\s+[#;].*$/, "").trim();
      if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
      return v || undefined;
    }
  }
  return undefined;
}

/** Where a work tree's git metadata really is: `.git` itself, or what a `.git` file points at. */
function gitDirectories(root: string, fs: PolicyFs): string[] {
  const dotGit = path.join(root, ".git");
  const kind = fs.kind(dotGit);
  if (kind === "dir") return [dotGit];
  if (kind !== "file") return [];
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readText(dotGit) ?? "")?.[1];
  if (!pointer) return [];
  const gitdir = path.resolve(root, pointer);
  const common = fs.readText(path.join(gitdir, "commondir"))?.trim();
  return common ? [gitdir, path.resolve(gitdir, common)] : [gitdir];
}

/** `config` and `hooks` of every submodule's git directory under `<gitdir>/modules`. */
function submoduleGitFiles(gitdir: string, fs: PolicyFs, level = 0): string[] {
  if (level > 3) return [];
  const modules = path.join(gitdir, "modules");
  const out: string[] = [];
  for (const name of fs.list(modules)) {
    const dir = path.join(modules, name);
    if (fs.kind(dir) !== "dir") continue;
    if (fs.kind(path.join(dir, "config")) !== undefined) out.push(...GIT_PROTECTED.map((name) => path.join(dir, name)));
    out.push(...submoduleGitFiles(dir, fs, level + 1));
  }
  return out;
}

/** The files of a work tree's git metadata that make git run code: config, hooks, hooksPath. */
function gitCandidates(worktree: string, fs: PolicyFs): string[] {
  const out: string[] = [];
  for (const gitdir of gitDirectories(worktree, fs)) {
    out.push(...GIT_PROTECTED.map((name) => path.join(gitdir, name)));
    out.push(...submoduleGitFiles(gitdir, fs));
    const hooks = hooksPathOf(fs.readText(path.join(gitdir, "config")) ?? "");
    if (hooks && !hooks.startsWith("~")) out.push(path.resolve(worktree, hooks));
  }
  return out;
}

/** How deep below a writable directory other repositories are looked for, and how many folders at most. */
const NESTED_REPOSITORY_DEPTH = 2;
const NESTED_REPOSITORY_FOLDERS = 256;
const NOT_SEARCHED = new Set(["node_modules", "target", "build", "dist", "vendor"]);

/**
 * Work trees of other repositories a little below `root` (a folder holding several projects, a
 * monorepo's separate checkouts): their git metadata runs code as much as the root's.
 */
function nestedWorkTrees(root: string, fs: PolicyFs): string[] {
  const out: string[] = [];
  let budget = NESTED_REPOSITORY_FOLDERS;
  const walk = (dir: string, level: number) => {
    for (const name of fs.listDirectories(dir)) {
      if (name.startsWith(".") || NOT_SEARCHED.has(name) || budget-- <= 0) continue;
      const child = path.join(dir, name);
      if (fs.kind(path.join(child, ".git")) !== undefined) out.push(child);
      if (level < NESTED_REPOSITORY_DEPTH) walk(child, level + 1);
    }
  };
  walk(root, 1);
  return out;
}

/** The protected paths to consider for one writable directory (existing or not). */
function protectedCandidates(root: string, fs: PolicyFs): string[] {
  const out = fs.list(root).filter(protectedName).map((name) => path.join(root, name));
  out.push(...gitCandidates(root, fs));
  for (const worktree of nestedWorkTrees(root, fs)) out.push(...gitCandidates(worktree, fs));
  return out;
}

export function buildPolicy(input: PolicyInput): SandboxPolicy {
  const fs = input.fs ?? nodePolicyFs(input.home);
  const real = (p: string) => fs.realpath(p);
  const existing = (list: Iterable<string>) => unique([...list].flatMap((p) => real(p) ?? []));
  const home = input.home ? (real(input.home) ?? input.home) : undefined;

  // Never a directory that contains the home directory: one bad variable must not open everything.
  const tooBroad = (p: string) => p === "/" || (home !== undefined && isWithin(home, p));
  // A writable place named through a symlink that lies inside another writable place could have
  // been planted by an earlier command (`rm -r cache && ln -s ~ cache`): such a name is ignored.
  const ignored: IgnoredPath[] = [];
  const cacheDirs = cacheDirectories(input.home, input.env);
  const givenWritable = [...input.allowedDirectories, ...input.allowWrite, ...cacheDirs].map((p) => path.resolve(p));
  const trusted = (given: string): string | undefined => {
    const r = real(given);
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

  // Unreadable paths, then protected ones, each only where it exists.
  const denyCandidates = [...input.denyRead, ...daemonSockets(input.env)];
  if (input.home) {
    denyCandidates.push(...CREDENTIALS_IN_HOME.map((rel) => path.join(input.home!, rel)));
    const ssh = path.join(input.home, ".ssh");
    for (const name of fs.list(ssh)) if (!SSH_READABLE.test(name)) denyCandidates.push(path.join(ssh, name));
  }
  // A state directory that holds a writable place or the home directory (WAVE_STATE_DIR=~) cannot
  // be masked whole: then its lock folder is.
  const holdsOthers = (dir: string) => (home !== undefined && isWithin(home, dir)) || writableAll.some((w) => isWithin(w, dir));
  for (const s of existing(input.stateDirectories ?? [])) denyCandidates.push(holdsOthers(s) ? path.join(s, LOCK_FOLDER) : s);
  const deniedPaths = outermost(existing(denyCandidates).filter((p) => p !== "/" && !(home !== undefined && isWithin(home, p))));
  const denied: DeniedPath[] = deniedPaths.map((p) => ({ path: p, directory: fs.kind(p) === "dir" }));

  const protectedList = [...roots.flatMap((r) => protectedCandidates(r, fs))];
  if (input.home) protectedList.push(...PROTECTED_IN_HOME.map((rel) => path.join(input.home!, rel)));
  const readOnly = outermost(
    existing(protectedList).filter((p) => inside(p, writableAll) && !writableAll.includes(p) && !inside(p, deniedPaths)),
  );

  // A writable entry inside a protected or denied one loses: the protection is the point.
  const writable = outermost(writableAll).filter((p) => !inside(p, readOnly) && !inside(p, deniedPaths));
  const writableAlso = writableAll.filter((p) => !inside(p, readOnly) && !inside(p, deniedPaths));

  const mounts = new Set([...writableAlso, ...readOnly, ...deniedPaths]);
  const pinned = new Set<string>();
  for (const target of [...readOnly, ...deniedPaths]) {
    const base = writableAlso.filter((w) => isWithin(target, w) && w !== target).sort((a, b) => depth(b) - depth(a))[0];
    if (!base) continue;
    for (let dir = path.dirname(target); dir !== base && isWithin(dir, base); dir = path.dirname(dir)) {
      if (!mounts.has(dir) && !inside(dir, readOnly) && !inside(dir, deniedPaths)) pinned.add(dir);
    }
  }

  return {
    writable,
    pinned: [...pinned].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b)),
    readOnly,
    denied,
    network: input.network,
    tmpDir,
    ignored,
  };
}

/** One mount of the policy, in the order they must be applied (outer paths first). */
export interface PolicyMount {
  kind: "writable" | "pinned" | "read-only" | "denied";
  path: string;
  directory?: boolean;
}

/** The policy's mounts ordered so that no mount hides one made for a path below it. */
export function orderedMounts(policy: SandboxPolicy): PolicyMount[] {
  const rank = { writable: 0, pinned: 1, "read-only": 2, denied: 3 } as const;
  const mounts: PolicyMount[] = [
    ...policy.writable.map((p) => ({ kind: "writable" as const, path: p })),
    ...policy.pinned.map((p) => ({ kind: "pinned" as const, path: p })),
    ...policy.readOnly.map((p) => ({ kind: "read-only" as const, path: p })),
    ...policy.denied.map((d) => ({ kind: "denied" as const, path: d.path, directory: d.directory })),
  ];
  return mounts.sort((a, b) => depth(a.path) - depth(b.path) || rank[a.kind] - rank[b.kind] || a.path.localeCompare(b.path));
}
