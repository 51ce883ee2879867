// Lossless, atomic file replacement (FS-ATOMIC): the new bytes go to a temporary file in the
// target's own directory, are flushed to disk, get the original's mode (and owner where we may),
// and are renamed over the target, so a concurrent reader sees the old file or the new one and
// never a torn one. Any failure removes the temporary file and leaves the target as it was.
//
// Where the bytes land is decided once: the target's path is resolved physically (every symlink
// followed, as the permission check resolved it), its directory is opened, and on Linux every
// later step (creating missing directories, the temporary file, the rename) goes through that
// open directory (`/proc/self/fd/N/name`), so swapping a path component for a symlink after the
// check cannot redirect the write. Elsewhere the directory's identity is re-verified instead.
// After the rename the written inode must sit at the checked path, and the replaced file must not
// have been written meanwhile; otherwise the write is undone and reported.
//
// Symlinks are written through: the link's final target is replaced and the link survives.
// A file with several hard links is rewritten in place when the caller allows it (renaming would
// split it from its other names); the new bytes are first staged in a temporary file so a failed
// write can put the old content back.
import { randomBytes } from "node:crypto";
import { constants, promises as fsp, type Stats } from "node:fs";
import path from "node:path";
import { notePendingFile, temporaryFileTag } from "../base/processDir.js";
import { physicalPath } from "../util/paths.js";
import { readAll } from "../util/files.js";

export interface AtomicWriteHooks {
  /** Called after the temporary file is complete and flushed, just before the last checks and the rename (tests). */
  beforeRename?(tempPath: string): void | Promise<void>;
  /** Called right after the rename, before the checks that may undo it (tests). */
  afterRename?(target: string): void | Promise<void>;
}

/** What the caller based the new content on, checked again just before the rename. */
export type WriteExpectation = { kind: "absent" } | { kind: "file"; stat: Stats; bytes?: Uint8Array };

export interface AtomicWriteOptions {
  hooks?: AtomicWriteHooks;
  platform?: NodeJS.Platform;
  /** The real path a permission check approved: the write lands there or fails with PathChanged. */
  approvedPath?: string;
  /**
   * Rewrite a file with several hard links in place, changing every name it has (default). When
   * false such a file is replaced under this name only and its other names keep the old content.
   */
  keepHardLinks?: boolean;
  /** The target must still be as the caller saw it right before the rename, else TargetChanged. */
  expected?: WriteExpectation;
  /** Reach the directory through its open descriptor where the platform allows (default true; tests turn it off). */
  pinDirectory?: boolean;
  /**
   * Called once the new content is in the temporary file and its flush to disk has begun (not for
   * an in-place rewrite): CPU work the caller does here, such as describing the change, overlaps
   * the flush instead of following the write. Its exceptions are ignored.
   */
  whileFlushing?: () => void;
}

export interface WriteOutcome {
  /** The file actually written (the symlink's target when `requested` was a link). */
  path: string;
  created: boolean;
  /** "atomic": temp + rename. "in-place": the file has several hard links and was rewritten in place. */
  method: "atomic" | "in-place";
  /** The file had several hard links, rewriting them all was not allowed, so only this name got the new content. */
  splitHardLinks: boolean;
  /** The written file afterwards. */
  stat: Stats;
}

/** The target is no longer what the caller based its change on. Nothing was written. */
export class TargetChanged extends Error {
  constructor(
    readonly target: string,
    readonly how: "modified" | "appeared",
  ) {
    super(how === "modified" ? `${target} was changed by another program during the write` : `${target} was created by another program during the write`);
    this.name = "TargetChanged";
  }
}

/** The path leads somewhere else than it did when it was checked (a symlink or directory was swapped). */
export class PathChanged extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathChanged";
  }
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

function tempNameFor(name: string): string {
  // Keep the name within NAME_MAX (255) whatever the target's name length. The tag (pid and start
  // time) lets the sweep of a later core tell this process's leftovers from a live one's.
  return `.${name.slice(0, 200)}.wave-${temporaryFileTag()}-${randomBytes(6).toString("hex")}.tmp`;
}

