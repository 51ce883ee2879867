// The search shims through the Bash tool (BASH-SHIM-1..9, BASH-SH-5): in-process cores running real
// bash and zsh, the real bundled ugrep/bfs/rg behind logging wrappers (WAVE_VENDOR_DIR, as tests
// and packaging set it) and logging wrappers around the system's grep/find/rg first on PATH, so
// every case proves which binary actually ran. The baseline is the same tool with `shims: false`.
// (BASH-SHIM-5, Windows Git Bash, cannot run here: shell/shims/index.test.ts covers it by injection.)
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ALLOWED_DESPITE_WARNINGS, captureLogs } from "../../test/support/logs.js";
import { closeCores, testCore, type TestCore } from "../../test/support/core.js";
import {
  buildFixtureTree,
  LOG_VARIABLE,
  lines,
  makeLoggingSystemBin,
  makeLoggingVendor,
  pathWithout,
  readLog,
  routingMatrix,
  shellExecutable,
  sortedLines,
  type FixtureTree,
  unreachableGreps,
} from "../../test/support/shims.js";
import type { ShellKind } from "../shell/types.js";

// Commands here carry permission warnings only as a side effect (allow-all): their audit line is claimed.
captureLogs(ALLOWED_DESPITE_WARNINGS);

const KINDS: ShellKind[] = ["bash", "zsh"];

let tmp: string;
let treeDir: string;
let vendor: string;
let sysbin: string;
let systemPath: string;
let tree: FixtureTree;
let logCount = 0;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "wave-bash-shims-"));
  treeDir = path.join(tmp, "tree");
  tree = buildFixtureTree(treeDir);
  mkdirSync(path.join(tmp, "logs"));
  vendor = makeLoggingVendor(path.join(tmp, "vendor"));
  sysbin = makeLoggingSystemBin(path.join(tmp, "sysbin"));
  systemPath = `${sysbin}:${process.env.PATH}`;
  const home = path.join(tmp, "home");
  mkdirSync(home);
  // Nested shells read the user's own rc files; these tests' user has none.
  vi.stubEnv("HOME", home);
  vi.stubEnv("WAVE_VENDOR_DIR", vendor);
  vi.stubEnv("PATH", systemPath);
});

afterEach(async () => {
  await closeCores();
  vi.stubEnv("PATH", systemPath);
});

