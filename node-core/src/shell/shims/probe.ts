// What each bundled binary can do, found by running it: once per binary per core process, lazily
// (never at module load, never per command). A binary that does not run, or a ugrep too old to
// honour .gitignore correctly, counts as missing (BASH-SHIM-7: the shims fall back silently).
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface ProbeResult {
  /** Exit code, or null when the process was killed (timeout) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a binary for a probe. Injected in tests for platforms that cannot run here. */
export type ProbeRunner = (file: string, args: string[], opts: { cwd?: string; timeoutMs: number }) => Promise<ProbeResult>;

export const PROBE_TIMEOUT_MS = 5_000;

export const runProbe: ProbeRunner = (file, args, opts) =>
  new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: opts.cwd, timeout: opts.timeoutMs, killSignal: "SIGKILL", maxBuffer: 1 << 20, windowsHide: true, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout: String(stdout ?? ""), stderr: String(stderr ?? "") });
      },
    );
  });

export type Version = [number, number, number];

/** `ugrep 7.4.2 x86_64-…`, `bfs 4.0.6`, `ripgrep 14.1.1 (rev …)` → [major, minor, patch]. */
export function parseVersion(output: string): Version | undefined {
  const m = /^\S+\s+v?(\d+)\.(\d+)(?:\.(\d+))?/m.exec(output.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

export function versionAtLeast(v: Version, min: Version): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== min[i]) return v[i]! > min[i]!;
  return true;
}

export const formatVersion = (v: Version): string => v.join(".");

export type Probed<T> = ({ ok: true } & T) | { ok: false; reason: string };

export interface UgrepCapabilities {
  version: Version;
  /** `--grep` (GNU grep compatibility mode) exists from 7.2. */
  grepMode: boolean;
  /** Upstream bugs this version still has, for the debug log. */
  knownIssues: string[];
}

export interface BfsCapabilities {
  version: Version;
  regextype: "findutils-default" | "emacs";
  regextypes: string[];
  optimizeO1: boolean;
}

export interface RgCapabilities {
  version: Version;
}

const MIN_UGREP: Version = [7, 0, 0];
const UGREP_GREP_MODE: Version = [7, 2, 0];
const BFS_SIZE_FIX: Version = [4, 1, 4];

/**
 * The .gitignore check a ugrep must pass: an entry without a trailing slash ignores directories at
 * any depth, and an anchored entry only at the top (Debian 12's ugrep 3.11 gets both wrong).
 */
export const GITIGNORE_PROBE = {
  gitignore: "node_modules\n/build\n",
  files: ["node_modules/a.txt", "sub/node_modules/b.txt", "build/c.txt", "sub/build/d.txt", "keep.txt"],
  needle: "wave-shim-gitignore-probe",
  expected: ["keep.txt", "sub/build/d.txt"],
};

