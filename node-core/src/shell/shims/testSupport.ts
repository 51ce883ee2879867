// Test support for the shim tests: the fixture tree, real shells started exactly as the Bash runner
// will start them (environment + injection + `-c` script, stdin /dev/null), and logging wrappers
// that record which grep/find/rg actually ran. Not part of the bundle.
import { spawn, spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ShellKind } from "../types.js";
import type { ShimInjection } from "./index.js";

export const NODE_CORE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const REPO_DIR = path.dirname(NODE_CORE_DIR);
export const REAL_VENDOR_ROOT = path.join(NODE_CORE_DIR, "vendor");
export const TOOLS = ["ugrep", "bfs", "rg"] as const;

/** The vendor root built by scripts/vendor-linux-x64.sh; a clear failure when it is missing. */
export function requireRealVendor(): string {
  for (const tool of TOOLS) {
    const file = path.join(REAL_VENDOR_ROOT, "linux-x64", tool);
    try {
      accessSync(file, constants.X_OK);
    } catch {
      throw new Error(`${file} is missing: run ./scripts/setup (or node-core/scripts/vendor-linux-x64.sh) to assemble the vendor directory`);
    }
  }
  return REAL_VENDOR_ROOT;
}

type FixtureValue = string | { base64: string } | { repeat: string; count: number } | null;

export interface FixtureTree {
  needle: string;
  files: Record<string, FixtureValue>;
  /** What the shimmed `grep -rl <needle> .` prints, sorted. */
  expected: string[];
  /** Files holding the needle that a .gitignore hides (only the system grep finds them). */
  ignored: string[];
}

export function loadFixture(): FixtureTree {
  return JSON.parse(readFileSync(path.join(REPO_DIR, "test-fixtures", "shims", "tree.json"), "utf8")) as FixtureTree;
}

/** Builds test-fixtures/shims/tree.json under `dest` and returns its description. */
export function buildFixtureTree(dest: string): FixtureTree {
  const tree = loadFixture();
  for (const [rel, value] of Object.entries(tree.files)) {
    const file = path.join(dest, rel);
    if (value === null) {
      mkdirSync(file, { recursive: true });
      continue;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    if (typeof value === "string") writeFileSync(file, value);
    else if ("base64" in value) writeFileSync(file, Buffer.from(value.base64, "base64"));
    else writeFileSync(file, value.repeat.repeat(value.count));
  }
  return tree;
}

export function shellExecutable(kind: ShellKind): string {
  const found = spawnSync("sh", ["-c", `command -v ${kind}`], { encoding: "utf8" }).stdout.trim();
  if (!found) throw new Error(`${kind} is not installed: run ./scripts/setup`);
  return found;
}

export interface ShellRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** The shim injection to apply; none for a plain `bash -c` / `zsh -c`. */
  injection?: ShimInjection;
  /** The environment before the injection (default: a small clean one; see `baseEnv`). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** A small, predictable environment: no user rc files (HOME is the given dir), C.UTF-8. */
export function baseEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", HOME: home, LANG: "C.UTF-8", LC_ALL: "C.UTF-8", ...extra };
}

/** Runs `<shell> -c <prefix + script>` with the injection's variables, as the Bash runner will. */
export function runShell(kind: ShellKind, script: string, opts: RunOptions): Promise<ShellRun> {
  const env = { ...(opts.env ?? baseEnv(opts.cwd)), ...(opts.injection?.env ?? {}) };
  const full = (opts.injection?.scriptPrefix ?? "") + script;
  return new Promise((resolve, reject) => {
    const child = spawn(shellExecutable(kind), ["-c", full], { cwd: opts.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export const lines = (text: string): string[] => text.split("\n").filter((l) => l.length > 0);
export const sortedLines = (text: string): string[] => lines(text).sort();

function writeScript(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

/** The variable the logging wrappers append their records to (one `<who>\t<args>` line per run). */
export const LOG_VARIABLE = "WAVE_SHIM_TEST_LOG";

/**
 * A vendor root whose linux-x64/{ugrep,bfs,rg} log `bundled-<tool>` and then run the real bundled
 * tool, so a test reads which binary actually ran instead of guessing from output.
 */
export function makeLoggingVendor(root: string, realRoot: string = requireRealVendor()): string {
  for (const tool of TOOLS) {
    const real = path.join(realRoot, "linux-x64", tool);
    writeScript(
      path.join(root, "linux-x64", tool),
      `#!/bin/sh\nprintf 'bundled-${tool}\\t%s\\n' "$*" >> "\${${LOG_VARIABLE}:-/dev/null}"\nexec '${real}' "$@"\n`,
    );
  }
  return root;
}

/**
 * A directory to put first on PATH whose grep/find (and rg, when the system has one) log
 * `system-<tool>` and then exec the system's own, under its own name.
 */
export function makeLoggingSystemBin(dir: string): string {
  for (const tool of ["grep", "find", "rg"]) {
    const real = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
    if (!real) continue;
    writeScript(
      path.join(dir, tool),
      `#!/bin/bash\nprintf 'system-${tool}\\t%s\\n' "$*" >> "\${${LOG_VARIABLE}:-/dev/null}"\nexec -a ${tool} '${real}' "$@"\n`,
    );
  }
  return dir;
}

/** A PATH directory holding every command of `pathValue` except the named ones (symlinks). */
export function pathWithout(dir: string, excluded: string[], pathValue: string = process.env.PATH ?? ""): string {
  mkdirSync(dir, { recursive: true });
  for (const entry of pathValue.split(":").filter(Boolean)) {
    let names: string[];
    try {
      names = readdirSync(entry);
    } catch {
      continue;
    }
    for (const name of names) {
      const target = path.join(dir, name);
      if (excluded.includes(name) || existsSync(target)) continue;
      symlinkSync(path.join(entry, name), target);
    }
  }
  return dir;
}

export function readLog(file: string): string[] {
  try {
    return lines(readFileSync(file, "utf8")).map((l) => l.split("\t")[0]!);
  } catch {
    return [];
  }
}
