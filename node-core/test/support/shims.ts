// Test support for the shim tests: the fixture tree, real shells started exactly as the Bash runner
// starts them (buildInvocation: environment, the runner's start-up file sourcing the injection,
// `-c` script, stdin /dev/null), and logging wrappers that record which grep/find/rg actually ran.
// Not part of the bundle.
import { spawn, spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BASH_RC, BASH_RC_FILE, buildInvocation, ZSH_RC, ZSH_RC_DIR } from "../../src/shell/invocation.js";
import { ensureSupportFile, processOutputDir } from "../../src/shell/outputDir.js";
import type { ShellKind } from "../../src/shell/types.js";
import type { ShimInjection } from "../../src/shell/shims/index.js";

export const NODE_CORE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
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

/** Recursive greps that shell functions cannot reach (BASH-SHIM-2): each must run the system grep. */
export function unreachableGreps(needle: string): string[] {
  return [
    `echo . | xargs grep -rl ${needle}`,
    `timeout 20 grep -rl ${needle} .`,
    `env grep -rl ${needle} .`,
    `find . -maxdepth 0 -exec grep -rl ${needle} {} +`,
    `bash -c 'grep -rl ${needle} .'`,
    `zsh -c 'grep -rl ${needle} .'`,
  ];
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
  /**
   * The shim injection to apply, exactly as the Bash runner applies it; without one, a plain
   * `bash -c` / `zsh -c` with no start-up file of ours.
   */
  injection?: ShimInjection;
  /** The environment before the injection (default: a small clean one; see `baseEnv`). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** A small, predictable environment: no user rc files (HOME is the given dir), C.UTF-8. */
export function baseEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", HOME: home, LANG: "C.UTF-8", LC_ALL: "C.UTF-8", ...extra };
}

let startupFiles: { bash: string; zshDir: string } | undefined;

/** The runner's start-up files (the same text the runner writes), in this process's output dir. */
function runnerStartupFiles(): { bash: string; zshDir: string } {
  if (!startupFiles) {
    startupFiles = {
      bash: ensureSupportFile(BASH_RC_FILE, BASH_RC),
      zshDir: path.dirname(ensureSupportFile(path.join(ZSH_RC_DIR, ".zshenv"), ZSH_RC)),
    };
    process.once("exit", () => rmSync(path.join(processOutputDir(), "rc"), { recursive: true, force: true }));
  }
  return startupFiles;
}

let runs = 0;

