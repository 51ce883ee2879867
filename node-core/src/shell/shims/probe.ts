// What each bundled binary can do, found by running it: once per binary per core process, lazily
// (never at module load, never per command). A binary that does not run, or a ugrep that does not
// apply .gitignore files correctly, counts as missing (BASH-SHIM-7: the shims fall back silently).
import { execFile } from "node:child_process";
import { statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Launch } from "./launch.js";
import { UGREP_FIXED_FLAGS } from "./prelude.js";
import { processOutputDir } from "../../base/processDir.js";

export interface ProbeResult {
  /** Exit code, or null when the process was killed (timeout) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` (program, then arguments). Injected in tests for platforms that cannot run here. */
export type ProbeRunner = (command: string[], opts: { cwd?: string; timeoutMs: number }) => Promise<ProbeResult>;

const PROBE_TIMEOUT_MS = 5_000;

export const runProbe: ProbeRunner = (command, opts) =>
  new Promise((resolve) => {
    execFile(command[0]!, command.slice(1), { cwd: opts.cwd, timeout: opts.timeoutMs, killSignal: "SIGKILL", maxBuffer: 1 << 20, windowsHide: true, encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ code, stdout: String(stdout ?? ""), stderr: String(stderr ?? "") });
    });
  });

export type Version = [number, number, number];

/** `ugrep 7.8.4 x86_64-…`, `bfs 4.1.4`, `ripgrep 14.1.1 (rev …)` → [major, minor, patch]. */
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
}

export interface BfsCapabilities {
  version: Version;
  /** GNU find's default dialect under bfs's name for it: `findutils-default` (bfs ≥ 3.3) or `emacs`. */
  regextype: "findutils-default" | "emacs";
  /** Every dialect this bfs accepts for a caller's own `-regextype`. */
  regextypes: string[];
  /** bfs < 4.1.4 drops results for two `-size` tests at its default -O3; -O1 is GNU find's level. */
  optimizeO1: boolean;
}

export interface RgCapabilities {
  version: Version;
}

/**
 * The oldest ugrep that applies .gitignore files as git does: entries without a trailing slash at
 * any depth (4.1), anchored entries of nested .gitignore files (7.6), and no endless loop on a
 * directory named .gitignore (7.8.2). Keep in step with scripts/vendor-linux-x64.sh.
 */
export const MIN_UGREP: Version = [7, 8, 2];
const BFS_SIZE_FIX: Version = [4, 1, 4];

/**
 * The tree the ugrep probe searches with the shim's own flags. Besides the version floor it proves
 * the behaviour: unslashed, anchored, negated and nested-anchored entries, and a directory named
 * `.gitignore` (which makes ugrep < 7.8.2 spin until the probe's timeout kills it).
 */
export const GITIGNORE_PROBE = {
  files: {
    ".gitignore": "node_modules\n/build\n*.log\n!keep.log\n",
    "sub/.gitignore": "/anchored/\n",
    "node_modules/a.txt": "N",
    "sub/node_modules/b.txt": "N",
    "build/c.txt": "N",
    "sub/build/d.txt": "N",
    "x.log": "N",
    "keep.log": "N",
    "sub/anchored/e.txt": "N",
    "anchored/f.txt": "N",
    "odd/.gitignore/g.txt": "N",
    "keep.txt": "N",
  } as Record<string, string>,
  needle: "wave-shim-gitignore-probe",
  expected: ["anchored/f.txt", "keep.log", "keep.txt", "odd/.gitignore/g.txt", "sub/build/d.txt"],
};

async function withProbeTree<T>(use: (dir: string) => Promise<T>): Promise<T> {
  // In the process's own folder: a core that exits while the probe runs leaves no tree behind.
  const dir = await mkdtemp(path.join(processOutputDir(), "ugrep-probe-"));
  try {
    for (const [f, content] of Object.entries(GITIGNORE_PROBE.files)) {
      await mkdir(path.join(dir, path.dirname(f)), { recursive: true });
      const text = content === "N" ? `${GITIGNORE_PROBE.needle}\n` : content;
      await writeFile(path.join(dir, f), text);
    }
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const run = (launch: Launch, runner: ProbeRunner, args: string[], cwd?: string) => runner([...launch.command, ...args], { cwd, timeoutMs: PROBE_TIMEOUT_MS });

export async function probeUgrep(launch: Launch, runner: ProbeRunner): Promise<Probed<UgrepCapabilities>> {
  const v = await run(launch, runner, ["--version"]);
  const version = v.code === 0 ? parseVersion(v.stdout) : undefined;
  if (!version) return { ok: false, reason: `does not run (${describe(v)})` };
  if (!versionAtLeast(version, MIN_UGREP)) {
    return {
      ok: false,
      reason: `ugrep ${formatVersion(version)} is older than ${formatVersion(MIN_UGREP)}: it misapplies .gitignore files or loops on a directory named .gitignore`,
    };
  }
  const listed = await withProbeTree((dir) => run(launch, runner, [...UGREP_FIXED_FLAGS, "-r", "-l", GITIGNORE_PROBE.needle, "."], dir));
  const got = listed.stdout
    .split(/\r?\n/)
    .filter(Boolean)
    .map((l) => l.replace(/\\/g, "/").replace(/^\.\//, ""))
    .sort();
  if (listed.code !== 0 || got.join("\n") !== GITIGNORE_PROBE.expected.join("\n")) {
    const what = listed.code === null ? "did not finish" : `listed ${got.join(", ") || "nothing"} (${describe(listed)})`;
    return { ok: false, reason: `ugrep ${formatVersion(version)} does not apply .gitignore files correctly: it ${what}` };
  }
  return { ok: true, version };
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

export async function probeBfs(launch: Launch, runner: ProbeRunner): Promise<Probed<BfsCapabilities>> {
  const [v, help] = await Promise.all([run(launch, runner, ["--version"]), run(launch, runner, ["-regextype", "help"])]);
  const version = v.code === 0 ? parseVersion(v.stdout) : undefined;
  if (!version) return { ok: false, reason: `does not run (${describe(v)})` };
  const regextypes = parseRegextypes(help.stdout + "\n" + help.stderr);
  const regextype = regextypes.includes("findutils-default") ? "findutils-default" : regextypes.includes("emacs") ? "emacs" : undefined;
  if (!regextype) return { ok: false, reason: `bfs ${formatVersion(version)} has no emacs regex dialect (built without Oniguruma)` };
  return { ok: true, version, regextype, regextypes, optimizeO1: !versionAtLeast(version, BFS_SIZE_FIX) };
}

export async function probeRg(launch: Launch, runner: ProbeRunner): Promise<Probed<RgCapabilities>> {
  const v = await run(launch, runner, ["--version"]);
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
      // Synchronous: one stat per tool and command, cheaper than a thread-pool round trip.
      const s = statSync(file);
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
