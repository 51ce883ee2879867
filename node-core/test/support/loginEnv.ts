// Test support for the login-environment tests (unit and end-to-end): fake HOME directories with
// real rc files, and process checks.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scratchDir } from "./scratch.js";
import { randomBytes } from "node:crypto";

export interface FakeHome {
  home: string;
  /** Writes a file below the home directory (parents created); `executable` makes it a script. */
  write(relative: string, content: string, executable?: boolean): string;
  read(relative: string): string;
  exists(relative: string): boolean;
  cleanup(): void;
}

export function makeFakeHome(files: Record<string, string> = {}): FakeHome {
  const home = scratchDir("wave-env-home-");
  const api: FakeHome = {
    home,
    write(relative, content, executable = false) {
      const file = path.join(home, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      if (executable) chmodSync(file, 0o755);
      return file;
    },
    read: (relative) => readFileSync(path.join(home, relative), "utf8"),
    exists: (relative) => existsSync(path.join(home, relative)),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
  for (const [name, content] of Object.entries(files)) api.write(name, content);
  return api;
}

export type TestShell = "bash" | "zsh";

export const SHELL_PATHS: Record<TestShell, string> = { bash: "/bin/bash", zsh: "/bin/zsh" };

/** The rc files a login interactive shell of each kind reads, in the order it reads them. */
export const RC_FILES: Record<TestShell, { profile: string; rc: string }> = {
  bash: { profile: ".bash_profile", rc: ".bashrc" },
  zsh: { profile: ".zprofile", rc: ".zshrc" },
};

/** A value no real environment holds, to look for in outputs and logs. */
export function secretValue(label: string): string {
  return `${label}-${randomBytes(6).toString("hex")}-SECRET`;
}

/**
 * Sets up the user's profile the way people do: the profile exports some variables and (bash)
 * sources the rc file; the rc file exports more, before and after the usual "interactive only"
 * guard. `lines` go into the rc file after the guard.
 */
export function writeProfile(fake: FakeHome, shell: TestShell, opts: { profile?: string[]; rc?: string[]; beforeGuard?: string[] }): void {
  const { profile, rc } = RC_FILES[shell];
  const sourceRc = shell === "bash" ? ['[ -f "$HOME/.bashrc" ] && . "$HOME/.bashrc"'] : [];
  fake.write(profile, [...(opts.profile ?? []), ...sourceRc, ""].join("\n"));
  const guard = shell === "bash" ? ["case $- in *i*) ;; *) return;; esac"] : ["[[ -o interactive ]] || return"];
  fake.write(rc, [...(opts.beforeGuard ?? []), ...guard, ...(opts.rc ?? []), ""].join("\n"));
}

/** True while the process runs. A zombie (dead, not yet reaped by its new parent) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return !existsSync("/proc/self/stat");
  }
}

/** Polls until `check` is true or `timeoutMs` passed; returns the last result. */
export async function eventually(check: () => boolean, timeoutMs = 5000, intervalMs = 20): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Pids written one per line by an rc file (`echo $$ >> ~/pids`). */
export function readPids(fake: FakeHome, relative: string): number[] {
  if (!fake.exists(relative)) return [];
  return fake
    .read(relative)
    .split("\n")
    .filter((l) => /^\d+$/.test(l.trim()))
    .map(Number);
}
