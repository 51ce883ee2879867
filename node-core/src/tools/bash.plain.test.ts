// A command that can neither change its shell's directory nor call a shimmed tool (the permission
// check's reading of it) runs as a plain `bash -c`: no start-up file, so bash runs its last command
// in place of itself. Everything else keeps the start-up file, and with it the cwd tracking: each
// way a command can change directory is tried here, against real bash, with shells started ahead
// and without.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALLOWED_DESPITE_WARNINGS, captureLogs } from "../../test/support/logs.js";
import { closeCores, NO_SANDBOX, testCore, useShell, type TestCore } from "../../test/support/core.js";

// Commands here carry permission warnings only as a side effect (allow-all): their audit line is claimed.
captureLogs(ALLOWED_DESPITE_WARNINGS);

afterEach(async () => {
  await closeCores();
  vi.unstubAllEnvs();
});

/** The start-up file's variables in the shell's first environment. */
const STARTUP_VARIABLES = `tr '\\0' '\\n' < /proc/$$/environ | sed -n '/^BASH_ENV=/p;/^WAVE_CWD/p;/^WAVE_SHIMS/p'`;

function workspace(t: TestCore): string {
  const sub = path.join(t.root, "sub");
  mkdirSync(sub, { recursive: true });
  writeFileSync(path.join(t.root, "go-sub.sh"), "cd sub\n");
  return sub;
}

describe.each([
  ["started ahead", "1"],
  ["started for each command", "0"],
])("Bash without the start-up file (shells %s)", (_name, warm) => {
  useShell("/usr/bin/bash");

  it("BASH-SH-5 runs a command that cannot change directory or call a shim as a plain bash -c", async () => {
    vi.stubEnv("WAVE_WARM_SHELL", warm);
    const t = testCore({ sandbox: NO_SANDBOX });
    workspace(t);
    await t.bash({ command: "true" });
    // trap is a command that runs code in the shell: this probe itself keeps the start-up file.
    expect((await t.bash({ command: `${STARTUP_VARIABLES}; trap -p EXIT` })).s.output).toMatch(/^BASH_ENV=/m);
    const plain = await t.bash({ command: `${STARTUP_VARIABLES}; echo end` });
    expect(plain.s.output).toBe("end\n");
    // As with `bash -c`, the shell's only command runs in its place: $$ is ps itself.
    expect((await t.bash({ command: "ps -o comm= -p $$" })).s.output.trim()).toBe("ps");
    const failed = await t.bash({ command: "ls /nonexistent-wave-dir" });
    expect(failed.s).toMatchObject({ exitCode: 2, cwdChanged: false, cwd: t.root });
  });

  it("BASH-CWD-1 keeps it, and follows the directory, for every way a command can change it", async () => {
    vi.stubEnv("WAVE_WARM_SHELL", warm);
    const t = testCore({ sandbox: NO_SANDBOX });
    const sub = workspace(t);
    for (const command of [
      "cd sub",
      '"c"d sub',
      "\\cd sub",
      "builtin cd sub",
      "command cd sub",
      "pushd sub >/dev/null",
      "time cd sub 2>/dev/null",
      "if true; then cd sub; fi",
      "{ cd sub; }",
      "d=cd; $d sub",
      '"${CD:-cd}" sub',
      "f() { cd sub; }; f",
      'eval "cd sub"',
      ". ./go-sub.sh",
      "source ./go-sub.sh",
      "mapfile -C 'cd sub;:' -c 1 lines <<< x",
      "echo x | { read -r _; cd sub; }; shopt -s lastpipe; echo x | cd sub",
    ]) {
      const r = await t.bash({ command });
      expect(r.s, command).toMatchObject({ cwd: sub, cwdChanged: true });
      await t.bash({ command: `cd ${JSON.stringify(t.root)}` });
    }
    // Changes in a subshell or a child process stay there, with or without the file.
    for (const command of ["(cd sub)", "bash -c 'cd sub'", "cd sub &", "echo $(cd sub)"]) {
      expect((await t.bash({ command })).s, command).toMatchObject({ cwd: t.root, cwdChanged: false });
    }
  });

  it("BASH-CWD-1 keeps it where the environment could make a plain name change directory: the user's BASH_ENV, exported functions", async () => {
    vi.stubEnv("WAVE_WARM_SHELL", warm);
    const dir = testCore({ sandbox: NO_SANDBOX }).root;
    const rc = path.join(dir, "user-bash-env.sh");
    writeFileSync(rc, "lsd() { cd sub; }\n");
    vi.stubEnv("BASH_ENV", rc);
    const withRc = testCore({ sandbox: NO_SANDBOX });
    const sub = workspace(withRc);
    expect((await withRc.bash({ command: "lsd" })).s).toMatchObject({ cwd: sub, cwdChanged: true });
    vi.unstubAllEnvs();
    vi.stubEnv("WAVE_WARM_SHELL", warm);
    vi.stubEnv("BASH_FUNC_lsd%%", "() { cd sub; }");
    const withFunction = testCore({ sandbox: NO_SANDBOX });
    const sub2 = workspace(withFunction);
    expect((await withFunction.bash({ command: "lsd" })).s).toMatchObject({ cwd: sub2, cwdChanged: true });
  });

  it("BASH-CWD-1 does not read a cwd file a plain command wrote itself", async () => {
    vi.stubEnv("WAVE_WARM_SHELL", warm);
    const t = testCore({ sandbox: NO_SANDBOX });
    const sub = workspace(t);
    await t.bash({ command: "true" });
    // The run's cwd file sits beside its output file and is named after its marker.
    const r = await t.bash({ command: `out=$(readlink /proc/$$/fd/1); printf '%s\\n' ${JSON.stringify(sub)} > "\${out%/*}/$WAVE_RUN_ID.cwd"; echo wrote` });
    expect(r.s).toMatchObject({ output: "wrote\n", cwd: t.root, cwdChanged: false });
  });
});