afterAll(() => {
  vi.unstubAllEnvs();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Ran {
  output: string;
  exitCode: number | null;
  cwd: string;
  cwdChanged: boolean;
  cwdReset: boolean;
  /** Which binaries ran, in order. */
  ran: string[];
}

async function ran(t: TestCore, command: string): Promise<Ran> {
  const log = path.join(tmp, "logs", `log-${++logCount}`);
  vi.stubEnv(LOG_VARIABLE, log);
  const r = await t.bash({ command });
  const { output, exitCode, cwd, cwdChanged, cwdReset } = r.s;
  return { output, exitCode, cwd, cwdChanged, cwdReset, ran: readLog(log) };
}

/** A core over the fixture tree; `shims: false` makes it the baseline. */
function core(shims = true): TestCore {
  const t = testCore({ root: treeDir });
  // The logging wrappers append to logs in the test's scratch directory, outside the workspace
  // (only the logs' folder: a bundled binary a sandboxed command could rewrite is never probed).
  t.core.workspace.updateSettings({ sandbox: { allowWrite: [path.join(tmp, "logs")] } });
  if (!shims) t.core.workspace.updateSettings({ shims: false });
  return t;
}

const N = () => tree.needle;

describe.each(KINDS)("Bash tool with %s", (kind) => {
  beforeAll(async () => {
    vi.stubEnv("WAVE_SHELL", shellExecutable(kind));
    // The probes run the (logging) vendor binaries once per process: let them run before any
    // test reads a log.
    vi.stubEnv(LOG_VARIABLE, undefined);
    await core().bash({ command: "true" });
    await closeCores();
  });

  for (const c of routingMatrix(kind, "WAVE_NEEDLE_7f3a")) {
    it(`routes ${c.name} (${kind})`, async () => {
      const r = await ran(core(), c.script);
      expect(r.ran, `${c.script}\n${r.output}`).toEqual(c.ran);
      expect(r.output).not.toMatch(/command not found|No such file or directory.*(ugrep|bfs)|__wave|wave-shims/i);
    });
  }

  it(`BASH-SHIM-1 grep -r applies every .gitignore, skips binary files and VCS directories, prints no ./ (${kind})`, async () => {
    const on = await ran(core(), `grep -rl ${N()} .`);
    expect(on).toMatchObject({ exitCode: 0, ran: ["bundled-ugrep"] });
    expect(sortedLines(on.output)).toEqual(tree.expected);

    const off = await ran(core(false), `grep -rl ${N()} .`);
    expect(off).toMatchObject({ exitCode: 0, ran: ["system-grep"] });
    for (const f of [...tree.ignored, "blob.bin", ".git/config", ".svn/entries", ...tree.expected]) expect(sortedLines(off.output)).toContain(`./${f}`);

    // GNU grep's own line format: the shim's lines are the system's for the files it searched.
    const kept = new Set(tree.expected);
    const rn = await ran(core(), `grep -rn ${N()} .`);
    const systemLines = lines((await ran(core(false), `grep -rn ${N()} .`)).output)
      .map((l) => l.replace(/^\.\//, ""))
      .filter((l) => kept.has(l.slice(0, l.indexOf(":"))));
    expect(lines(rn.output).sort()).toEqual(systemLines.sort());
  });

  it(`BASH-SHIM-2 xargs, timeout, env, find -exec and nested shells run the system grep, as without shims (${kind})`, async () => {
    for (const script of unreachableGreps(N())) {
      const on = await ran(core(), script);
      expect(
        on.ran.filter((r) => r.endsWith("grep")),
        script,
      ).toEqual(["system-grep"]);
      expect(sortedLines(on.output), script).toContain("./dist/bundle.js");
      expect(sortedLines(on.output), script).toEqual(sortedLines((await ran(core(false), script)).output));
    }
    // The command calls grep, so its shell has the shim (a command that calls none runs without them).
    const nested = await ran(core(), `grep -q . /dev/null; type -t grep 2>/dev/null || whence -w grep; bash -c 'type -t grep'; zsh -c 'whence -w grep'`);
    expect(lines(nested.output)).toEqual([kind === "bash" ? "function" : "grep: function", "file", "grep: command"]);
  });

  it(`BASH-SHIM-3 rg is the bundled ripgrep only when PATH has no rg (${kind})`, async () => {
    const withRg = await ran(core(), `rg -l ${N()} src | sort`);
    expect(withRg.ran).toEqual(["system-rg"]);

    vi.stubEnv("PATH", pathWithout(path.join(tmp, `no-rg-${kind}`), ["rg"], systemPath));
    const noRg = await ran(core(), `rg -l ${N()} | sort; rg -q NO_SUCH_TEXT_ANYWHERE; echo "rc=$?"; xargs rg -l x </dev/null; echo "xargs=$?"`);
    expect(noRg.ran).toEqual(["bundled-rg", "bundled-rg"]);
    expect(lines(noRg.output)).toContain("src/app.ts");
    expect(lines(noRg.output)).not.toContain("dist/bundle.js");
    expect(lines(noRg.output)).toContain("rc=1");
    // Functions do not reach xargs, and this PATH has no rg: 127, as without shims.
    expect(lines(noRg.output).at(-1)).toBe("xargs=127");
    expect((await ran(core(false), "rg -l x; echo rc=$?")).output).toMatch(/rc=127\n$/);
  });

  it(`BASH-SHIM-4 flags ugrep reads differently run the system grep with every flag: output and status as without shims (${kind})`, async () => {
    for (const script of [
      `grep -rZl ${N()} src`,
      `grep -r --null -l ${N()} src`,
      `grep -r -2 ${N()} src`,
      `grep -rb ${N()} src`,
      `grep -r --max-count 1 ${N()} src`,
      `grep -rco ${N()} src`,
      `grep -r '*literal' src`,
    ]) {
      const on = await ran(core(), script);
      const off = await ran(core(false), script);
      expect(on.ran, script).toEqual(["system-grep"]);
      expect({ output: on.output, exitCode: on.exitCode }, script).toEqual({ output: off.output, exitCode: off.exitCode });
    }
  });

  it(`BASH-SHIM-6 exit statuses keep their meaning: 0 match, 1 none, 2 error, and a failing grep fails the call (${kind})`, async () => {
    const statuses = `grep -rq ${N()} src; echo "match=$?"; grep -r NO_SUCH_TEXT src; echo "none=$?"; grep -r ${N()} /nonexistent-dir 2>/dev/null; echo "error=$?"`;
    const on = await ran(core(), statuses);
    expect(on.output).toBe("match=0\nnone=1\nerror=2\n");
    // A missing operand is no directory: the system grep reports it.
    expect(on.ran).toEqual(["bundled-ugrep", "bundled-ugrep", "system-grep"]);

    for (const [script, exitCode] of [
      [`grep -rl NO_SUCH_TEXT .`, 1],
      [`grep -rl ${N()} .`, 0],
      [`grep -r '[' src`, 2],
    ] as const) {
      const r = await core().bash({ command: script });
      expect(r.s.exitCode, script).toBe(exitCode);
      expect(r.s.success, script).toBe(exitCode === 0);
    }
  });

  it(`BASH-SHIM-6 heredocs, redirections, pipes, $(…), set -e, set -u and pipefail behave as without shims (${kind})`, async () => {
    const cases: Array<[string, string, string[]]> = [
      [`grep -c ${N()} <<'EOF'\n${N()}\nplain\nEOF`, "1\n", ["system-grep"]],
      [`grep -rl ${N()} src >out.txt 2>&1; echo "rc=$?"; sort out.txt; rm out.txt`, "rc=0\nsrc/app.ts\nsrc/deep/local-only.txt\nsrc/util.js\n", ["bundled-ugrep"]],
      [`grep -rl ${N()} src | sort | head -n 1`, "src/app.ts\n", ["bundled-ugrep"]],
      [`x=$(grep -rl ${N()} src/deep); echo "got $x"`, "got src/deep/local-only.txt\n", ["bundled-ugrep"]],
      [`set -e; grep -rq NO_SUCH_TEXT src; echo unreachable`, "", ["bundled-ugrep"]],
      [`set -e; if grep -rq NO_SUCH_TEXT src; then echo found; fi; grep -rq NO_SUCH_TEXT src || echo handled; echo reached`, "handled\nreached\n", ["bundled-ugrep", "bundled-ugrep"]],
      [`set -u; grep -rl ${N()} src/deep; find src/deep -name '*.txt'; echo ok`, "src/deep/local-only.txt\nsrc/deep/local-only.txt\nok\n", ["bundled-ugrep", "bundled-bfs"]],
      [`set -o pipefail; grep -r NO_SUCH_TEXT src | cat; echo "rc=$?"`, "rc=1\n", ["bundled-ugrep"]],
      [`grep -r NO_SUCH_TEXT src; x=$?; true; echo "kept=$x"`, "kept=1\n", ["bundled-ugrep"]],
    ];
    for (const [script, output, which] of cases) {
      const on = await ran(core(), script);
      const off = await ran(core(false), script);
      expect({ output: on.output, ran: on.ran }, script).toEqual({ output, ran: which });
      expect(on.exitCode, script).toBe(off.exitCode);
    }
  });

  it(`BASH-SHIM-6 $LINENO, error line numbers and set -x traces are the user's own (${kind})`, async () => {
    for (const script of [
      `echo "line $LINENO"\necho "line $LINENO"\nno_such_command_xyz`,
      `echo before\nif then fi`,
      `true\nfor x in; do\n  :\ndone )`,
      `set -x\ngrep -rl ${N()} src/deep\nfind src/deep -name '*.txt'\nset +x`,
      `set -u\necho "$UNSET_VARIABLE_XYZ"`,
    ]) {
      const on = await ran(core(), script);
      const off = await ran(core(false), script);
      expect({ output: on.output, exitCode: on.exitCode }, script).toEqual({ output: off.output, exitCode: off.exitCode });
    }
    expect((await ran(core(), `echo "line $LINENO"\necho "line $LINENO"`)).output).toBe("line 1\nline 2\n");
    const traced = await ran(core(), `set -x\ngrep -rl ${N()} src/deep\nset +x`);
    expect(traced.ran).toEqual(["bundled-ugrep"]);
    // The call itself is traced once; nothing of the shim's own.
    expect(lines(traced.output).filter((l) => l.startsWith("+"))).toEqual([`+${kind === "zsh" ? "zsh:2> " : " "}grep -rl ${N()} src/deep`, `+${kind === "zsh" ? "zsh:3> " : " "}set +x`]);
  });

  it(`BASH-SHIM-7 a missing vendor binary means the system command, silently (${kind})`, async () => {
    const t = core();
    expect((await ran(t, `grep -rl ${N()} . >/dev/null; find src -name app.ts >/dev/null`)).ran).toEqual(["bundled-ugrep", "bundled-bfs"]);
    const ugrep = path.join(vendor, "linux-x64", "ugrep");
    const bfs = path.join(vendor, "linux-x64", "bfs");
    renameSync(ugrep, `${ugrep}.away`);
    renameSync(bfs, `${bfs}.away`);
    try {
      const r = await ran(t, `grep -rl ${N()} . >/dev/null; echo "rc=$?"; find src -name app.ts; type grep find 2>&1 | grep -c function`);
      expect(r).toMatchObject({ output: "rc=0\nsrc/app.ts\n0\n", exitCode: 1, ran: ["system-grep", "system-find", "system-grep"] });
    } finally {
      renameSync(`${ugrep}.away`, ugrep);
      renameSync(`${bfs}.away`, bfs);
    }
    expect((await ran(t, `grep -rl ${N()} . >/dev/null`)).ran).toEqual(["bundled-ugrep"]);
  });

  it(`BASH-SHIM-8 find is bfs with GNU find's regex dialect; a caller's -regextype wins (${kind})`, async () => {
    for (const script of [
      `find . -regex '.*\\.\\(js\\|ts\\)'`,
      `find regex -regextype posix-extended -regex '.*\\.(js|ts)'`,
      `find sizes -size -2M -size +1k -type f`,
      `find . -type d -name build -prune -o -type f -name '*.txt' -print`,
    ]) {
      const on = await ran(core(), script);
      const off = await ran(core(false), script);
      expect(on.ran, script).toEqual(["bundled-bfs"]);
      expect(off.ran, script).toEqual(["system-find"]);
      expect(on.exitCode, script).toBe(0);
      expect(sortedLines(on.output).length, script).toBeGreaterThan(0);
      expect(sortedLines(on.output), script).toEqual(sortedLines(off.output));
    }
  });

  it(`BASH-SHIM-9 the documented differences hold through the tool (${kind})`, async () => {
    // Matches only in ignored files: the shim says "none" (1), the system grep "found" (0).
    const onlyIgnored = `grep -rl 'top-level build' .`;
    expect(await ran(core(), onlyIgnored)).toMatchObject({ output: "", exitCode: 1 });
    expect(await ran(core(false), onlyIgnored)).toMatchObject({ output: "./build/out.txt\n", exitCode: 0 });
    // `grep pat dir/` without -r recurses instead of "Is a directory".
    expect(lines((await ran(core(), `grep -l ${N()} src/`)).output)).toEqual(["src/app.ts", "src/util.js", "src/deep/local-only.txt"]);
    expect(await ran(core(false), `grep -l ${N()} src/`)).toMatchObject({ exitCode: 2, output: expect.stringMatching(/Is a directory/) });
    // VCS names are excluded as directories only: a worktree's .git pointer file is searched.
    expect((await ran(core(), "grep -rn gitdir .")).output).toBe("worktree/.git:1:gitdir: /repos/main/.git/worktrees/feature\n");
    // find -size rounds up like GNU find; bfs alternation is leftmost-first.
    expect((await ran(core(), "find sizes -size -1k")).output).toBe("sizes/empty.txt\n");
    expect(sortedLines((await ran(core(), `find regex -regex '.*\\.\\(ts\\|tsx\\)'`)).output)).toEqual(["regex/b.ts"]);
  });

  it(`the ways to search everything that the tool descriptions name work (${kind})`, async () => {
    const noIgnore = await ran(core(), `grep -r --no-ignore-files -l ${N()} .`);
    expect(noIgnore.ran).toEqual(["bundled-ugrep"]);
    for (const f of [...tree.ignored, ...tree.expected]) expect(sortedLines(noIgnore.output)).toContain(f);
    expect(sortedLines(noIgnore.output)).not.toContain("blob.bin");
    const binary = await ran(core(), `grep -r --no-ignore-files -a -l ${N()} .`);
    expect(sortedLines(binary.output)).toContain("blob.bin");
    const system = await ran(core(), `command grep -rl ${N()} . | sort; command find . -path '*/.git/config'`);
    expect(system.ran).toEqual(["system-grep", "system-find"]);
    expect(lines(system.output)).toEqual(expect.arrayContaining(["./blob.bin", "./dist/bundle.js", "./.git/config"]));
  });

  it(`the shims setting: false runs the system tools, true (or absent) the bundled ones, per call (${kind})`, async () => {
    const t = core();
    const both = `grep -rl ${N()} . >/dev/null; find . -name '*.ts' >/dev/null`;
    expect((await ran(t, both)).ran).toEqual(["bundled-ugrep", "bundled-bfs"]);
    t.core.workspace.updateSettings({ shims: false });
    expect((await ran(t, both)).ran).toEqual(["system-grep", "system-find"]);
    expect((await ran(t, kind === "bash" ? "type -t grep" : "whence -w grep")).output).toBe(kind === "bash" ? "file\n" : "grep: command\n");
    t.core.workspace.updateSettings({ shims: true });
    expect((await ran(t, both)).ran).toEqual(["bundled-ugrep", "bundled-bfs"]);
  });

  it(`BASH-CWD cwd tracking works together with the shims (${kind})`, async () => {
    const t = core();
    const into = await ran(t, `cd src && grep -rl ${N()} .`);
    expect(into).toMatchObject({ cwdChanged: true, cwd: path.join(treeDir, "src"), ran: ["bundled-ugrep"] });
    expect(sortedLines(into.output)).toEqual(["app.ts", "deep/local-only.txt", "util.js"]);
    const next = await ran(t, `pwd; grep -rl ${N()} deep; exit 3`);
    expect(next).toMatchObject({ output: `${path.join(treeDir, "src")}\ndeep/local-only.txt\n`, exitCode: 3, cwdChanged: false, ran: ["bundled-ugrep"] });
    const out = await ran(t, `cd / && find "${treeDir}/regex" -name '*.md'`);
    expect(out).toMatchObject({ output: `${treeDir}/regex/d.md\n`, cwdReset: true, cwd: treeDir, ran: ["bundled-bfs"] });
  });

  it(`BASH-SH-5 a BASH_ENV the core was started with is read once; rc files never are (${kind})`, async () => {
    const home = process.env.HOME!;
    const count = path.join(tmp, "logs", `count-${kind}`);
    writeFileSync(path.join(home, ".zshenv"), "rcfn() { echo FROM-RC }\n");
    writeFileSync(path.join(home, ".bashrc"), "rcfn() { echo FROM-RC; }\n");
    writeFileSync(path.join(tmp, "user_env.bash"), `echo x >> '${count}'\nuserfn() { echo user-env; }\n`);
    vi.stubEnv("BASH_ENV", path.join(tmp, "user_env.bash"));
    try {
      const r = await ran(core(), `rcfn 2>/dev/null || echo no-rc; userfn 2>/dev/null || echo no-user-env; grep -rl ${N()} src/deep`);
      const bashReadsIt = kind === "bash";
      expect(lines(r.output)).toEqual(["no-rc", bashReadsIt ? "user-env" : "no-user-env", "src/deep/local-only.txt"]);
      expect(r.ran).toEqual(["bundled-ugrep"]);
      expect(bashReadsIt ? readFileSync(count, "utf8") : "").toBe(bashReadsIt ? "x\n" : "");
    } finally {
      vi.stubEnv("BASH_ENV", undefined);
      rmSync(path.join(home, ".zshenv"));
      rmSync(path.join(home, ".bashrc"));
    }
  });
});
