// Finding and running ripgrep. The binary is looked up at each use (FS-SEARCH-4), never at module
// load, in this order: the @vscode/ripgrep platform package if npm installed it (an optional
// dependency), the bundled vendor directory, then `rg` on the child environment's PATH. rg runs
// outside the sandbox: a candidate that a sandboxed command could have put or changed (one in a
// `node_modules` of the workspace, a vendor folder a setting makes writable; util/programTrust.ts)
// is passed over for the next one.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { childEnvironment } from "../env/index.js";
import { isExecutableFile } from "../util/files.js";
import { untrustedProgram } from "../util/programTrust.js";
import { vendorBinary } from "../util/vendor.js";

export type RipgrepSource = "@vscode/ripgrep" | "vendor" | "PATH";

export interface ResolvedRipgrep {
  path: string;
  source: RipgrepSource;
}

export interface RipgrepLookup {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  arch?: string;
  /** `require.resolve` from this module's location; undefined when the request cannot be resolved. */
  resolveModuleFile?: (request: string) => string | undefined;
  /** Places sandboxed commands may write: no rg there (or one another account could change) is used. */
  writablePlaces?: readonly string[];
  /** Receives each candidate passed over, and why. */
  onRefused?: (file: string, reason: string) => void;
}

export const RIPGREP_MISSING =
  "ripgrep is not available: no @vscode/ripgrep package, no bundled rg, and no `rg` on PATH. Install ripgrep (e.g. `apt-get install ripgrep`, `brew install ripgrep`, `winget install BurntSushi.ripgrep.MSVC`) and try again; meanwhile Bash with `grep -rn` works.";

function defaultModuleResolver(request: string): string | undefined {
  // The bundle is CommonJS (__filename is the bundle); under the test runner fall back to the cwd.
  const base = typeof __filename === "string" ? __filename : path.join(process.cwd(), "index.js");
  try {
    return createRequire(base).resolve(request);
  } catch {
    return undefined;
  }
}

function onPath(exe: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform, trusted: (file: string) => boolean): string | undefined {
  const pathVar = env.PATH ?? env.Path ?? "";
  const sep = platform === "win32" ? ";" : ":";
  const exts = platform === "win32" ? (env.PATHEXT ?? ".EXE;.CMD;.BAT;.COM").split(";").filter(Boolean) : [""];
  for (const dir of pathVar.split(sep)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, exe + ext.toLowerCase());
      if (isExecutableFile(candidate) && trusted(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The rg binary to use now, or undefined when there is none. */
export function resolveRipgrep(lookup: RipgrepLookup = {}): ResolvedRipgrep | undefined {
  const env = lookup.env ?? process.env;
  const platform = lookup.platform ?? process.platform;
  const arch = lookup.arch ?? process.arch;
  const resolve = lookup.resolveModuleFile ?? defaultModuleResolver;
  const exe = platform === "win32" ? "rg.exe" : "rg";
  const trusted = (file: string): boolean => {
    if (!lookup.writablePlaces) return true;
    const why = untrustedProgram(file, lookup.writablePlaces);
    if (why) lookup.onRefused?.(file, why);
    return why === undefined;
  };
  // @vscode/ripgrep >= 1.17 ships the binary in a per-platform package; older versions
  // downloaded it into their own bin/ at install time (which may have failed).
  for (const request of [`@vscode/ripgrep-${platform}-${arch}/bin/${exe}`, `@vscode/ripgrep/bin/${exe}`]) {
    const file = resolve(request);
    if (file && isExecutableFile(file) && trusted(file)) return { path: file, source: "@vscode/ripgrep" };
  }
  const vendored = vendorBinary("rg", env);
  if (vendored && trusted(vendored)) return { path: vendored, source: "vendor" };
  const found = onPath("rg", env, platform, trusted);
  return found ? { path: found, source: "PATH" } : undefined;
}

/**
 * Resolves rg against the environment children get (the login-shell PATH once probed), passing over
 * any in `writablePlaces` (the sandbox's, when one is active).
 */
export async function findRipgrep(opts: Pick<RipgrepLookup, "writablePlaces" | "onRefused"> = {}): Promise<{ rg: ResolvedRipgrep | undefined; env: NodeJS.ProcessEnv }> {
  const env = await childEnvironment();
  return { rg: resolveRipgrep({ env, ...opts }), env };
}

export interface RipgrepRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The first 8 KB of stderr. */
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** The consumer asked to stop (it had enough). */
  stopped: boolean;
  spawnError?: string;
}

export interface RipgrepRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeoutMs: number;
  /** Gets stdout as it arrives; return false to stop rg. */
  onStdout(chunk: Buffer): boolean | void;
}

const STDERR_CAP = 8192;
const KILL_GRACE_MS = 1000;

/** Runs rg with stdin closed; stops it on timeout, abort or when the consumer has enough. */
export function runRipgrep(rg: string, args: string[], opts: RipgrepRunOptions): Promise<RipgrepRun> {
  return new Promise((resolve) => {
    const result: RipgrepRun = { exitCode: null, signal: null, stderr: "", timedOut: false, aborted: false, stopped: false };
    let child;
    try {
      child = spawn(rg, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    } catch (err) {
      resolve({ ...result, spawnError: (err as Error).message });
      return;
    }
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      killTimer ??= setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
    };
    const deadline = Date.now() + opts.timeoutMs;
    const expire = () => {
      result.timedOut = true;
      stop();
    };
    const timer = setTimeout(expire, opts.timeoutMs);
    const onAbort = () => {
      result.aborted = true;
      stop();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      if (result.stopped || result.timedOut || result.aborted) return;
      // A busy event loop runs the timer late: output that arrives after the deadline is not
      // used either, so the limit holds however the loop is scheduled (and 0 means "nothing").
      if (Date.now() >= deadline) return expire();
      if (opts.onStdout(chunk) === false) {
        result.stopped = true;
        stop();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (result.stderr.length < STDERR_CAP) result.stderr += chunk.toString("utf8").slice(0, STDERR_CAP - result.stderr.length);
    });
    child.on("error", (err) => {
      result.spawnError = err.message;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener("abort", onAbort);
      result.exitCode = code;
      result.signal = signal;
      resolve(result);
    });
  });
}

/** Splits a stream of NUL- or newline-terminated records across chunk boundaries. */
export class RecordSplitter {
  private carry: Buffer = Buffer.alloc(0);
  constructor(private readonly separator: number) {}

  push(chunk: Buffer, onRecord: (record: Buffer) => boolean | void): boolean {
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    let from = 0;
    for (;;) {
      const i = data.indexOf(this.separator, from);
      if (i === -1) break;
      if (onRecord(data.subarray(from, i)) === false) {
        this.carry = Buffer.alloc(0);
        return false;
      }
      from = i + 1;
    }
    this.carry = Buffer.from(data.subarray(from));
    return true;
  }

  /** The unterminated tail, if any. */
  flush(onRecord: (record: Buffer) => boolean | void): void {
    if (this.carry.length > 0) onRecord(this.carry);
    this.carry = Buffer.alloc(0);
  }
}
