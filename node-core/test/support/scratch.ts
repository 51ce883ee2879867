// Scratch directories for tests: each one is removed when its test file ends (the setup file
// test/support/cleanupSetup.ts), so a test run leaves nothing in the temp directory. What is left
// there at the end of the run is counted (test/globalSetup.ts): that is the core's doing, or a test
// that made a directory some other way and did not remove it.
import { chmodSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const made: string[] = [];

/** A fresh, symlink-free directory in the temp directory, removed when the test file ends. */
export function scratchDir(prefix = "wave-test-"): string {
  const dir = realpathSync.native(mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Has `dir` (made otherwise: a copy, a clone) removed when the test file ends. */
export function removeAfterFile(dir: string): string {
  made.push(dir);
  return dir;
}

/** Makes every directory under `dir` writable and searchable again (tests that take permissions away). */
function regainAccess(dir: string): void {
  try {
    if (!statSync(dir).isDirectory()) return;
    chmodSync(dir, 0o700);
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) regainAccess(path.join(dir, e.name));
  } catch {
    // Gone, or not ours to change.
  }
}

export function removeScratchDirs(): void {
  for (const dir of made.splice(0).reverse()) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // A directory a test made unreadable (or unwritable) for an unprivileged user.
      regainAccess(dir);
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    }
  }
}
