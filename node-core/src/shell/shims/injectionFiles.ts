// The files shells read the shims from: per shell kind and plan, one directory holding the start-up
// file (bash: BASH_ENV; zsh: the ZDOTDIR's .zshenv) and one full definition per tool. They live in
// one private directory per core process (mkdtemp: 0700, an unguessable name after the pid), are
// written once per distinct content, written again when something (a tmp cleaner) removed them,
// and removed at exit; directories left by processes that died without exiting are swept.
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDirectory } from "../../util/files.js";
import { identityAlive, ownIdentity } from "../../util/processIdentity.js";

/** The private directories of every live injector of this process: the sandbox keeps them read-only (commands run what is in them). */
const liveDirs = new Set<string>();

export function liveInjectionDirs(): string[] {
  return [...liveDirs];
}

export class InjectionFiles {
  private dir: string | undefined;
  /** Removes the directory if the process exits first; registered while the directory exists. */
  private readonly onExit = () => this.dispose();
  private readonly sets = new Map<string, Record<string, string>>();

  constructor(private readonly parent: () => string = os.tmpdir) {}

  /**
   * Makes `<private dir>/<name>/` hold exactly the files `render(thatDir)` returns (rendered once
   * per name: the name must identify the content) and returns that directory. The start-up file
   * is written last, so a shell never finds it before the files it names.
   */
  ensureDir(name: string, render: (dir: string) => Record<string, string>, lastFile: string): string {
    const dir = path.join(this.root(), name);
    let files = this.sets.get(dir);
    if (!files) {
      files = render(dir);
      this.sets.set(dir, files);
    }
    const names = Object.keys(files).sort((a, b) => Number(a === lastFile) - Number(b === lastFile));
    for (const file of names) this.ensureFile(path.join(dir, file), files[file]!);
    return dir;
  }

  /** Removes the private directory (tests, shutdown). */
  dispose(): void {
    process.off("exit", this.onExit);
    if (this.dir) {
      rmSync(this.dir, { recursive: true, force: true });
      liveDirs.delete(this.dir);
    }
    this.dir = undefined;
    this.sets.clear();
  }

  private ensureFile(file: string, content: string): void {
    if (isFileOfSize(file, Buffer.byteLength(content))) return;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, content, { mode: 0o600 });
    // rename is atomic: a shell starting meanwhile reads the old file or the new one, never half.
    renameSync(tmp, file);
  }

  private root(): string {
    if (this.dir && isDirectory(this.dir)) return this.dir;
    const parent = this.parent();
    if (this.dir) liveDirs.delete(this.dir);
    this.dir = mkdtempSync(path.join(parent, `${PREFIX}${ownIdentity()}-`));
    liveDirs.add(this.dir);
    removeAbandonedShimDirs(parent);
    // Once per directory made: one listener per live injector (per core), none after dispose.
    process.off("exit", this.onExit);
    process.once("exit", this.onExit);
    return this.dir;
  }
}

const PREFIX = "wave-shims-";

/**
 * Removes the directories of core processes that are gone (killed before their exit hook): by pid
 * and start time, so a process that got a dead one's pid keeps its own. `wave-shims-<pid>-<6>`
 * without a start time is from before start times were written.
 */
export function removeAbandonedShimDirs(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^wave-shims-(\d+)-(?:(\d+)-)?[^-]+$/.exec(name);
    if (!m || identityAlive(Number(m[1]), m[2] ?? "0")) continue;
    rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function isFileOfSize(file: string, size: number): boolean {
  try {
    const s = statSync(file, { throwIfNoEntry: false });
    return s?.isFile() === true && s.size === size;
  } catch {
    return false;
  }
}