async function withProbeTree<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "wave-ugrep-probe-"));
  try {
    await writeFile(path.join(dir, ".gitignore"), GITIGNORE_PROBE.gitignore);
    for (const f of GITIGNORE_PROBE.files) {
      await mkdir(path.join(dir, path.dirname(f)), { recursive: true });
      await writeFile(path.join(dir, f), GITIGNORE_PROBE.needle + "\n");
    }
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function probeUgrep(file: string, run: ProbeRunner): Promise<Probed<UgrepCapabilities>> {
  const v = await run(file, ["--version"], { timeoutMs: PROBE_TIMEOUT_MS });
  const version = v.code === 0 ? parseVersion(v.stdout) : undefined;
  if (!version) return { ok: false, reason: `does not run (${describe(v)})` };
  if (!versionAtLeast(version, MIN_UGREP)) {
    return { ok: false, reason: `ugrep ${formatVersion(version)} is older than ${formatVersion(MIN_UGREP)} and mishandles .gitignore` };
  }
  const listed = await withProbeTree((dir) =>
    run(file, ["--ignore-files", "-r", "-l", GITIGNORE_PROBE.needle, "."], { cwd: dir, timeoutMs: PROBE_TIMEOUT_MS }),
  );
  const got = listed.stdout
    .split(/\r?\n/)
    .filter(Boolean)
    .map((l) => l.replace(/\\/g, "/").replace(/^\.\//, ""))
    .sort();
  if (listed.code !== 0 || got.join("\n") !== GITIGNORE_PROBE.expected.join("\n")) {
    return { ok: false, reason: `ugrep ${formatVersion(version)} does not honour .gitignore (listed: ${got.join(", ") || describe(listed)})` };
  }
  const knownIssues: string[] = [];
  if (!versionAtLeast(version, [7, 6, 0])) knownIssues.push("anchored patterns in nested .gitignore files are not applied (fixed in ugrep 7.6)");
  if (!versionAtLeast(version, [7, 8, 2])) knownIssues.push("a directory named .gitignore makes it spin until killed (fixed in ugrep 7.8.2)");
  return { ok: true, version, grepMode: versionAtLeast(version, UGREP_GREP_MODE), knownIssues };
}

/** The dialect names `bfs -regextype help` lists (`[posix-]awk` means `posix-awk` and `awk`). */
export function parseRegextypes(help: string): string[] {
  const types = new Set<string>();
  for (const line of help.split(/\r?\n/)) {
    const m = /^\s*(\[posix-\])?([a-z][a-z-]*):/.exec(line);
    if (!m) continue;
    types.add(m[2]!);
    if (m[1]) types.add(`posix-${m[2]}`);
  }
  return [...types];
}

export async function probeBfs(file: string, run: ProbeRunner): Promise<Probed<BfsCapabilities>> {
  const [v, help] = await Promise.all([
    run(file, ["--version"], { timeoutMs: PROBE_TIMEOUT_MS }),
    run(file, ["-regextype", "help"], { timeoutMs: PROBE_TIMEOUT_MS }),
  ]);
  const version = v.code === 0 ? parseVersion(v.stdout) : undefined;
  if (!version) return { ok: false, reason: `does not run (${describe(v)})` };
  const regextypes = parseRegextypes(help.stdout + "\n" + help.stderr);
  const regextype = regextypes.includes("findutils-default") ? "findutils-default" : regextypes.includes("emacs") ? "emacs" : undefined;
  if (!regextype) return { ok: false, reason: `bfs ${formatVersion(version)} has no emacs regex dialect (built without Oniguruma)` };
  return { ok: true, version, regextype, regextypes, optimizeO1: !versionAtLeast(version, BFS_SIZE_FIX) };
}

export async function probeRg(file: string, run: ProbeRunner): Promise<Probed<RgCapabilities>> {
  const v = await run(file, ["--version"], { timeoutMs: PROBE_TIMEOUT_MS });
  const version = v.code === 0 ? parseVersion(v.stdout) : undefined;
  return version ? { ok: true, version } : { ok: false, reason: `does not run (${describe(v)})` };
}

function describe(r: ProbeResult): string {
  const detail = (r.stderr || r.stdout).trim().split(/\r?\n/)[0] ?? "";
  return `exit ${r.code ?? "killed"}${detail ? `: ${detail.slice(0, 200)}` : ""}`;
}

/**
 * Memoises probes per binary for the life of the process. The key includes size and mtime, so a
 * binary replaced on disk (a vendor directory rebuilt under a running core) is probed again.
 */
export class ProbeCache {
  private readonly entries = new Map<string, Promise<unknown>>();

  async get<T>(tool: string, file: string, probe: () => Promise<T>): Promise<T> {
    let signature = "missing";
    try {
      const s = await stat(file);
      signature = `${s.size}:${s.mtimeMs}`;
    } catch {
      // Probed anyway: the probe reports the binary as not running.
    }
    const key = `${tool}\0${file}\0${signature}`;
    let entry = this.entries.get(key) as Promise<T> | undefined;
    if (!entry) {
      entry = probe();
      this.entries.set(key, entry);
    }
    return entry;
  }
}
