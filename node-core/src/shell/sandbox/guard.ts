// What the core watches while sandboxed processes live, and checks when they are gone: the two
// protections no mount can give.
//
// Lapse. A mount held on a single file (a read-only workspace file such as `.envrc`, a masked or
// filtered credential file in a home directory) is detached by the kernel when the file is
// replaced by rename outside the sandbox — an editor's atomic save, `git credential-store`,
// `npm config set`. From then on the sandboxed processes would see the new file: writable, or
// readable. So for every live sandboxed run the core watches the folders of its file-level
// protections (policy.fileLevel; inotify through fs.watch) and, when one of those files is no
// longer the one the sandbox was built on, stops the run — its whole tree, survivors and
// background tasks included — and says why. (Folder-level protections — every `.git`, masked
// folders — do not lapse: the user's tools replace files inside them, not the folder.)
//
// New git metadata. No mount can stop a command from creating a `.git` (or a bare repository)
// in a folder that had none: a repository the command initialised, or planted to be found by the
// next `git` run there. When a sandboxed run's processes are gone (and before each sandboxed
// command), git metadata that appeared in its writable roots while it was alive is looked at: a
// `.git` file (it redirects git elsewhere), or a git directory whose configuration has anything
// beyond what `git init` and `git clone` write (untrustedGitDir: an allow-list, so an unknown key
// fails closed), a `commondir`, or a hook that is not a sample, is set aside — `.git` renamed to
// `.git.wave-untrusted`, a bare repository's HEAD to `HEAD.wave-untrusted` — so no git outside the
// sandbox runs what the command wrote; the result says so and how to get it back. A plain new
// repository is kept, and read-only from the next command on like every other.
import { lstatSync, readdirSync, readFileSync, renameSync, statSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { createLogger } from "../../util/log.js";
import { findGitMetadata, gitdirOf, protectedName, type GitProtection } from "./git.js";
import type { SandboxPolicy } from "./policy.js";

const log = createLogger("sandbox");

/** What the guard needs of a run (shell/run/7-handle.ts ShellRun). */
export interface GuardedRun {
  readonly pid: number | undefined;
  readonly running: boolean;
  readonly runId: string;
  stop(): Promise<unknown>;
  /** Appended to what the run reports (the result's notes, the task's output). */
  addSandboxNote(note: string): void;
}

interface Watched {
  file: string;
  dev: number;
  ino: number;
  runs: Set<GuardedRun>;
}

export const QUARANTINE_SUFFIX = ".wave-untrusted";
const GONE_POLL_MS = 1000;

function identity(file: string): { dev: number; ino: number } | undefined {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    return st ? { dev: st.dev, ino: st.ino } : undefined;
  } catch {
    return undefined;
  }
}

/** Stops every process of the run's group where it stands (the tree kill that follows ends them). */
function freeze(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGSTOP");
  } catch {
    // gone already
  }
}

function groupAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

class SandboxGuard {
  private readonly files = new Map<string, Watched>();
  private readonly folders = new Map<string, FSWatcher>();
  private readonly live = new Map<GuardedRun, { policy: SandboxPolicy; roots: string[]; home: string | undefined }>();
  /** Git metadata known not to come from a sandboxed command. */
  private known = new Set<string>();
  /** Writable roots of sandboxed runs alive since git metadata was last looked at. */
  private sandboxedRoots = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  /**
   * Before a sandboxed command's policy is built: git metadata that appeared while a sandboxed run
   * lived is looked at (and set aside). Returns the search to build the policy from (made again
   * when something was set aside).
   */
  beforeRun(roots: readonly string[], home: string | undefined): GitProtection {
    const found = findGitMetadata(roots, home, process.env);
    return this.review(reviewed(found), roots).length ? findGitMetadata(roots, home, process.env) : found;
  }

  /** Starts guarding a sandboxed run built on `policy` (roots: its writable roots searched for git metadata). */
  watch(run: GuardedRun, policy: SandboxPolicy, roots: readonly string[], home: string | undefined): void {
    for (const r of roots) this.sandboxedRoots.add(r);
    this.live.set(run, { policy, roots: [...roots], home });
    for (const file of policy.fileLevel) {
      // Compared with the file the sandbox was built on (when the policy was made), not the one here now.
      const built = policy.fileLevelIds?.[file]?.split(":").map(Number);
      const id = built ? { dev: built[0]!, ino: built[1]! } : identity(file);
      if (!id) continue;
      const key = `${file}\0${id.dev}:${id.ino}`;
      let w = this.files.get(key);
      if (!w) {
        w = { file, ...id, runs: new Set() };
        this.files.set(key, w);
        this.watchFolder(path.dirname(file));
      }
      w.runs.add(run);
      // Replaced already, between the policy and now: check at once.
      const now = identity(file);
      if (!now || now.dev !== id.dev || now.ino !== id.ino) queueMicrotask(() => this.check(path.dirname(file)));
    }
    this.timer ??= setInterval(() => this.sweep(), GONE_POLL_MS);
    this.timer.unref();
  }