function errnoError(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === "ENOENT";

async function lstatOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await fsp.lstat(p);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

const sameInode = (a: Stats, b: Stats) => a.ino === b.ino && a.dev === b.dev;

/** The target's directory, opened once; every entry is reached through it. */
interface Directory {
  /** Its real path when it was opened and checked. */
  readonly real: string;
  /** How to reach `name` inside it: through the open descriptor when pinned, else by its real path. */
  at(name: string): string;
  /** Where it is now, or undefined when it has been removed or replaced. */
  whereNow(): Promise<string | undefined>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

const moved = (dir: string) =>
  new PathChanged(`A directory on the way to ${dir} was replaced (by a symlink or another directory) while writing. Nothing was written. Check the path (\`ls -l\`) and retry.`);

/** Opens a directory that was just seen there; if it is gone or no longer a directory, the path changed. */
async function openDirectoryHandle(p: string, checked: string): Promise<fsp.FileHandle> {
  try {
    return await fsp.open(p, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP" ? moved(checked) : err;
  }
}

/** The kernel's current path of an open descriptor (Linux), or undefined when it has none. */
async function procPath(handle: fsp.FileHandle): Promise<string | undefined> {
  try {
    const p = await fsp.readlink(`/proc/self/fd/${handle.fd}`);
    return p.endsWith(" (deleted)") ? undefined : p;
  } catch {
    return undefined;
  }
}

/**
 * Opens `real` (creating what is missing of it) so that later steps cannot be redirected. On
 * Linux each missing directory is made and opened relative to its open parent, and the kernel's
 * own account of the opened directory's path is compared with the checked one.
 */
async function openTargetDirectory(real: string, platform: NodeJS.Platform, pin: boolean): Promise<Directory> {
  const missing: string[] = [];
  let existing = real;
  for (;;) {
    const st = await lstatOrUndefined(existing);
    if (st) {
      if (st.isSymbolicLink()) throw moved(real);
      if (!st.isDirectory()) throw errnoError(`${existing} is not a directory`, "ENOTDIR");
      break;
    }
    const parent = path.dirname(existing);
    if (parent === existing) throw errnoError(`${real} cannot be created`, "ENOENT");
    missing.unshift(path.basename(existing));
    existing = parent;
  }

  if (pin && platform === "linux") {
    let handle = await openDirectoryHandle(existing, real);
    const via = () => `/proc/self/fd/${handle.fd}`;
    try {
      const opened = await procPath(handle);
      if (opened !== undefined) {
        if (opened !== existing) throw moved(real);
        for (const name of missing) {
          await fsp.mkdir(path.join(via(), name)).catch((err: NodeJS.ErrnoException) => {
            if (err.code !== "EEXIST") throw err;
          });
          const next = await openDirectoryHandle(path.join(via(), name), real);
          await handle.close();
          handle = next;
        }
        if ((await procPath(handle)) !== real) throw moved(real);
        const pinned = handle;
        return {
          real,
          at: (name) => path.join(`/proc/self/fd/${pinned.fd}`, name),
          whereNow: () => procPath(pinned),
          sync: () => pinned.sync().catch(() => undefined),
          close: () => pinned.close().catch(() => undefined),
        };
      }
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
    // No /proc: fall through to re-verification.
    await handle.close().catch(() => undefined);
  }

  // Portable: the directory is reached by its real path, and its identity is checked before and
  // after instead (a narrower window than the pinned way, not none).
  if (missing.length > 0) await fsp.mkdir(real, { recursive: true });
  const handle = platform === "win32" ? undefined : await openDirectoryHandle(real, real);
  const identity = handle ? await handle.stat() : undefined;
  const whereNow = async () => {
    if (physicalPath(real) !== real) return undefined;
    if (!identity) return real;
    const now = await fsp.stat(real).catch(() => undefined);
    return now && sameInode(now, identity) ? real : undefined;
  };
  if ((await whereNow()) !== real) {
    await handle?.close().catch(() => undefined);
    throw moved(real);
  }
  return {
    real,
    at: (name) => path.join(real, name),
    whereNow,
    sync: async () => {
      // Some file systems refuse fsync on directories: best effort.
      await handle?.sync().catch(() => undefined);
    },
    close: async () => {
      await handle?.close().catch(() => undefined);
    },
  };
}

const RETRYABLE_RENAME = new Set(["EPERM", "EACCES", "EBUSY"]);

async function renameWithRetry(from: string, to: string, platform: NodeJS.Platform): Promise<void> {
  // Windows refuses to replace a file another process has open (virus scanners, indexers) for a
  // moment; retry briefly there. Elsewhere these errors are final.
  const attempts = platform === "win32" ? 10 : 1;
  for (let i = 1; ; i++) {
    try {
      await fsp.rename(from, to);
      return;
    } catch (err) {
      if (i >= attempts || !RETRYABLE_RENAME.has((err as NodeJS.ErrnoException).code ?? "")) throw err;
      await new Promise((r) => setTimeout(r, 20 * i));
    }
  }
}

async function writeAll(handle: fsp.FileHandle, data: Uint8Array, position = 0): Promise<void> {
  let off = 0;
  while (off < data.length) {
    const { bytesWritten } = await handle.write(data, off, data.length - off, position + off);
    off += bytesWritten;
  }
}

/**
 * Whether an open file holds exactly `expected`, read by position in chunks and compared as they
 * arrive: no copy of the whole file, and a longer file fails at its first extra byte.
 */
async function holdsExactly(handle: fsp.FileHandle, expected: Uint8Array): Promise<boolean> {
  // Files up to 8 MiB in one read of one byte more than expected: a short read is then the end.
  const chunk = Buffer.allocUnsafe(Math.min(expected.length + 1, 8 * 1024 * 1024));
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (position + bytesRead > expected.length) return false;
    if (!chunk.subarray(0, bytesRead).equals(expected.subarray(position, position + bytesRead))) return false;
    position += bytesRead;
    // A read that comes back short is taken as the end: a file system that reads in pieces mid-file
    // costs a refusal as stale, never a write over a change.
    if (bytesRead < chunk.length) return position === expected.length;
  }
}

interface Staged {
  path: string;
  stat: Stats;
  /** Drops the note of the temporary file (base/processDir.ts): call once it is renamed or removed. */
  forget(): Promise<void>;
}

/**
 * Writes `data` to a fresh temporary file in `dir`; cleans up on failure. The file is noted in the
 * process's folder first, so a core killed before it renames or removes it (kill -9 in the middle
 * of a 50 MB write) leaves it to the next core's sweep, not beside the user's file for good.
 */
async function stageTemp(dir: Directory, name: string, data: Uint8Array, like: Stats | undefined, whileFlushing?: () => void): Promise<Staged> {
  const tempName = tempNameFor(name);
  const forget = await notePendingFile(path.join(dir.real, tempName));
  const temp = dir.at(tempName);
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | O_NOFOLLOW, like ? like.mode & 0o7777 : 0o666).catch((err: NodeJS.ErrnoException) => {
      // The directory we hold open was removed meanwhile.
      throw err.code === "ENOENT" ? moved(dir.real) : err;
    });
    await writeAll(handle, data);
    if (like) {
      // The owner where permitted (chown may clear set-id bits, so it goes first), then the
      // original mode exactly: open() applied the umask.
      if (typeof process.getuid === "function") {
        await handle.chown(like.uid, like.gid).catch(() => undefined);
      }
      await handle.chmod(like.mode & 0o7777);
    }
    const flushed = handle.sync();
    try {
      whileFlushing?.();
    } catch {
      // The caller's business; the write goes on.
    }
    await flushed;
    const stat = await handle.stat();
    await handle.close();
    handle = undefined;
    return { path: temp, stat, forget };
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    await forget();
    throw err;
  }
}

interface Snapshot {
  size: number;
  mtimeMs: number;
}

/**
 * The last look before the rename: the target must still be what the caller based its change on.
 * Returns the replaced file's size and mtime at this moment (for the check after the rename).
 */
async function checkExpected(entry: string, target: string, original: fsp.FileHandle | undefined, expected: WriteExpectation | undefined): Promise<Snapshot | undefined> {
  if (expected?.kind === "absent") {
    if (await lstatOrUndefined(entry)) throw new TargetChanged(target, "appeared");
    return undefined;
  }
  // Equal size and mtime can hide a same-size rewrite within one timestamp tick: compare the
  // bytes. This is the slow part, so it comes first and the quick checks follow, right before the rename.
  if (expected?.kind === "file" && original && expected.bytes) {
    if (!(await holdsExactly(original, expected.bytes))) throw new TargetChanged(target, "modified");
  }
  const now = await lstatOrUndefined(entry);
  const held = original ? await original.stat() : undefined;
  if (expected?.kind === "file") {
    const seen = expected.stat;
    const same = (st: Stats | undefined) => st !== undefined && sameInode(st, seen) && st.size === seen.size && st.mtimeMs === seen.mtimeMs;
    if (!same(now) || (held && !same(held))) throw new TargetChanged(target, "modified");
  }
  return held ? { size: held.size, mtimeMs: held.mtimeMs } : undefined;
}

/**
 * Puts back what `entry` held before our rename, if it still names the file we wrote: the
 * replaced file's current content (read through the descriptor we kept) plus whatever was
 * appended to our file meanwhile, or nothing for a file we created. Returns what was done.
 */
async function undo(dir: Directory, name: string, ours: Staged, original: fsp.FileHandle | undefined): Promise<"restored" | "removed" | "left"> {
  const entry = dir.at(name);
  const now = await lstatOrUndefined(entry);
  if (!now || !sameInode(now, ours.stat)) return "left";
  if (!original) {
    await fsp.unlink(entry);
    return "removed";
  }
  // Held so that lines appended to our file before the restore are not lost with it.
  const mine = await fsp.open(entry, constants.O_RDONLY | O_NOFOLLOW);
  try {
    if (!sameInode(await mine.stat(), ours.stat)) return "left";
    const restored = await stageTemp(dir, name, await readAll(original), await original.stat());
    await fsp
      .rename(restored.path, entry)
      .catch(async (err) => {
        await fsp.rm(restored.path, { force: true }).catch(() => undefined);
        throw err;
      })
      .finally(() => restored.forget());
    const appended = (await readAll(mine)).subarray(ours.stat.size);
    if (appended.length > 0) await fsp.appendFile(entry, appended);
    return "restored";
  } finally {
    await mine.close();
  }
}

async function writeInPlace(entry: string, target: string, data: Uint8Array, existing: Stats, original: fsp.FileHandle | undefined, dir: Directory, opts: AtomicWriteOptions): Promise<Stats> {
  const previous = original ? await readAll(original) : await fsp.readFile(entry);
  // Staging proves the bytes fit on the disk before the target is touched.
  const staged = await stageTemp(dir, path.basename(target), data, existing);
  try {
    await opts.hooks?.beforeRename?.(staged.path);
    await checkExpected(entry, target, original, opts.expected);
    const handle = await fsp.open(entry, constants.O_WRONLY | O_NOFOLLOW);
    try {
      if (!sameInode(await handle.stat(), existing)) throw new TargetChanged(target, "modified");
      try {
        await writeAll(handle, data);
        await handle.truncate(data.length);
        await handle.sync();
      } catch (err) {
        await writeAll(handle, previous).catch(() => undefined);
        await handle.truncate(previous.length).catch(() => undefined);
        throw err;
      }
      return await handle.stat();
    } finally {
      await handle.close();
    }
  } finally {
    await fsp.rm(staged.path, { force: true }).catch(() => undefined);
    await staged.forget();
  }
}

/** Replaces (or creates) `requested` with `data`. Parent directories of a new file are created. */
export async function writeFileAtomic(requested: string, data: Uint8Array, opts: AtomicWriteOptions = {}): Promise<WriteOutcome> {
  const platform = opts.platform ?? process.platform;
  const target = physicalPath(requested);
  if (opts.approvedPath !== undefined && target !== opts.approvedPath) {
    throw new PathChanged(
      `${requested} now leads to ${target}, not to ${opts.approvedPath} which the permission check approved: a symlink or directory on the way changed meanwhile. Nothing was written. Check the path (\`ls -l\`) and retry.`,
    );
  }
  const name = path.basename(target);
  const dir = await openTargetDirectory(path.dirname(target), platform, opts.pinDirectory ?? true);
  let original: fsp.FileHandle | undefined;
  try {
    const entry = dir.at(name);
    const existing = await lstatOrUndefined(entry);
    // The name resolved to a file a moment ago; a link there now was put there meanwhile.
    if (existing?.isSymbolicLink()) {
      throw new PathChanged(`${target} was replaced by a symbolic link while writing. Nothing was written. Check it (\`ls -l\`) and retry.`);
    }
    if (existing && !existing.isFile()) {
      throw errnoError(`${target} is not a regular file`, existing.isDirectory() ? "EISDIR" : "EINVAL");
    }
    if (existing) {
      // Renaming would replace even a read-only file: honour its protection like a plain write would.
      await fsp.access(entry, constants.W_OK);
      // Held open so the last checks (and an undo) see this very file, whatever its name becomes.
      original = await fsp.open(entry, constants.O_RDONLY | O_NOFOLLOW).catch(() => undefined);
      if (original && !sameInode(await original.stat(), existing)) throw new TargetChanged(target, "modified");
    }

    const hardLinked = existing !== undefined && existing.nlink > 1;
    if (hardLinked && (opts.keepHardLinks ?? true)) {
      const stat = await writeInPlace(entry, target, data, existing, original, dir, opts);
      return { path: target, created: false, method: "in-place", splitHardLinks: false, stat };
    }

    const staged = await stageTemp(dir, name, data, existing, opts.whileFlushing);
    let before: Snapshot | undefined;
    try {
      await opts.hooks?.beforeRename?.(staged.path);
      before = await checkExpected(entry, target, original, opts.expected);
      await renameWithRetry(staged.path, entry, platform);
    } catch (err) {
      await fsp.rm(staged.path, { force: true }).catch(() => undefined);
      throw err;
    } finally {
      await staged.forget();
    }
    await opts.hooks?.afterRename?.(target);

    // Whatever wrote the replaced file between the last check and the rename would be lost: put
    // that version back and report the change as stale.
    if (original && before) {
      const after = await original.stat();
      if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
        await undo(dir, name, staged, original).catch(() => undefined);
        throw new TargetChanged(target, "modified");
      }
    }
    // The written inode must be at the checked path.
    const where = await dir.whereNow();
    const landed = await lstatOrUndefined(target);
    if (where !== dir.real || !landed || !sameInode(landed, staged.stat)) {
      const done = await undo(dir, name, staged, original).catch(() => "left" as const);
      const what = done === "restored" ? "the previous content is back" : done === "removed" ? "the new file was removed" : "it could not be undone, check the directory";
      const now = where === undefined ? " (its directory is gone)" : where !== dir.real ? ` (its directory is now at ${where})` : "";
      throw new PathChanged(`${target} was moved or replaced while it was being written${now}. The write was undone: ${what}. Check the path (\`ls -l\`) and retry.`);
    }
    await dir.sync();
    return { path: target, created: !existing, method: "atomic", splitHardLinks: hardLinked, stat: landed };
  } finally {
    // Not waited for: closing the last descriptor of the replaced file is when the kernel frees its
    // blocks (most of a millisecond for a few MB), which nothing here needs to see finished.
    void original?.close().catch(() => undefined);
    await dir.close();
  }
}
