// The files a shell reads the shims from: bash's BASH_ENV file and zsh's ZDOTDIR/.zshenv. They live
// in one private directory per core process (mkdtemp: 0700, an unguessable name), are written once
// per distinct content and rewritten if something (a tmp cleaner) removed them.
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";

export class InjectionFiles {
  private dir: string | undefined;
  private exitHook = false;

  constructor(private readonly parent: () => string = os.tmpdir) {}

  /** Writes `content` as `<private dir>/<name with a content hash>` unless it is already there. */
  ensureFile(prefix: string, content: string): string {
    return this.ensure(`${prefix}-${hash(content)}.sh`, content);
  }

  /** Writes `content` as `.zshenv` in a directory of its own (for ZDOTDIR); returns the directory. */
  ensureZdotdir(content: string): string {
    const sub = `zsh-${hash(content)}`;
    this.ensure(path.join(sub, ".zshenv"), content);
    return path.join(this.root(), sub);
  }

  /** Removes the private directory (tests, shutdown). */
  dispose(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  private ensure(relative: string, content: string): string {
    const file = path.join(this.root(), relative);
    if (!isFileOfSize(file, Buffer.byteLength(content))) {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, content, { mode: 0o600 });
      // rename is atomic: a shell starting meanwhile reads the old file or the new one, never half.
      renameSync(tmp, file);
    }
    return file;
  }

  private root(): string {
    if (this.dir && isDirectory(this.dir)) return this.dir;
    this.dir = mkdtempSync(path.join(this.parent(), "wave-shims-"));
    if (!this.exitHook) {
      this.exitHook = true;
      process.once("exit", () => this.dispose());
    }
    return this.dir;
  }
}

function hash(content: string): string {
  return createHash("sha256").update(content).digest("hex").slice(0, 16);
}

function isFileOfSize(file: string, size: number): boolean {
  try {
    const s = statSync(file);
    return s.isFile() && s.size === size;
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
