// The routing matrix (BASH-SHIM-2, 3, 4, 6, 7), proven by which binary actually ran: the vendor
// directory (WAVE_VENDOR_DIR, as tests and packaging set it) holds logging wrappers around the real
// bundled tools, and logging wrappers around the system's grep/find/rg come first on PATH.
import { mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ShellKind } from "../types.js";
import { disposeShims, shimInjection } from "./index.js";
import {
  baseEnv,
  buildFixtureTree,
  LOG_VARIABLE,
  makeLoggingSystemBin,
  makeLoggingVendor,
  pathWithout,
  readLog,
  runShell,
  type FixtureTree,
} from "./testSupport.js";

let tmp: string;
let treeDir: string;
let vendor: string;
let sysbin: string;
let tree: FixtureTree;
let logCount = 0;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "wave-shims-routing-"));
  treeDir = path.join(tmp, "tree");
  tree = buildFixtureTree(treeDir);
  vendor = makeLoggingVendor(path.join(tmp, "vendor"));
  sysbin = makeLoggingSystemBin(path.join(tmp, "sysbin"));
  mkdirSync(path.join(tmp, "home"));
  vi.stubEnv("WAVE_VENDOR_DIR", vendor);
});

afterAll(() => {
  disposeShims();
  vi.unstubAllEnvs();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const shell = (kind: ShellKind) => ({ kind, path: `/bin/${kind}`, platform: "linux" as const });

/** Runs `script` through the real seam and returns which tools ran, in order. */
async function ran(kind: ShellKind, script: string, pathValue = `${sysbin}:${process.env.PATH}`) {
  const log = path.join(tmp, `log-${++logCount}`);
  const env = baseEnv(path.join(tmp, "home"), { PATH: pathValue, [LOG_VARIABLE]: log });
  const injection = await shimInjection(shell(kind), { enabled: true, baseEnv: env });
  const result = await runShell(kind, script, { cwd: treeDir, env, injection });
  return { ...result, ran: readLog(log) };
}

const N = () => tree.needle;

describe.each(["bash", "zsh"] as ShellKind[])("%s", (kind) => {
  const matrix: Array<[string, () => string, string[]]> = [
    ["a recursive grep", () => `grep -rl ${N()} .`, ["bundled-ugrep"]],
    ["grep with a directory operand and no -r", () => `grep -l ${N()} src`, ["bundled-ugrep"]],
    ["grep on a single file", () => `grep ${N()} src/app.ts`, ["system-grep"]],
    ["grep reading a pipe", () => `echo ${N()} | grep -c ${N()}`, ["system-grep"]],
    ["a recursive grep into a pipe", () => `grep -rl ${N()} . | sort | head -n 2`, ["bundled-ugrep"]],
    ["grep reading a heredoc", () => `grep -c x <<'EOF'\nx\nEOF`, ["system-grep"]],
    ["a recursive grep reading stdin as well (-)", () => `echo ${N()} | grep -r ${N()} - src`, ["system-grep"]],
    ["redirections", () => `grep -rl ${N()} . >out.txt 2>&1; cat out.txt >/dev/null; rm out.txt`, ["bundled-ugrep"]],
    ["command substitution", () => `x=$(grep -rl ${N()} src); echo "$x"`, ["bundled-ugrep"]],
    ["a subshell and a background job", () => `(grep -rq ${N()} src); grep -rq ${N()} src & wait $!`, ["bundled-ugrep", "bundled-ugrep"]],
    ["set -e", () => `set -e; grep -rq NO_SUCH_TEXT .; echo unreachable`, ["bundled-ugrep"]],
    ["xargs", () => `echo src | xargs grep -rl ${N()}`, ["system-grep"]],
    ["timeout", () => `timeout 20 grep -rl ${N()} src`, ["system-grep"]],
    ["env", () => `env grep -rl ${N()} src`, ["system-grep"]],
    ["find -exec", () => `find src -name app.ts -exec grep -l ${N()} {} +`, ["bundled-bfs", "system-grep"]],
    ["a nested bash -c", () => `bash -c 'grep -rl ${N()} src'`, ["system-grep"]],
    ["a nested zsh -c", () => `zsh -c 'grep -rl ${N()} src; find src -name app.ts'`, ["system-grep", "system-find"]],
    ["command grep", () => `command grep -rl ${N()} src`, ["system-grep"]],
    ["grep -Z", () => `grep -rZl ${N()} src`, ["system-grep"]],
    ["grep -z", () => `grep -rz ${N()} src`, ["system-grep"]],
    ["grep --null", () => `grep -r --null -l ${N()} src`, ["system-grep"]],
    ["grep --config", () => `grep -r --config ${N()} src`, ["system-grep"]],
    ["grep -NUM context", () => `grep -r -3 ${N()} src`, ["system-grep"]],
    ["a back-reference", () => `grep -r '\\(a\\)\\1' src`, ["system-grep"]],
    ["an abbreviated long option", () => `grep -r --recurs ${N()} src`, ["system-grep"]],
    ["--include with its value in the next word", () => `grep -r --include '*.ts' ${N()} src`, ["bundled-ugrep"]],
    ["--no-ignore-files (the documented way to search ignored files)", () => `grep -r --no-ignore-files -l ${N()} .`, ["bundled-ugrep"]],
    ["find", () => `find . -name '*.ts'`, ["bundled-bfs"]],
    ["find with a -regextype bfs knows", () => `find regex -regextype posix-extended -regex '.*\\.(js|ts)'`, ["bundled-bfs"]],
    ["find with a regex escape bfs never matches", () => `find regex -regex '.*\\w\\.ts'`, ["system-find"]],
    ["find -files0-from", () => `printf 'src\\0' >list; find -files0-from list -name app.ts; rm list`, ["system-find"]],
    ["find -ok", () => `find src -name app.ts -ok true {} \\;`, ["system-find"]],
    ["rg with an rg on PATH", () => `rg -l ${N()} src`, ["system-rg"]],
    ["grep -d recurse", () => `grep -d recurse -l ${N()} src`, ["bundled-ugrep"]],
    ["grep --directories=recurse", () => `grep --directories=recurse -l ${N()} src`, ["bundled-ugrep"]],
    ["grep -d skip", () => `grep -d skip -l ${N()} src src/app.ts`, ["system-grep"]],
    ["grep -r with only file operands", () => `grep -rl ${N()} src/app.ts src/util.js`, ["system-grep"]],
    ["grep with options after the operands", () => `grep ${N()} . -rl --include='*.ts'`, ["bundled-ugrep"]],
    ...(kind === "bash" ? ([["bash's nocasematch", () => `shopt -s nocasematch; grep -rl ${N()} src`, ["system-grep"]]] as Array<[string, () => string, string[]]>) : []),
  ];

  for (const [name, script, expected] of matrix) {
    it(`routes ${name} (${kind})`, async () => {
      const r = await ran(kind, script());
      expect(r.ran, `${script()}\n${r.stderr}`).toEqual(expected);
      expect(r.stderr).not.toMatch(/not found|No such file or directory.*(ugrep|bfs)|wave/i);
    });
  }

  it(`BASH-SHIM-6 a shimmed grep under set -e ends the script with grep's status (${kind})`, async () => {
    const r = await ran(kind, `set -e; grep -rq NO_SUCH_TEXT .; echo unreachable`);
    expect(r).toMatchObject({ code: 1, stdout: "", ran: ["bundled-ugrep"] });
  });

  it(`BASH-SHIM-3 rg runs the bundled ripgrep when PATH has none (${kind})`, async () => {
    const noRg = pathWithout(path.join(tmp, `no-rg-${kind}`), ["rg"]);
    const r = await ran(kind, `rg -l ${N()} src | sort; xargs rg -l x </dev/null; echo "xargs=$?"`, `${noRg}`);
    expect(r.ran).toEqual(["bundled-rg"]);
    expect(r.stdout).toContain("src/app.ts");
    // Functions do not reach xargs, and the system has no rg: xargs reports it as missing (127).
    expect(r.stdout).toContain("xargs=127");
  });

  it(`BASH-SHIM-7 a vendor binary deleted after the injection runs the system command silently (${kind})`, async () => {
    const ugrep = path.join(vendor, "linux-x64", "ugrep");
    const bfs = path.join(vendor, "linux-x64", "bfs");
    const log = path.join(tmp, `log-deleted-${kind}`);
    const env = baseEnv(path.join(tmp, "home"), { PATH: `${sysbin}:${process.env.PATH}`, [LOG_VARIABLE]: log });
    const injection = await shimInjection(shell(kind), { enabled: true, baseEnv: env });
    renameSync(ugrep, `${ugrep}.away`);
    renameSync(bfs, `${bfs}.away`);
    try {
      const r = await runShell(kind, `grep -rl ${N()} . >/dev/null; echo "rc=$?"; find src -name app.ts`, { cwd: treeDir, env, injection });
      expect(r).toMatchObject({ stdout: "rc=0\nsrc/app.ts\n", stderr: "" });
      expect(readLog(log)).toEqual(["system-grep", "system-find"]);
      // A later injection no longer offers them at all.
      const fresh = await ran(kind, `grep -rl ${N()} . >/dev/null; find src -name app.ts >/dev/null; type grep find`);
      expect(fresh.ran).toEqual(["system-grep", "system-find"]);
      expect(fresh.stdout).not.toMatch(/function/);
    } finally {
      renameSync(`${ugrep}.away`, ugrep);
      renameSync(`${bfs}.away`, bfs);
    }
  });

  it(`enabled: false injects nothing and every command is the system's (${kind})`, async () => {
    const log = path.join(tmp, `log-disabled-${kind}`);
    const env = baseEnv(path.join(tmp, "home"), { PATH: `${sysbin}:${process.env.PATH}`, [LOG_VARIABLE]: log });
    const injection = await shimInjection(shell(kind), { enabled: false, baseEnv: env });
    expect(injection).toEqual({ env: {}, scriptPrefix: "" });
    await runShell(kind, `grep -rl ${N()} . >/dev/null; find . -name '*.ts' >/dev/null`, { cwd: treeDir, env, injection });
    expect(readLog(log)).toEqual(["system-grep", "system-find"]);
  });
});
