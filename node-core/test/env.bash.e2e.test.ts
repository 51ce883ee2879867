// BASH-ENV test (d) through the Bash tool itself: the core probes a fake HOME's login shell, and a
// Bash-tool `echo $PATH` shows the merged PATH while the command ran with plain `-c`, without the
// profile.
import { afterEach, describe, expect, it } from "vitest";
import { makeFakeHome, secretValue, SHELL_PATHS, writeProfile, type FakeHome } from "./support/loginEnv.js";
import { CoreProcess } from "./support/coreProcess.js";
import { scratchDir } from "./support/scratch.js";

let fake: FakeHome | undefined;
let core: CoreProcess | undefined;
afterEach(() => {
  core?.kill();
  fake?.cleanup();
  core = undefined;
  fake = undefined;
});

describe.each(["bash", "zsh"] as const)("BASH-ENV-8 BASH-SH-5 through the Bash tool (%s)", (shell) => {
  it(`BASH-ENV-4 BASH-ENV-8 (${shell}) a Bash-tool \`echo $PATH\` shows the merged PATH, adopted variables, and no sign of the profile`, async () => {
    fake = makeFakeHome();
    const proxy = secretValue("proxy");
    const sourced = ["export RC_SOURCED=yes", "echo RC-WAS-SOURCED"];
    writeProfile(fake, shell, {
      profile: [...sourced, `export HTTPS_PROXY='${proxy}'`, "export NODE_OPTIONS=--max-old-space-size=1"],
      rc: [...sourced, 'export PATH="$HOME/login-bin:/usr/bin:$PATH"', "alias ls='echo ALIASED'"],
    });
    if (shell === "zsh") fake.write(".zlogin", sourced.join("\n") + "\n");
    fake.write("login-bin/wave-login-tool", "#!/bin/sh\necho tool-ran\n", true);
    const root = scratchDir("wave-env-bash-");
    const inherited = "/usr/local/bin:/usr/bin:/bin";
    core = new CoreProcess(["serve", "--root", root, "--permission-mode", "allow-all"], {
      env: { HOME: fake.home, SHELL: SHELL_PATHS[shell], PATH: inherited, LANG: "C.UTF-8", WAVE_LOGIN_ENV: "", NODE_OPTIONS: "" },
    });
    const r = await core.request("tools/call", {
      name: "Bash",
      arguments: { command: 'printf "%s\\n" "$PATH" "${RC_SOURCED:-not-sourced}" "$HTTPS_PROXY" "${NODE_OPTIONS:-no-node-options}" "$0"; wave-login-tool; type ls' },
    });
    expect(r.error).toBeUndefined();
    const lines = (r.result.structuredContent.output as string).split("\n");
    // Probe entries first (the profile's own directory leads; /etc/profile may add system ones),
    // then the inherited ones, each directory once.
    const entries = lines[0]!.split(":");
    expect(entries[0]).toBe(`${fake.home}/login-bin`);
    expect(entries[1]).toBe("/usr/bin");
    expect(new Set(entries).size).toBe(entries.length);
    for (const dir of inherited.split(":")) expect(entries).toContain(dir);
    expect(lines[1]).toBe("not-sourced");
    expect(lines[2]).toBe(proxy);
    expect(lines[3]).toBe("no-node-options");
    expect(lines[4]).toMatch(new RegExp(`${shell}$`));
    expect(lines[5]).toBe("tool-ran");
    expect(lines.slice(6).join("\n")).not.toMatch(/ALIASED|alias/);
    expect(r.result.structuredContent.output).not.toMatch(/RC-WAS-SOURCED/);
    const status = await core.request("env/status", {});
    expect(status.result).toMatchObject({ state: "ok", shell: SHELL_PATHS[shell], adoptedKeys: expect.arrayContaining(["PATH", "HTTPS_PROXY"]) });
    expect(status.result.adoptedKeys).not.toContain("NODE_OPTIONS");
  });
});
