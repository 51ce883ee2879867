// Lossless, atomic file replacement (FS-ATOMIC): the new bytes go to a temporary file in the
// target's own directory, are flushed to disk, get the original's mode (and owner where we may),
// and are renamed over the target, so a concurrent reader sees the old file or the new one and
// never a torn one. Any failure removes the temporary file and leaves the target as it was.
//
// Symlinks are written through: the link's final target is replaced and the link survives.
// A file with several hard links is rewritten in place instead (renaming would split it from its
// other names); the new bytes are first staged in a temporary file so a failed write can put the
// old content back.
import { randomBytes } from "node:crypto";
import { constants, promises as fsp, type Stats } from "node:fs";
import path from "node:path";

export interface AtomicWriteHooks {
  /** Called after the temporary file is complete and flushed, just before the rename (tests). */
  beforeRename?(tempPath: string): void | Promise<void>;
}

export interface AtomicWriteOptions {
  hooks?: AtomicWriteHooks;
  platform?: NodeJS.Platform;
}

export interface WriteOutcome {
  /** The file actually written (the symlink's target when `requested` was a link). */
  path: string;
  created: boolean;
  /** "atomic": temp + rename. "in-place": the file has several hard links and was rewritten in place. */
  method: "atomic" | "in-place";
}

const MAX_LINK_HOPS = 40;

/** Follows a chain of symlinks to the file that would be written (which may not exist yet). */
export async function resolveWriteTarget(requested: string): Promise<string> {
  let current = requested;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    let st: Stats;
    try {
      st = await fsp.lstat(current);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return current;
      throw err;
    }
    if (!st.isSymbolicLink()) return current;
    current = path.resolve(path.dirname(current), await fsp.readlink(current));
  }
  const err = new Error(`Too many levels of symbolic links: ${requested}`) as NodeJS.ErrnoException;
  err.code = "ELOOP";
  throw err;
}

function tempPathFor(target: string): string {
  const dir = path.dirname(target);
  // Keep the name within NAME_MAX (255) whatever the target's name length.
  const base = path.basename(target).slice(0, 200);
  return path.join(dir, `.${base}.wave-${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
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

async function fsyncDirectory(dir: string, platform: NodeJS.Platform): Promise<void> {
  if (platform === "win32") return;
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Best effort: some file systems refuse fsync on directories.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function writeAll(handle: fsp.FileHandle, data: Uint8Array, position = 0): Promise<void> {
  let off = 0;
  while (off < data.length) {
    const { bytesWritten } = await handle.write(data, off, data.length - off, position + off);
    off += bytesWritten;
  }
}

/** Writes `data` to a fresh temporary file next to `target`; returns its path. Cleans up on failure. */
async function stageTemp(target: string, data: Uint8Array, existing: Stats | undefined): Promise<string> {
  const temp = tempPathFor(target);
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, existing ? existing.mode & 0o7777 : 0o666);
    await writeAll(handle, data);
    if (existing) {
      // The owner where permitted (chown may clear set-id bits, so it goes first), then the
      // original mode exactly: open() applied the umask.
      if (typeof process.getuid === "function") {
        await handle.chown(existing.uid, existing.gid).catch(() => undefined);
      }
      await handle.chmod(existing.mode & 0o7777);
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    return temp;
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}

async function writeInPlace(target: string, data: Uint8Array, existing: Stats, hooks: AtomicWriteHooks | undefined): Promise<void> {
  const previous = await fsp.readFile(target);
  // Staging proves the bytes fit on the disk before the target is touched.
  const temp = await stageTemp(target, data, existing);
  try {
    await hooks?.beforeRename?.(temp);
    const handle = await fsp.open(target, constants.O_WRONLY);
    try {
      try {
        await writeAll(handle, data);
        await handle.truncate(data.length);
        await handle.sync();
      } catch (err) {
        await writeAll(handle, previous).catch(() => undefined);
        await handle.truncate(previous.length).catch(() => undefined);
        throw err;
      }
    } finally {
      await handle.close();
    }
  } finally {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
  }
}

/** Replaces (or creates) `requested` with `data`. Parent directories of a new file are created. */
export async function writeFileAtomic(requested: string, data: Uint8Array, opts: AtomicWriteOptions = {}): Promise<WriteOutcome> {
  const platform = opts.platform ?? process.platform;
  const target = await resolveWriteTarget(requested);
  let existing: Stats | undefined;
  try {
    existing = await fsp.stat(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  if (existing && !existing.isFile()) {
    const err = new Error(`${target} is not a regular file`) as NodeJS.ErrnoException;
    err.code = existing.isDirectory() ? "EISDIR" : "EINVAL";
    throw err;
  }
  // Renaming would replace even a read-only file: honour its protection like a plain write would.
  if (existing) await fsp.access(target, constants.W_OK);
  else await fsp.mkdir(path.dirname(target), { recursive: true });

  if (existing && existing.nlink > 1) {
    await writeInPlace(target, data, existing, opts.hooks);
    return { path: target, created: false, method: "in-place" };
  }

  const temp = await stageTemp(target, data, existing);
  try {
    await opts.hooks?.beforeRename?.(temp);
    await renameWithRetry(temp, target, platform);
  } catch (err) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  await fsyncDirectory(path.dirname(target), platform);
  return { path: target, created: !existing, method: "atomic" };
}
