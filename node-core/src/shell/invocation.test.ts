import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/processes.js";
import {
  BASH_RC,
  BASH_RC_FILE,
  buildInvocation,
  commandLengthProblem,
  needsStartupFile,
  NON_INTERACTIVE_ENV,
  startsWithSleep,
  tracksCwd,
  withoutStartupFile,
  ZSH_RC,
  ZSH_RC_DIR,
} from "./invocation.js";
import { ensureSupportFile, processOutputDir } from "./outputDir.js";
import { NO_SHIMS, type ShimInjection } from "./shims/index.js";
import type { ResolvedShell, ShellKind } from "./types.js";

const SHELLS: Record<ShellKind, ResolvedShell> = {
  bash: { kind: "bash", path: "/usr/bin/bash", platform: "linux" },
  zsh: { kind: "zsh", path: "/usr/bin/zsh", platform: "linux" },
};

const rcBash = ensureSupportFile(BASH_RC_FILE, BASH_RC);
ensureSupportFile(path.join(ZSH_RC_DIR, ".zshenv"), ZSH_RC);
const rcZsh = path.join(processOutputDir(), ZSH_RC_DIR);

let n = 0;
function run(kind: ShellKind, command: string, opts: { cwd?: string; env?: NodeJS.ProcessEnv; shims?: ShimInjection; cwdFileName?: string } = {}) {
  const dir = tempDir();
  const cwdFile = path.join(dir, opts.cwdFileName ?? `t${++n}.cwd`);
  const startDir = opts.cwd ?? dir;
  const inv = buildInvocation({
    shell: SHELLS[kind],
    command,
    baseEnv: opts.env ?? process.env,
    shims: opts.shims ?? NO_SHIMS,
    runId: `test.${n}`,
    cwdFile,
    cwd: startDir,
    bashRcFile: rcBash,
    zshRcDir: rcZsh,
    corePid: process.pid,
  });
  const r = spawnSync(inv.file, inv.args, { cwd: startDir, env: inv.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  let cwd: string | undefined;
  try {
    cwd = readFileSync(cwdFile, "utf8").replace(/\n$/, "");
  } catch {
    cwd = undefined;
  }
  return { out: r.stdout, err: r.stderr, code: r.status, signal: r.signal, cwd, inv };
}

describe.each(["bash", "zsh"] as const)("%s invocation", (kind) => {
  it("BASH-CWD-1 records the directory the command ended in", () => {
    const target = tempDir("wave cwd 'quoted' ");
    const r = run(kind, `cd ${JSON.stringify(target)} && echo moved`);
    expect(r.out).toBe("moved\n");
    expect(r.cwd).toBe(target);
  });

  it("BASH-CWD-1 the cwd file's path is quoted into the trap: any characters work, nothing in it runs", () => {
    const name = `odd "q" 'q' $(touch pwned) \`touch pwned2\` ;|&*?[ \\ \n line.cwd`;
    const end = tempDir("wave-cwd-end-");
    const r = run(kind, `cd ${JSON.stringify(end)}`, { cwdFileName: name });
    expect(r.err).toBe("");
    expect(r.cwd).toBe(end);
    for (const dir of [end, path.dirname(r.inv.env.WAVE_CWD_FILE!)]) {
      expect(existsSync(path.join(dir, "pwned"))).toBe(false);
      expect(existsSync(path.join(dir, "pwned2"))).toBe(false);
    }
  });

  it("BASH-CWD-1 tracking survives a failed command, exit N and set -e", () => {
    expect(run(kind, "cd /usr; false").cwd).toBe("/usr");
    const exited = run(kind, "cd /etc; exit 7");
    expect(exited.code).toBe(7);
    expect(exited.cwd).toBe("/etc");
    const errexit = run(kind, "set -e; cd /usr/lib; false; echo not-reached");
    expect(errexit.code).toBe(1);
    expect(errexit.out).toBe("");
    expect(errexit.cwd).toBe("/usr/lib");
  });

  it("BASH-CWD-1 writes no cwd file when the command ends where it started (nothing moved, or back again)", () => {
    const start = tempDir("wave cwd start 'q' ");
    expect(run(kind, "echo stay", { cwd: start })).toMatchObject({ out: "stay\n", cwd: undefined });
    expect(run(kind, "cd /usr; cd -; exit 3", { cwd: start })).toMatchObject({ code: 3, cwd: undefined });
    expect(run(kind, "cd /usr", { cwd: start }).cwd).toBe("/usr");
  });

  it("BASH-CWD-1 the start comparison is exact: physical path, case, and no variable the command sets decides it", () => {
    const base = tempDir();
    const real = path.join(base, "real");
    mkdirSync(real);
    mkdirSync(path.join(base, "Real"));
    symlinkSync(real, path.join(base, "link"));
    // Started through a link: the shell ends in the same directory, under another name; the core
    // gets the physical one (and canonicalises its own the same way).
    expect(run(kind, "true", { cwd: path.join(base, "link") }).cwd).toBe(real);
    // Directories differing only in case are different directories, whatever the shell's matching options.
    const nocase = kind === "bash" ? "shopt -s nocasematch nocaseglob" : "setopt no_case_glob no_case_match";
    expect(run(kind, `${nocase}; cd ../Real`, { cwd: real }).cwd).toBe(path.join(base, "Real"));
    // $PWD says the start directory, the shell is elsewhere: the physical directory counts.
    expect(run(kind, `cd /usr; PWD=${JSON.stringify(real)}`, { cwd: real }).cwd).toBe("/usr");
    if (kind === "bash") expect(run(kind, `cd /usr; PWD=${JSON.stringify(real)}; readonly PWD`, { cwd: real }).cwd).toBe("/usr");
    // A start directory whose name is a pattern matches only itself.
    const star = path.join(base, "*");
    mkdirSync(star);
    expect(run(kind, "cd ../real", { cwd: star }).cwd).toBe(real);
  });

  it("BASH-CWD-1 the trap leaves the exit status alone, and bash's is silent under xtrace", () => {
    const start = tempDir();
    for (const command of ["set -x; cd /usr; exit 4", "set -x; true; exit 4"]) {
      const r = run(kind, command, { cwd: start });
      expect(r.code, command).toBe(4);
      // zsh traces to a copy of stderr that no redirection inside the trap reaches: its commands show.
      if (kind === "bash") expect(r.err, command).toBe(`+ ${command.slice("set -x; ".length).replace("; ", "\n+ ")}\n`);
    }
  });

  it("BASH-CWD-3 a directory deleted while the command ran leaves no usable cwd, and the exit status is the command's", () => {
    const dir = tempDir();
    const gone = path.join(dir, "gone");
    mkdirSync(gone);
    const r = run(kind, `cd ${JSON.stringify(gone)} && rmdir ${JSON.stringify(gone)} && exit 0`);
    expect(r.code).toBe(0);
    // bash leaves the file empty, zsh prints the stale path: the caller checks that it exists.
    expect(["", gone]).toContain(r.cwd);
  });

  it("adds no lines: $LINENO and syntax-error line numbers are the user's own", () => {
    const r = run(kind, "true\necho line=$LINENO\nfor x in; do\n  :\ndone )");
    expect(r.err).toMatch(/line 5|:5:/);
    const ok = run(kind, "true\necho line=$LINENO");
    expect(ok.out).toBe("line=2\n");
  });

  it("keeps the user's exit status and a clean $? at the start", () => {
    expect(run(kind, "echo $?").out).toBe("0\n");
    expect(run(kind, "exit 42").code).toBe(42);
  });

  it("nested shells do not inherit the tracking, and the user's BASH_ENV/ZDOTDIR come back", () => {
    const userRc = path.join(tempDir(), "user_bash_env.sh");
    writeFileSync(userRc, "USER_BASH_ENV_RAN=yes\n");
    const r = run(kind, `cd /usr; bash -c 'cd /; echo "nested:\${BASH_ENV-unset}:\${WAVE_CWD_FILE-none}"'; zsh -c 'echo "z:\${ZDOTDIR-unset}"'`, {
      env: { ...process.env, BASH_ENV: userRc, ZDOTDIR: "/my/zdotdir" },
    });
    expect(r.cwd).toBe("/usr");
    expect(r.out).toContain(`nested:${userRc}:none`);
    expect(r.out).toContain("z:/my/zdotdir");
  });

  it("sets the non-interactive environment and the run markers", () => {
    const r = run(kind, 'echo "$PAGER|$GIT_PAGER|$GIT_TERMINAL_PROMPT|$GIT_EDITOR|$WAVE_RUN_ID|$WAVE_CORE_PID"');
    expect(r.out.trim()).toBe(`cat|cat|0|true|test.${n}|${process.pid}`);
    expect(r.inv.env).toMatchObject(NON_INTERACTIVE_ENV);
  });

  it("keeps inherited run markers after its own (a wave core inside a command)", () => {
    const r = run(kind, "echo $WAVE_RUN_ID", { env: { ...process.env, WAVE_RUN_ID: "outer.1.1" } });
    expect(r.out.trim()).toBe(`test.${n}:outer.1.1`);
  });

  it("sources the shim prelude from the same start-up file: no line shift, tracking kept, nothing inherited", () => {
    const prelude = path.join(tempDir(), `prelude.${kind}`);
    writeFileSync(prelude, "shim_fn() { echo from-shim; }\n");
    const r = run(kind, `cd /usr; shim_fn; echo line=$LINENO; echo "var=\${WAVE_SHIMS_FILE-unset}"; ${kind} -c 'shim_fn' 2>/dev/null || echo nested-without`, {
      shims: { prelude },
    });
    expect(r.out).toBe("from-shim\nline=1\nvar=unset\nnested-without\n");
    expect(r.cwd).toBe("/usr");
    // A prelude that vanished (a tmp cleaner) means no shims, silently.
    const gone = run(kind, "shim_fn 2>/dev/null || echo no-shim; echo $?", { shims: { prelude: path.join(tempDir(), "gone") } });
    expect(gone).toMatchObject({ out: "no-shim\n0\n", err: "" });
  });
});

describe("invocation shape", () => {
  it("BASH-SH-5 runs with plain -c: no -l, no -i, no profile", () => {
    const inv = run("bash", "echo $-; shopt -q login_shell && echo login || echo not-login").inv;
    expect(inv.args[0]).toBe("-c");
    expect(inv.args).toHaveLength(2);
    const r = run("bash", "echo $-; shopt -q login_shell && echo login || echo not-login");
    expect(r.out).not.toMatch(/^.*i.*\n/);
    expect(r.out).toContain("not-login");
    const z = run("zsh", "[[ -o login ]] && echo login || echo not-login; [[ -o interactive ]] && echo interactive || echo batch");
    expect(z.out).toBe("not-login\nbatch\n");
  });

  it("BASH-WIN-4 gives Git Bash the cwd file and rc file with forward slashes", () => {
    const inv = buildInvocation({
      shell: { kind: "bash", path: "C:\\Program Files\\Git\\bin\\bash.exe", platform: "win32" },
      command: "pwd -P >| x",
      baseEnv: { Path: "C:\\Windows", TEMP: "C:\\Users\\me\\AppData\\Local\\Temp" },
      shims: NO_SHIMS,
      runId: "w.1.1",
      cwdFile: "C:\\Users\\me\\AppData\\Local\\Temp\\wave-core-me\\1-abcd\\w.1.1.cwd",
      cwd: "C:\\Users\\me\\project",
      bashRcFile: "C:\\Users\\me\\AppData\\Local\\Temp\\wave-core-me\\1-abcd\\rc\\bash_env.sh",
      zshRcDir: "unused",
      corePid: 1,
    });
    expect(inv.file).toBe("C:\\Program Files\\Git\\bin\\bash.exe");
    expect(inv.args).toEqual(["-c", "pwd -P >| x"]);
    expect(inv.env.WAVE_CWD_FILE).toBe("C:/Users/me/AppData/Local/Temp/wave-core-me/1-abcd/w.1.1.cwd");
    // Git Bash would compare /c/Users/me/project with it: no start directory, the file is always written.
    expect(inv.env.WAVE_CWD_START).toBeUndefined();
    expect(inv.env.BASH_ENV).toBe("C:/Users/me/AppData/Local/Temp/wave-core-me/1-abcd/rc/bash_env.sh");
    expect(inv.env.Path).toBe("C:\\Windows");
  });

  it("BASH-TO-5 only commands whose first word is sleep are killed at the timeout", () => {
    expect(startsWithSleep("sleep 10")).toBe(true);
    expect(startsWithSleep("  sleep 5 && echo done")).toBe(true);
    expect(startsWithSleep("sleep")).toBe(true);
    expect(startsWithSleep("sleepy 1")).toBe(false);
    expect(startsWithSleep("echo x; sleep 10")).toBe(false);
    expect(startsWithSleep("npm test")).toBe(false);
  });
});

// Keep the temp dirs of this file from piling up.
process.on("exit", () => rmSync(path.join(processOutputDir(), "rc"), { recursive: true, force: true }));

describe("commandLengthProblem", () => {
  it("counts bytes on Linux (one argument), characters on Windows (the command line), and leaves macOS to the spawn", () => {
    expect(commandLengthProblem("x".repeat(131_071), "linux")).toBeUndefined();
    expect(commandLengthProblem("x".repeat(131_072), "linux")).toMatch(/^is 131,072 bytes long; Linux passes at most 131,071 bytes/);
    // 65,536 two-byte characters are 131,072 bytes.
    expect(commandLengthProblem("é".repeat(65_536), "linux")).toMatch(/^is 131,072 bytes long/);
    expect(commandLengthProblem("x".repeat(32_000), "win32")).toBeUndefined();
    expect(commandLengthProblem("é".repeat(32_001), "win32")).toMatch(/^is 32,001 characters long; Windows passes at most 32,000 characters/);
    expect(commandLengthProblem("x".repeat(500_000), "darwin")).toBeUndefined();
  });
});

describe("the start-up file, only where a command needs it", () => {
  it("is needed to follow a cd, for code run in the shell, for a shim, and when the names are not known", () => {
    expect(needsStartupFile(["echo"])).toBe(false);
    expect(needsStartupFile(["git", "npm", "/usr/bin/grep", "./cd", "sed", "xargs"])).toBe(false);
    expect(needsStartupFile([])).toBe(false);
    for (const name of ["cd", "pushd", "popd", ".", "source", "eval", "exec", "builtin", "command", "trap", "enable", "alias", "mapfile", "readarray", "grep", "find", "rg"]) {
      expect(needsStartupFile(["echo", name]), name).toBe(true);
    }
    expect(needsStartupFile(undefined)).toBe(true);
  });

  it("a plain invocation is bash -c in the same environment minus what only the start-up file reads", () => {
    const full = run("bash", "true").inv;
    expect(full.env.BASH_ENV).toBeDefined();
    expect(tracksCwd(full.env)).toBe(true);
    const plain = withoutStartupFile(full, SHELLS.bash)!;
    expect(plain.file).toBe(full.file);
    expect(plain.args).toEqual(full.args);
    const { BASH_ENV: _b, WAVE_CWD_FILE: _c, WAVE_CWD_START: _s, ...rest } = full.env;
    expect(plain.env).toEqual(rest);
    expect(tracksCwd(plain.env)).toBe(false);
    // What runs sees an environment without them, and no trap: bash as a raw spawn starts it.
    const r = spawnSync(plain.file, ["-c", "tr '\\0' '\\n' < /proc/$$/environ | sed -n '/^BASH_ENV=/p;/^WAVE_CWD/p;/^WAVE_SHIMS/p'; trap -p EXIT; echo end"], { env: plain.env, encoding: "utf8" });
    expect(r.stdout).toBe("end\n");
  });

  it("is kept where leaving it out would change what runs: zsh, the user's BASH_ENV, exported functions", () => {
    expect(withoutStartupFile(run("zsh", "true").inv, SHELLS.zsh)).toBeUndefined();
    const userRc = path.join(tempDir(), "user_bash_env.sh");
    writeFileSync(userRc, "ls() { cd /; }\n");
    expect(withoutStartupFile(run("bash", "true", { env: { ...process.env, BASH_ENV: userRc } }).inv, SHELLS.bash)).toBeUndefined();
    expect(withoutStartupFile(run("bash", "true", { env: { ...process.env, "BASH_FUNC_ls%%": "() { cd /; }" } }).inv, SHELLS.bash)).toBeUndefined();
  });
});
