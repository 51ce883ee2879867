// The login-environment probe through the bundled core: the host protocol (`env/status`,
// `env/statusChanged`, start-up never delayed) and `wave-core env`. Real shells, fake HOME.
import { spawnSync } from "node:child_process";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE as bundle, bundleExists, CoreProcess } from "./support/coreProcess.js";
import { SHELL_PATHS, eventually, isAlive, makeFakeHome, readPids, secretValue, writeProfile, type FakeHome, type TestShell } from "./support/loginEnv.js";

beforeAll(() => {
  if (!bundleExists()) throw new Error(`Build the core first (npm run build): ${bundle} is missing.`);
});

let fake: FakeHome | undefined;
const cores: CoreProcess[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.kill();
  fake?.cleanup();
  fake = undefined;
});

function coreEnv(home: string, shell: TestShell, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { HOME: home, SHELL: SHELL_PATHS[shell], PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", ...extra };
}

/** `wave-core serve` in exactly the given environment (the host's, as a Dock-launched IDE has it). */
function serve(env: NodeJS.ProcessEnv, root: string): CoreProcess {
  const core = new CoreProcess(["serve", "--root", root], { env, inheritEnv: false });
  cores.push(core);
  return core;
}

const closeCode = async (core: CoreProcess) => (await core.close()).code;
const notification = (core: CoreProcess, method: string, timeoutMs: number) => core.waitFor((m) => m.method === method && m.id === undefined, timeoutMs);

describe("the login-environment probe in `wave-core serve`", () => {
  it("BASH-ENV-1 initialize and tools/list are answered at once while a hanging profile is probed; BASH-ENV-7 it then fails after its full budget, and what the profile started ends", async () => {
    fake = makeFakeHome();
    // Hangs past each 4 s attempt; what it started ends by itself soon after (LINGER_MS is longer).
    writeProfile(fake, "bash", { rc: ['echo $$ >> "$HOME/pids"', 'sleep 6 & echo $! >> "$HOME/pids"', "sleep 6"] });
    const core = serve(coreEnv(fake.home, "bash"), fake.home);
    const init = core.request("initialize", { hostInfo: { name: "e2e" } });
    const list = core.request("tools/list");
    const initResponse = await init;
    const listResponse = await list;
    const status = await core.request("env/status");
    expect((initResponse.result as { capabilities: { methods: string[] } }).capabilities.methods).toContain("env/status");
    expect((listResponse.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    // Both were answered while the probe was still running.
    expect(status.result).toMatchObject({ state: "pending", attempts: 0, adoptedKeys: [] });

    const changed = await notification(core, "env/statusChanged", 20_000);
    expect(changed.params).toMatchObject({ state: "failed", shell: "/bin/bash", attempts: 2, parseMode: null, adoptedKeys: [] });
    expect(changed.params!.reason).toContain("timed out after 4000 ms");
    // Two full attempts and a backoff cannot take less than 8.2 s.
    expect(changed.params!.durationMs as number).toBeGreaterThanOrEqual(8200);
    const pids = readPids(fake, "pids");
    expect(pids).toHaveLength(4);
    expect(await eventually(() => pids.every((p) => !isAlive(p)), 15_000)).toBe(true);
    // The core keeps serving; env/status is the notification's status plus the search helpers.
    const { searchHelpers, ...probed } = (await core.request("env/status")).result;
    expect(probed).toEqual(changed.params);
    expect(searchHelpers.tools.map((t: { tool: string }) => t.tool)).toEqual(["ugrep", "bfs", "rg"]);
    expect(await closeCode(core)).toBe(0);
  }, 40_000);

  it("BASH-ENV-4 env/status and env/statusChanged name the adopted keys and no value reaches stdout or stderr", async () => {
    fake = makeFakeHome();
    const secrets = [secretValue("proxy"), secretValue("agent"), secretValue("token")];
    writeProfile(fake, "zsh", {
      profile: [`export HTTPS_PROXY=http://${secrets[0]}`],
      rc: [`export SSH_AUTH_SOCK=/tmp/${secrets[1]}`, `export API_TOKEN=${secrets[2]}`, 'export PATH="$HOME/bin:$PATH"', `echo "hello ${secrets[2]}"`],
    });
    const core = serve(coreEnv(fake.home, "zsh", { WAVE_LOG_LEVEL: "debug" }), fake.home);
    await core.request("initialize");
    const changed = await notification(core, "env/statusChanged", 15_000);
    expect(changed.params).toMatchObject({ state: "ok", shell: "/bin/zsh", attempts: 1, parseMode: "nul", adoptedKeys: ["HTTPS_PROXY", "PATH", "SSH_AUTH_SOCK"] });
    expect(typeof changed.params!.durationMs).toBe("number");
    const { searchHelpers: _helpers, ...probed } = (await core.request("env/status")).result;
    expect(probed).toEqual(changed.params);
    expect(await closeCode(core)).toBe(0);
    const everything = core.stdout + core.stderr;
    expect(everything).toContain("login environment adopted");
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it("BASH-ENV-1 closing the core while the probe runs stops the login shell at once; what the profile had started runs to its end", async () => {
    fake = makeFakeHome();
    writeProfile(fake, "zsh", { rc: ['echo $$ >> "$HOME/pids"', '( sleep 1; echo finished >> "$HOME/log" ) & echo $! >> "$HOME/pids"', "sleep 1.5", 'echo unreachable >> "$HOME/log"'] });
    const core = serve(coreEnv(fake.home, "zsh"), fake.home);
    expect(await eventually(() => readPids(fake!, "pids").length === 2, 10_000)).toBe(true);
    expect(await closeCode(core)).toBe(0);
    const [shell, job] = readPids(fake, "pids");
    expect(await eventually(() => !isAlive(shell!))).toBe(true);
    expect(await eventually(() => !isAlive(job!), 10_000)).toBe(true);
    // The job finished its work; the shell ran no more of the profile.
    expect(fake.read("log")).toBe("finished\n");
  });

  it("BASH-ENV-1 WAVE_LOGIN_ENV=0: env/status says the probe is off and no shell runs", async () => {
    fake = makeFakeHome();
    writeProfile(fake, "bash", { rc: ['echo $$ >> "$HOME/pids"'] });
    const core = serve(coreEnv(fake.home, "bash", { WAVE_LOGIN_ENV: "0" }), fake.home);
    await core.request("initialize");
    const status = await core.request("env/status");
    expect(status.result).toMatchObject({ state: "failed", attempts: 0, shell: null, adoptedKeys: [] });
    expect((status.result as { reason: string }).reason).toContain("WAVE_LOGIN_ENV=0");
    expect(await closeCode(core)).toBe(0);
    expect(fake.exists("pids")).toBe(false);
  });
});

describe("`wave-core env`", () => {
  function runEnv(args: string[], env: NodeJS.ProcessEnv) {
    return spawnSync(process.execPath, [bundle, "env", ...args], { env, encoding: "utf8", timeout: 20_000 });
  }

  it.each(["bash", "zsh"] as const)("BASH-ENV-4 `wave-core env --json` prints the status of a real %s probe, names only", (shell) => {
    fake = makeFakeHome();
    const proxy = secretValue("proxy");
    writeProfile(fake, shell, { rc: [`export ALL_PROXY=socks5://${proxy}`, "export NODE_OPTIONS=--inspect", 'export PATH="$HOME/bin:$PATH"'] });
    const result = runEnv(["--json"], coreEnv(fake.home, shell, { WAVE_LOG_LEVEL: "debug" }));
    expect(result.status).toBe(0);
    const status = JSON.parse(result.stdout);
    expect(Object.keys(status)).toEqual(["state", "shell", "durationMs", "attempts", "parseMode", "adoptedKeys", "searchHelpers", "sandbox"]);
    expect(status.sandbox).toEqual({ active: true, kind: "bubblewrap", network: "allow" });
    expect(status).toMatchObject({ state: "ok", shell: SHELL_PATHS[shell], attempts: 1, parseMode: "nul", adoptedKeys: ["ALL_PROXY", "PATH"] });
    expect(result.stdout + result.stderr).not.toContain(proxy);
  });

  it("BASH-ENV-2 `wave-core env` prints a readable summary, including a degraded line-mode parse and its reason", () => {
    fake = makeFakeHome();
    fake.write("fakebin/env", '#!/bin/sh\n[ "$1" = "-0" ] && { echo "env: illegal option -- 0" >&2; exit 1; }\nexec /usr/bin/env "$@"\n', true);
    writeProfile(fake, "bash", { rc: ['export PATH="$HOME/fakebin:$PATH"', "export SSL_CERT_DIR=/certs"] });
    const result = runEnv([], coreEnv(fake.home, "bash"));
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Login-shell environment: degraded\n/);
    expect(result.stdout).toMatch(/ shell +\/bin\/bash\n/);
    expect(result.stdout).toMatch(/ duration +\d+ ms, 1 attempt\n/);
    expect(result.stdout).toMatch(/ parsing +line by line\n/);
    expect(result.stdout).toMatch(/ adopted +PATH, SSL_CERT_DIR\n/);
    expect(result.stdout).toContain("`env -0` is not available");
    expect(result.stdout).not.toContain("/certs");
  });

  it("`wave-core env` says which sandbox commands run in (with the defaults), or why none and what to install", () => {
    fake = makeFakeHome();
    const active = runEnv([], coreEnv(fake.home, "bash", { WAVE_LOGIN_ENV: "0" }));
    expect(active.stdout).toContain("\nSandbox: active (bubblewrap), network allow\n");
    const json = runEnv(["--json"], coreEnv(fake.home, "bash", { WAVE_LOGIN_ENV: "0" }));
    expect(JSON.parse(json.stdout).sandbox).toEqual({ active: true, kind: "bubblewrap", network: "allow" });
    const missing = runEnv([], coreEnv(fake.home, "bash", { WAVE_LOGIN_ENV: "0", PATH: "/nonexistent" }));
    expect(missing.stdout).toContain(
      "\nSandbox: none (bubblewrap not usable)\n  reason  bubblewrap (bwrap) is not installed (not found on PATH). Commands run unsandboxed.\n  remedy  Install bubblewrap: sudo apt-get install bubblewrap",
    );
    const bad = runEnv(["--sandbox", "off"], coreEnv(fake.home, "bash", { WAVE_LOGIN_ENV: "0" }));
    expect(bad.status).toBe(2);
  });

  it("BASH-ENV-1 `wave-core env` with WAVE_LOGIN_ENV=0 says the probe is off and exits 1; bad options exit 2", () => {
    fake = makeFakeHome();
    const off = runEnv(["--json"], coreEnv(fake.home, "bash", { WAVE_LOGIN_ENV: "0" }));
    expect(off.status).toBe(1);
    expect(JSON.parse(off.stdout)).toMatchObject({ state: "failed", attempts: 0 });
    const bad = runEnv(["--jsno"], coreEnv(fake.home, "bash"));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("wave-core env --help");
    const help = runEnv(["--help"], coreEnv(fake.home, "bash"));
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: wave-core env [--json]");
  });
});
