// The injection seam: Windows Git Bash (BASH-SHIM-5, by injection with recorded probe outputs and
// the rendered prelude run in real bash/zsh), the user's own BASH_ENV kept and rc files never read
// (BASH-SH-5), aliases, files recreated after a tmp cleaner, and the opt-out setting.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addLogSink, type LogRecord } from "../../util/log.js";
import type { ResolvedShell, ShellKind } from "../types.js";
import { GIT_BASH_FIND, NO_SHIMS, ShimInjector, shellPath } from "./index.js";
import { InjectionFiles } from "./injectionFiles.js";
import { GITIGNORE_PROBE, type ProbeRunner } from "./probe.js";
import { processStartTime } from "../../util/processIdentity.js";
import { baseEnv, buildFixtureTree, LOG_VARIABLE, lines, readLog, requireRealVendor, runShell, sortedLines, type FixtureTree } from "../../../test/support/shims.js";
import { NO_SUCH_PID } from "../../../test/support/processes.js";

let tmp: string;
let treeDir: string;
let home: string;
let tree: FixtureTree;
let realVendor: string;

beforeAll(() => {
  realVendor = requireRealVendor();
  tmp = mkdtempSync(path.join(os.tmpdir(), "wave-shims-index-"));
  treeDir = path.join(tmp, "tree");
  home = path.join(tmp, "home");
  mkdirSync(home);
  tree = buildFixtureTree(treeDir);
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const linux = (kind: ShellKind): ResolvedShell => ({ kind, path: `/bin/${kind}`, platform: "linux" });

function writeExecutable(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

// Recorded on Windows: `ugrep --version` of the Genivia 7.8.2 WIN64 build (winget validation log),
// `rg --version` of ripgrep 14.1.1, and how ugrep.exe lists the probe tree (subpaths with "\").
const WINDOWS_UGREP_VERSION = "ugrep 7.8.2 WIN64 +avx2; -P:pcre2jit; -z:zlib,bzip2,lzma,lz4,zstd,7z,tar/pax/cpio/zip\r\nLicense: BSD-3-Clause; ugrep user manual: <https://ugrep.com>\r\n";
const WINDOWS_RG_VERSION = "ripgrep 14.1.1 (rev 4649aa9700)\r\n\r\nfeatures:+pcre2\r\n";
const WINDOWS_PROBE_LISTING = "keep.log\r\nkeep.txt\r\nanchored\\f.txt\r\nodd\\.gitignore\\g.txt\r\nsub\\build\\d.txt\r\n";

describe.each(["bash", "zsh"] as ShellKind[])("%s", (kind) => {
  it(`BASH-SHIM-5 Windows Git Bash: grep is the bundled ugrep, find is msys GNU find, rg as BASH-SHIM-3 (${kind})`, async () => {
    // The win32-x64 vendor directory, with stand-ins for the .exe files that run the Linux tools
    // here, so the prelude rendered for Git Bash can run for real.
    const winRoot = path.join(tmp, `win-vendor-${kind}`);
    for (const [exe, tool] of [
      ["ugrep.exe", "ugrep"],
      ["rg.exe", "rg"],
    ]) {
      writeExecutable(path.join(winRoot, "win32-x64", exe!), `#!/bin/sh\nprintf 'bundled-${exe}\\n' >> "\${${LOG_VARIABLE}:-/dev/null}"\nexec '${path.join(realVendor, "linux-x64", tool!)}' "$@"\n`);
    }
    const calls: string[][] = [];
    const recorded: ProbeRunner = async (command) => {
      calls.push(command);
      const [exe, ...args] = command;
      if (args[0] === "--version") return { code: 0, stdout: exe!.endsWith("ugrep.exe") ? WINDOWS_UGREP_VERSION : WINDOWS_RG_VERSION, stderr: "" };
      if (args.includes(GITIGNORE_PROBE.needle)) return { code: 0, stdout: WINDOWS_PROBE_LISTING, stderr: "" };
      return { code: 2, stdout: "", stderr: `unexpected probe ${args.join(" ")}` };
    };
    const injector = new ShimInjector({ vendorRoots: () => [winRoot], arch: "x64", run: recorded, files: new InjectionFiles(() => tmp) });
    const gitBash: ResolvedShell = { kind, path: "C:\\Program Files\\Git\\bin\\bash.exe", platform: "win32" };

    const plan = await injector.plan(gitBash);
    expect(plan.grep?.command).toEqual([path.join(winRoot, "win32-x64", "ugrep.exe")]);
    expect(plan.find).toEqual({ kind: "gnu", path: GIT_BASH_FIND });
    expect(plan.rg?.command).toEqual([path.join(winRoot, "win32-x64", "rg.exe")]);
    // No bfs is looked for or probed on Windows.
    expect(calls.every(([exe]) => !exe!.includes("bfs"))).toBe(true);

    const injection = await injector.injection(gitBash);
    expect(injection.prelude).toBeDefined();

    const log = path.join(tmp, `win-log-${kind}`);
    const env = baseEnv(home, { [LOG_VARIABLE]: log });
    const r = await runShell(kind, `grep -rl ${tree.needle} .; find --version | head -n 1; find regex -regex '.*\\.\\(js\\|ts\\)' | sort`, {
      cwd: treeDir,
      env,
      injection,
    });
    expect(r.stderr).toBe("");
    const out = lines(r.stdout);
    expect(out.slice(0, tree.expected.length).sort()).toEqual(tree.expected);
    expect(out[tree.expected.length]).toMatch(/^find \(GNU findutils\)/);
    expect(out.slice(tree.expected.length + 1)).toEqual(["regex/a.js", "regex/b.ts"]);
    expect(readLog(log)).toEqual(["bundled-ugrep.exe"]);
    injector.dispose();
  });

  it(`BASH-SHIM-5 a Git Bash without msys find still gets the system find (${kind})`, async () => {
    const { renderShimFunction } = await import("./prelude.js");
    const fn = renderShimFunction(kind, "find", { find: { kind: "gnu", path: path.join(tmp, "no-such-find") } })!;
    const r = await runShell(kind, `${fn}\nfind regex -name '*.md'`, { cwd: treeDir, env: baseEnv(home) });
    expect(r).toMatchObject({ code: 0, stdout: "regex/d.md\n", stderr: "" });
  });
});

describe("the injection and the user's own start-up files (BASH-SH-5)", () => {
  it("bash: a BASH_ENV the core was started with is restored, expanded like bash does, read once, and nested shells see it without shims", async () => {
    const injector = new ShimInjector({ vendorRoots: () => [realVendor], files: new InjectionFiles(() => tmp) });
    const count = path.join(home, "sourced.count");
    writeFileSync(path.join(home, "user.bash"), `echo x >> '${count}'\nuserfn() { echo user-bash-env; }\nexport FROM_USER_ENV=1\n`);
    const env = baseEnv(home, { BASH_ENV: "$HOME/user.bash" });
    const injection = await injector.injection(linux("bash"));
    const r = await runShell("bash", `userfn; echo "$FROM_USER_ENV"; type -t grep; echo "BASH_ENV=$BASH_ENV"; env | grep -c '^WAVE_\\(SHIMS\\|USER\\|CWD\\)'; bash -c 'userfn; type -t grep'`, {
      cwd: treeDir,
      env,
      injection,
    });
    expect(r.stderr).toBe("");
    expect(lines(r.stdout)).toEqual(["user-bash-env", "1", "function", "BASH_ENV=$HOME/user.bash", "0", "user-bash-env", "file"]);
    // Once by the command's shell, once by the nested bash: never twice for one shell.
    expect(readFileSync(count, "utf8")).toBe("x\nx\n");

    const missing = baseEnv(home, { BASH_ENV: path.join(home, "no-such-file.bash") });
    const quiet = await runShell("bash", "type -t grep", { cwd: treeDir, env: missing, injection });
    expect(quiet).toMatchObject({ stdout: "function\n", stderr: "" });

    const unset = await runShell("bash", `echo "\${BASH_ENV-unset}"; type -t grep`, { cwd: treeDir, env: baseEnv(home), injection });
    expect(lines(unset.stdout)).toEqual(["unset", "function"]);
    injector.dispose();
  });

  it("zsh: neither ~/.zshenv nor $ZDOTDIR/.zshenv is read; ZDOTDIR comes back for nested shells", async () => {
    const injector = new ShimInjector({ vendorRoots: () => [realVendor], files: new InjectionFiles(() => tmp) });
    const injection = await injector.injection(linux("zsh"));
    const zdot = path.join(tmp, "user-zdotdir");
    mkdirSync(zdot, { recursive: true });
    writeFileSync(path.join(zdot, ".zshenv"), "userfn() { echo user-zshenv }\n");
    const zhome = path.join(tmp, "zhome");
    mkdirSync(zhome, { recursive: true });
    writeFileSync(path.join(zhome, ".zshenv"), "homefn() { echo home-zshenv }\n");

    const script = `userfn 2>/dev/null || echo no-userfn; homefn 2>/dev/null || echo no-homefn; whence -w grep; echo "ZDOTDIR=\${ZDOTDIR-unset}"`;
    const withZdotdir = await runShell("zsh", `${script}; zsh -c 'userfn; whence -w grep'`, { cwd: treeDir, env: baseEnv(zhome, { ZDOTDIR: zdot }), injection });
    expect(lines(withZdotdir.stdout)).toEqual(["no-userfn", "no-homefn", "grep: function", `ZDOTDIR=${zdot}`, "user-zshenv", "grep: command"]);

    const withHome = await runShell("zsh", `${script}; zsh -c 'homefn'`, { cwd: treeDir, env: baseEnv(zhome), injection });
    expect(lines(withHome.stdout)).toEqual(["no-userfn", "no-homefn", "grep: function", "ZDOTDIR=unset", "home-zshenv"]);
    injector.dispose();
  });

  // zsh reads no file of the user's before the prelude, so only bash can meet a user's aliases there.
  it("bash: aliases from the user's BASH_ENV neither break nor reshape the shims", async () => {
    const injector = new ShimInjector({ vendorRoots: () => [realVendor], files: new InjectionFiles(() => tmp) });
    writeFileSync(
      path.join(home, "aliases.bash"),
      `shopt -s expand_aliases\nalias command='echo HIJACKED'\nalias grep='grep --color=never'\nalias unset='echo HIJACKED'\nalias trap='echo HIJACKED'\n`,
    );
    const env = baseEnv(home, { BASH_ENV: path.join(home, "aliases.bash") });
    const injection = await injector.injection(linux("bash"));
    const r = await runShell("bash", `grep literal bre.txt\ngrep -rl ${tree.needle} src/deep\nshopt -q expand_aliases && echo aliases-on`, { cwd: treeDir, env, injection });
    expect(r.stderr).toBe("");
    expect(lines(r.stdout)).toEqual([`call(x) literal parentheses ${tree.needle}`, "src/deep/local-only.txt", "aliases-on"]);
    injector.dispose();
  });
});

describe("injection files", () => {
  it("are written again when a tmp cleaner removed them, and a missing definition falls back to the system command", async () => {
    const parent = path.join(tmp, "cleaned");
    mkdirSync(parent);
    const injector = new ShimInjector({ vendorRoots: () => [realVendor], files: new InjectionFiles(() => parent) });
    const first = await injector.injection(linux("bash"));
    const [dir] = readdirSync(parent);
    // A shell whose start-up file survives but whose grep definition is gone: the system grep.
    rmSync(path.join(parent, dir!, readdirSync(path.join(parent, dir!))[0]!, "grep.bash"));
    const stale = await runShell("bash", `grep -rl ${tree.needle} . | sort`, { cwd: treeDir, env: baseEnv(home), injection: first });
    expect(stale).toMatchObject({ code: 0, stderr: "" });
    expect(sortedLines(stale.stdout)).toContain("./dist/bundle.js");

    rmSync(path.join(parent, dir!), { recursive: true });
    const again = await injector.injection(linux("bash"));
    const r = await runShell("bash", `grep -rl ${tree.needle} .`, { cwd: treeDir, env: baseEnv(home), injection: again });
    expect(sortedLines(r.stdout)).toEqual(tree.expected);
    injector.dispose();
  });

  it("are reused while nothing changed, and a definition removed behind the prelude's back is written again", async () => {
    const parent = path.join(tmp, "reused");
    mkdirSync(parent);
    const injector = new ShimInjector({ vendorRoots: () => [realVendor], files: new InjectionFiles(() => parent) });
    const first = await injector.injection(linux("bash"));
    const dir = path.dirname(first.prelude!);
    const written = statSync(path.join(dir, "grep.bash")).ino;
    const again = await injector.injection(linux("bash"));
    expect(again).toBe(first);
    expect(statSync(path.join(dir, "grep.bash")).ino).toBe(written);

    // A tmp cleaner that takes one definition and leaves the prelude (read at every command, so
    // recently used) must not leave grep without its shim for the rest of the session.
    rmSync(path.join(dir, "grep.bash"));
    const repaired = await injector.injection(linux("bash"));
    expect(repaired.prelude).toBe(first.prelude);
    const r = await runShell("bash", `grep -rl ${tree.needle} .`, { cwd: treeDir, env: baseEnv(home), injection: repaired });
    expect(sortedLines(r.stdout)).toEqual(tree.expected);
    injector.dispose();
  });

  it("follow the vendor binaries: one that appears or goes away changes the next injection", async () => {
    const copy = path.join(tmp, "vendor-follow");
    cpSync(realVendor, copy, { recursive: true });
    const tag = readdirSync(copy)[0]!;
    const parent = path.join(tmp, "follow");
    mkdirSync(parent);
    const injector = new ShimInjector({ vendorRoots: () => [copy], files: new InjectionFiles(() => parent) });
    const all = await injector.injection(linux("bash"));
    rmSync(path.join(copy, tag, "ugrep"));
    const withoutUgrep = await injector.injection(linux("bash"));
    expect(withoutUgrep.prelude).not.toBe(all.prelude);
    expect(readFileSync(withoutUgrep.prelude!, "utf8")).not.toMatch(/function grep/);
    cpSync(path.join(realVendor, tag, "ugrep"), path.join(copy, tag, "ugrep"));
    const back = await injector.injection(linux("bash"));
    expect(back.prelude).toBe(all.prelude);
    expect(readFileSync(back.prelude!, "utf8")).toMatch(/function grep/);
    injector.dispose();
  });

  it("sweep the directories of core processes that died without exiting, and only those (by pid and start time: a reused pid does not keep a dead one's)", () => {
    const parent = path.join(tmp, "sweep");
    const dead = NO_SUCH_PID;
    const live = `wave-shims-${process.ppid}-${processStartTime(process.ppid)}-ghi`;
    const reused = `wave-shims-${process.ppid}-1-jkl`;
    for (const name of [`wave-shims-${dead}-abc`, `wave-shims-${dead}-5-mno`, `wave-shims-${process.ppid}-def`, live, reused, "wave-shims-other", "unrelated"]) {
      mkdirSync(path.join(parent, name, "bash-0"), { recursive: true });
    }
    const files = new InjectionFiles(() => parent);
    const dir = files.ensureDir("bash-1", () => ({ "env.bash": "true\n" }), "env.bash");
    expect(path.basename(path.dirname(dir))).toMatch(new RegExp(`^wave-shims-${process.pid}-${processStartTime(process.pid)}-`));
    expect(readdirSync(parent).sort()).toEqual([path.basename(path.dirname(dir)), `wave-shims-${process.ppid}-def`, live, "wave-shims-other", "unrelated"].sort());
    files.dispose();
    expect(readdirSync(parent)).not.toContain(path.basename(path.dirname(dir)));
  });

  it("BASH-SHIM-7 an unwritable place for them means no shims, not a failed command", async () => {
    const notADir = path.join(tmp, "a-file");
    writeFileSync(notADir, "");
    const records: LogRecord[] = [];
    const stop = addLogSink((r) => records.push(r));
    const injector = new ShimInjector({ vendorRoots: () => [realVendor], files: new InjectionFiles(() => notADir) });
    const injection = await injector.injection(linux("bash"));
    stop();
    expect(injection).toEqual(NO_SHIMS);
    expect(records.some((r) => r.level === "debug" && /search shims unavailable/.test(r.message))).toBe(true);
  });

  it("spell paths for the shell: Git Bash reads C:/…, never backslashes", () => {
    expect(shellPath("C:\\Users\\me\\AppData\\Local\\Temp\\wave-shims-1\\bash-0\\env.bash", "win32")).toBe("C:/Users/me/AppData/Local/Temp/wave-shims-1/bash-0/env.bash");
    expect(shellPath("/tmp/a\\b", "linux")).toBe("/tmp/a\\b");
  });
});

describe("a vendor directory whose files lost their executable bits", () => {
  it("BASH-SHIM-7 gets them back (a plugin zip unpacked without Unix modes) and the shims work", async () => {
    const copy = path.join(tmp, "flattened-vendor");
    cpSync(realVendor, copy, { recursive: true });
    const dir = path.join(copy, "linux-x64");
    const parts = ["ugrep", "bfs", "rg", "lib/ld-linux-x86-64.so.2", ...readdirSync(path.join(dir, "libexec")).map((f) => `libexec/${f}`)];
    for (const part of parts) chmodSync(path.join(dir, part), 0o644);
    const records: LogRecord[] = [];
    const stop = addLogSink((r) => records.push(r));
    const injector = new ShimInjector({ vendorRoots: () => [copy], files: new InjectionFiles(() => tmp) });
    const injection = await injector.injection(linux("bash"));
    stop();
    for (const part of parts) expect((statSync(path.join(dir, part)).mode & 0o777).toString(8), part).toBe("755");
    expect(records.filter((r) => /restored the executable bits/.test(r.message)).length).toBe(parts.length);
    const r = await runShell("bash", `grep -rl ${tree.needle} . | sort; find regex -name '*.md'`, { cwd: treeDir, env: baseEnv(home), injection });
    expect(lines(r.stdout)).toEqual([...tree.expected, "regex/d.md"]);
    injector.dispose();
  });
});