/** Runs `<shell> -c <script>`: with an injection, as the Bash runner starts it (buildInvocation). */
export function runShell(kind: ShellKind, script: string, opts: RunOptions): Promise<ShellRun> {
  const base = opts.env ?? baseEnv(opts.cwd);
  let file = shellExecutable(kind);
  let args = ["-c", script];
  let env: Record<string, string> = base;
  if (opts.injection) {
    const rc = runnerStartupFiles();
    const inv = buildInvocation({
      shell: { kind, path: file, platform: "linux" },
      command: script,
      baseEnv: base,
      shims: opts.injection,
      runId: `shimtest.${process.pid}.${++runs}`,
      cwdFile: undefined,
      cwd: opts.cwd,
      bashRcFile: rc.bash,
      zshRcDir: rc.zshDir,
      corePid: process.pid,
    });
    ({ file, args, env } = inv);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
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
    writeScript(path.join(root, "linux-x64", tool), `#!/bin/sh\nprintf 'bundled-${tool}\\t%s\\n' "$*" >> "\${${LOG_VARIABLE}:-/dev/null}"\nexec '${real}' "$@"\n`);
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
    writeScript(path.join(dir, tool), `#!/bin/bash\nprintf 'system-${tool}\\t%s\\n' "$*" >> "\${${LOG_VARIABLE}:-/dev/null}"\nexec -a ${tool} '${real}' "$@"\n`);
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

export interface RoutingCase {
  name: string;
  script: string;
  /** Which binaries ran, in order (`bundled-<tool>` or `system-<tool>`, from the logging wrappers). */
  ran: string[];
}

/**
 * The routing matrix (BASH-SHIM-2, 3, 4, 6): commands run in the fixture tree with the system's
 * rg on PATH, and which binaries must run for each.
 */
export function routingMatrix(kind: ShellKind, needle: string): RoutingCase[] {
  const N = needle;
  const cases: Array<[string, string, string[]]> = [
    ["a recursive grep", `grep -rl ${N} .`, ["bundled-ugrep"]],
    ["grep with a directory operand and no -r", `grep -l ${N} src`, ["bundled-ugrep"]],
    ["grep on a single file", `grep ${N} src/app.ts`, ["system-grep"]],
    ["grep reading a pipe", `echo ${N} | grep -c ${N}`, ["system-grep"]],
    ["a recursive grep into a pipe", `grep -rl ${N} . | sort | head -n 2`, ["bundled-ugrep"]],
    ["grep reading a heredoc", `grep -c x <<'EOF'\nx\nEOF`, ["system-grep"]],
    ["a recursive grep reading stdin as well (-)", `echo ${N} | grep -r ${N} - src`, ["system-grep"]],
    ["redirections", `grep -rl ${N} . >out.txt 2>&1; cat out.txt >/dev/null; rm out.txt`, ["bundled-ugrep"]],
    ["command substitution", `x=$(grep -rl ${N} src); echo "$x"`, ["bundled-ugrep"]],
    ["a subshell and a background job", `(grep -rq ${N} src); grep -rq ${N} src & wait $!`, ["bundled-ugrep", "bundled-ugrep"]],
    ["set -e", `set -e; grep -rq NO_SUCH_TEXT .; echo unreachable`, ["bundled-ugrep"]],
    ["xargs", `echo src | xargs grep -rl ${N}`, ["system-grep"]],
    ["timeout", `timeout 20 grep -rl ${N} src`, ["system-grep"]],
    ["env", `env grep -rl ${N} src`, ["system-grep"]],
    ["find -exec", `find src -name app.ts -exec grep -l ${N} {} +`, ["bundled-bfs", "system-grep"]],
    ["a nested bash -c", `bash -c 'grep -rl ${N} src'`, ["system-grep"]],
    ["a nested zsh -c", `zsh -c 'grep -rl ${N} src; find src -name app.ts'`, ["system-grep", "system-find"]],
    ["command grep", `command grep -rl ${N} src`, ["system-grep"]],
    ["grep -Z", `grep -rZl ${N} src`, ["system-grep"]],
    ["grep -z", `grep -rz ${N} src`, ["system-grep"]],
    ["grep --null", `grep -r --null -l ${N} src`, ["system-grep"]],
    ["grep --config", `grep -r --config ${N} src`, ["system-grep"]],
    ["grep -NUM context", `grep -r -3 ${N} src`, ["system-grep"]],
    ["a back-reference", `grep -r '\\(a\\)\\1' src`, ["system-grep"]],
    ["an abbreviated long option", `grep -r --recurs ${N} src`, ["system-grep"]],
    ["--include with its value in the next word", `grep -r --include '*.ts' ${N} src`, ["bundled-ugrep"]],
    ["--no-ignore-files (the documented way to search ignored files)", `grep -r --no-ignore-files -l ${N} .`, ["bundled-ugrep"]],
    ["find", `find . -name '*.ts'`, ["bundled-bfs"]],
    ["find with a -regextype bfs knows", `find regex -regextype posix-extended -regex '.*\\.(js|ts)'`, ["bundled-bfs"]],
    ["find with a regex escape bfs never matches", `find regex -regex '.*\\w\\.ts'`, ["system-find"]],
    ["find -files0-from", `printf 'src\\0' >list; find -files0-from list -name app.ts; rm list`, ["system-find"]],
    ["find -ok", `find src -name app.ts -ok true {} \\;`, ["system-find"]],
    ["rg with an rg on PATH", `rg -l ${N} src`, ["system-rg"]],
    ["grep -d recurse", `grep -d recurse -l ${N} src`, ["bundled-ugrep"]],
    ["grep --directories=recurse", `grep --directories=recurse -l ${N} src`, ["bundled-ugrep"]],
    ["grep -d skip", `grep -d skip -l ${N} src src/app.ts`, ["system-grep"]],
    ["grep -r with only file operands", `grep -rl ${N} src/app.ts src/util.js`, ["system-grep"]],
    ["grep with options after the operands", `grep ${N} . -rl --include='*.ts'`, ["bundled-ugrep"]],
  ];
  if (kind === "bash") cases.push(["bash's nocasematch", `shopt -s nocasematch; grep -rl ${N} src`, ["system-grep"]]);
  return cases.map(([name, script, ran]) => ({ name, script, ran }));
}