  private watchFolder(dir: string): void {
    if (this.folders.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, () => this.check(dir));
      w.on("error", () => this.check(dir));
      this.folders.set(dir, w);
    } catch (err) {
      log.debug("cannot watch a folder of protected files", { dir, error: (err as Error).message });
    }
  }

  /** A change in `dir`: any protected file there that is no longer the sandbox's ends the runs built on it. */
  private check(dir: string): void {
    for (const w of this.files.values()) {
      if (path.dirname(w.file) !== dir || w.runs.size === 0) continue;
      const now = identity(w.file);
      if (now && now.dev === w.dev && now.ino === w.ino) continue;
      const runs = [...w.runs];
      w.runs.clear();
      const what = now ? "replaced" : "removed";
      for (const run of runs) {
        // At once, before anything else: from this moment the file is the new one inside too.
        freeze(run.pid);
        log.warn(`stopping a sandboxed command: ${w.file} was ${what} outside the sandbox, so its protection no longer holds inside`, { runId: run.runId });
        run.addSandboxNote(
          `Stopped by the sandbox: ${w.file} was ${what} outside the sandbox while this command ran, and its protection (a mount on that file) does not survive that. Run the command again: the new sandbox protects the new file.`,
        );
        void run.stop();
      }
    }
  }

  /** Drops runs whose processes are all gone; once none is left, the watches go too. */
  private sweep(): void {
    for (const [run, entry] of this.live) {
      if (run.running || groupAlive(run.pid)) continue;
      this.live.delete(run);
      for (const note of this.review(reviewed(findGitMetadata(entry.roots, entry.home, process.env)), entry.roots)) run.addSandboxNote(note);
      for (const w of this.files.values()) w.runs.delete(run);
    }
    for (const [file, w] of this.files) if (w.runs.size === 0) this.files.delete(file);
    for (const [dir, watcher] of this.folders) {
      if ([...this.files.values()].some((w) => path.dirname(w.file) === dir)) continue;
      watcher.close();
      this.folders.delete(dir);
    }
    if (this.live.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * A run's shell exited: with no process of it left (`survivors` false: the caller just looked),
   * its git metadata is looked at now; otherwise when its last process is gone.
   */
  ended(run: GuardedRun, survivors: boolean): string[] {
    const entry = this.live.get(run);
    if (!entry || survivors) return [];
    this.live.delete(run);
    for (const w of this.files.values()) w.runs.delete(run);
    return this.review(reviewed(findGitMetadata(entry.roots, entry.home, process.env)), entry.roots);
  }

  /** Compares found git metadata with what is known; new entries made while a sandboxed run lived are set aside. */
  private review(entries: readonly string[], roots: readonly string[]): string[] {
    const notes: string[] = [];
    const fresh = entries.filter((e) => !this.known.has(e));
    const sandboxed = [...this.sandboxedRoots];
    this.sandboxedRoots = new Set([...this.live.values()].flatMap((l) => l.roots));
    for (const e of fresh) {
      const made = sandboxed.some((r) => e === r || e.startsWith(r + path.sep));
      const isProtected = protectedName(path.basename(e));
      const why = !made ? undefined : isProtected ? `${path.basename(e)}, a file that runs code or grants permissions later` : untrustedGitDir(e);
      if (!why) {
        this.known.add(e);
        continue;
      }
      const moved = isProtected ? quarantineProtected(e) : quarantine(e);
      if (moved && isProtected) {
        log.warn(`a protected file made in the sandbox was set aside: ${e} -> ${moved}`);
        notes.push(
          `The sandbox set aside a file made while a sandboxed command ran (${why}): ${e} is now ${moved}, so nothing outside the sandbox (direnv, an editor, an agent, npm) runs or obeys what a sandboxed command wrote. Create it outside the sandbox (Write asks you; or dangerouslyDisableSandbox), or rename it back after checking it.`,
        );
      } else if (moved) {
        log.warn(`git metadata made in the sandbox was set aside: ${e} -> ${moved}`);
        notes.push(
          `The sandbox set aside git metadata made while a sandboxed command ran (${why}): ${e} is now ${moved}, so git run there outside the sandbox does not run what a sandboxed command wrote. Set up such a repository outside the sandbox (dangerouslyDisableSandbox, which the user is asked about), or rename it back (and its HEAD${QUARANTINE_SUFFIX}) after checking its config and hooks.`,
        );
      } else this.known.add(e);
    }
    // Entries that are gone are forgotten: a repository made again later is new again.
    const present = new Set(entries);
    for (const k of this.known) if (!present.has(k) && roots.some((r) => k === r || k.startsWith(r + path.sep))) this.known.delete(k);
    return notes;
  }

  /**
   * A file the core itself wrote outside the sandbox (Write, Edit — asked when it is a protected
   * name): it and the protected folders it lies in are known, not set aside by the next review
   * though a sandboxed run lived while it appeared.
   */
  madeOutside(file: string): void {
    for (let p = file; p !== path.dirname(p); p = path.dirname(p)) if (protectedName(path.basename(p))) this.known.add(p);
  }

  /** Forgets everything (tests). */
  reset(): void {
    for (const w of this.folders.values()) w.close();
    this.folders.clear();
    this.files.clear();
    this.live.clear();
    this.known.clear();
    this.sandboxedRoots.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * Configuration keys `git init` and `git clone` write (and a user's name and e-mail): a new
 * repository with only these runs nothing. Anything else — core.fsmonitor, core.hooksPath,
 * core.pager, aliases, filters, credential helpers, include — makes it untrusted.
 */
const PLAIN_CONFIG =
  /^(core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks)|remote\.[^=]*\.(url|fetch)|branch\.[^=]*\.(remote|merge)|user\.(name|email)|init\.defaultbranch|extensions\.objectformat)$/i;

function configKeys(text: string): string[] {
  const keys: string[] = [];
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (head) {
      section = head[1]!.toLowerCase() + (head[2] !== undefined ? `.${head[2]}` : "");
      line = head[3]!.trim();
    }
    if (!line || /^[#;]/.test(line)) continue;
    const key = /^([A-Za-z][A-Za-z0-9-]*)/.exec(line)?.[1];
    keys.push(key ? `${section}.${key.toLowerCase()}` : `${section}.?`);
  }
  return keys;
}

/** Why git metadata a sandboxed command may have made could run something later, or undefined when it cannot. */
export function untrustedGitDir(entry: string): string | undefined {
  let st;
  try {
    st = lstatSync(entry);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return "a .git link";
  if (st.isFile()) return gitdirOf(entry) ? "a .git file that leads git to another git directory" : "a .git file";
  const has = (name: string) => lstatSync(path.join(entry, name), { throwIfNoEntry: false }) !== undefined;
  if (has("commondir")) return "a commondir that leads git to another repository";
  if (has("config.worktree")) return "a worktree configuration";
  let config = "";
  try {
    config = readFileSync(path.join(entry, "config"), "utf8");
  } catch {
    // no config: nothing in it runs
  }
  const extra = configKeys(config).filter((k) => !PLAIN_CONFIG.test(k));
  if (extra.length) return `configuration that can run programs (${[...new Set(extra)].slice(0, 3).join(", ")})`;
  let hooks: string[] = [];
  try {
    hooks = readdirSync(path.join(entry, "hooks")).filter((h) => !h.endsWith(".sample"));
  } catch {
    // no hooks folder
  }
  if (hooks.length) return `hooks (${hooks.slice(0, 3).join(", ")})`;
  return undefined;
}

/** Git metadata and the protected names (git.ts protectedName) found: what is reviewed after a sandboxed run. */
function reviewed(found: GitProtection): string[] {
  return [...found.entries, ...found.protectedFound];
}

/** Renames a protected file or folder out of the way (`.envrc` → `.envrc.wave-untrusted`); the new path, or undefined. */
function quarantineProtected(entry: string): string | undefined {
  for (let n = 0; n < 100; n++) {
    const to = `${entry}${QUARANTINE_SUFFIX}${n ? `-${n}` : ""}`;
    if (lstatSync(to, { throwIfNoEntry: false })) continue;
    try {
      renameSync(entry, to);
      return to;
    } catch (err) {
      log.warn(`could not set aside a protected file made in the sandbox: ${entry}`, { error: (err as Error).message });
      return undefined;
    }
  }
  return undefined;
}

/** Renames git metadata out of git's way; returns the new path, or undefined when it could not. */
function quarantine(entry: string): string | undefined {
  let st;
  try {
    st = lstatSync(entry);
  } catch {
    return undefined;
  }
  // A bare repository is found by its HEAD.
  const from = path.basename(entry).toLowerCase() === ".git" ? entry : st.isDirectory() ? path.join(entry, "HEAD") : entry;
  for (let n = 0; n < 100; n++) {
    const to = `${from}${QUARANTINE_SUFFIX}${n ? `-${n}` : ""}`;
    if (lstatSync(to, { throwIfNoEntry: false })) continue;
    try {
      renameSync(from, to);
      // A renamed .git folder is still a bare repository to git run inside it: its HEAD goes too.
      if (from === entry && st.isDirectory()) {
        try {
          renameSync(path.join(to, "HEAD"), path.join(to, `HEAD${QUARANTINE_SUFFIX}`));
        } catch {
          // no HEAD: not a repository to git either
        }
      }
      return to;
    } catch (err) {
      log.warn(`could not set aside git metadata made in the sandbox: ${from}`, { error: (err as Error).message });
      return undefined;
    }
  }
  return undefined;
}

/** The one guard of this process. */
export const sandboxGuard = new SandboxGuard();
