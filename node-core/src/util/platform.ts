// The operating-system surface the engines depend on. Production code uses `hostPlatform()`;
// tests inject another platform to drive the Windows and macOS branches with recorded outputs.
import { execFile } from "node:child_process";
import path from "node:path";
import { isExecutableFile, isFile } from "./files.js";

/** The platform a code path runs for. Injected in tests for the branches that cannot run here. */
export type PlatformName = "linux" | "darwin" | "win32";

export interface ExecOutcome {
  /** null when the program could not be started or was killed. */
  exitCode: number | null;
  stdout: Buffer;
  stderr: Buffer;
  /** Set when the program could not be started (ENOENT, EACCES, ...) or timed out. */
  error?: NodeJS.ErrnoException;
}

export interface Platform {
  readonly name: PlatformName;
  readonly path: path.PlatformPath;
  isFile(file: string): boolean;
  /** A regular file this process may execute (on Windows: any existing file). */
  isExecutable(file: string): boolean;
  /** Runs a helper program to completion (taskkill, chcp, ps); never throws. */
  exec(file: string, args: string[], opts?: { timeoutMs?: number }): Promise<ExecOutcome>;
}

function exec(file: string, args: string[], opts: { timeoutMs?: number } = {}): Promise<ExecOutcome> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: "buffer", timeout: opts.timeoutMs ?? 10_000, windowsHide: true, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const err = error as (NodeJS.ErrnoException & { code?: unknown }) | null;
      const exitCode = err ? (typeof err.code === "number" ? err.code : null) : 0;
      resolve({
        exitCode,
        stdout: Buffer.isBuffer(stdout) ? stdout : Buffer.from(stdout ?? ""),
        stderr: Buffer.isBuffer(stderr) ? stderr : Buffer.from(stderr ?? ""),
        ...(err && typeof err.code !== "number" ? { error: err } : {}),
      });
    });
  });
}

function currentPlatformName(): PlatformName {
  return process.platform === "win32" ? "win32" : process.platform === "darwin" ? "darwin" : "linux";
}

let host: Platform | undefined;

/** The platform this process runs on. */
export function hostPlatform(): Platform {
  host ??= {
    name: currentPlatformName(),
    path: process.platform === "win32" ? path.win32 : path.posix,
    isFile,
    isExecutable: (file) => (process.platform === "win32" ? isFile(file) : isExecutableFile(file)),
    exec,
  };
  return host;
}

/** Case-insensitive on Windows, where `Path` and `PATH` are the same variable. */
export function envValue(env: NodeJS.ProcessEnv, key: string, platform: PlatformName): string | undefined {
  if (platform !== "win32") return env[key];
  const upper = key.toUpperCase();
  for (const k of Object.keys(env)) if (k.toUpperCase() === upper) return env[k];
  return undefined;
}
