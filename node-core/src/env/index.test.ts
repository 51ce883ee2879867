// The seam every child process uses: childEnvironment() waits for the probe (bounded) and hands
// out the core's own environment, into which the probe wrote. Real shells, real process.env.
import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogs } from "../../test/support/logs.js";
import {
  childEnvironment,
  describeProbeWait,
  holdLoginEnvironmentProbe,
  loginEnvironmentStatus,
  resetLoginEnvironmentProbeForTests,
  startLoginEnvironmentProbe,
  startProbeWaitClock,
} from "./index.js";
import type { ProbeRunResult } from "./runProbeShell.js";
import { SHELL_PATHS, eventually, isAlive, makeFakeHome, readPids, secretValue, writeProfile, type FakeHome } from "../../test/support/loginEnv.js";

const HOST_PATH = "/opt/host-only/bin:/usr/bin:/bin";
const savedEnv = { ...process.env };
let fake: FakeHome | undefined;

function restoreProcessEnv(): void {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
}

/** process.env as a Dock-launched IDE would give it: no proxy, no agent, a short PATH. */
function hostProcessEnv(home: string, shell: string): void {
  for (const key of Object.keys(process.env)) {
    if (/^(HTTPS?_PROXY|ALL_PROXY|NO_PROXY|SSH_AUTH_SOCK|SSL_CERT_FILE|WAVE_LOGIN_ENV|BASH_ENV|ENV|ZDOTDIR)$/i.test(key)) delete process.env[key];
  }
  Object.assign(process.env, { HOME: home, SHELL: shell, PATH: HOST_PATH });
}

beforeEach(() => {
  resetLoginEnvironmentProbeForTests();
  // The test run turns the probe off for cores that are not about it; here it is the subject.
  delete process.env.WAVE_LOGIN_ENV;
});
afterEach(() => {
  resetLoginEnvironmentProbeForTests();
  restoreProcessEnv();
  fake?.cleanup();
  fake = undefined;
});

describe.each(["bash", "zsh"] as const)("BASH-ENV-8 every child process sees the login environment (%s)", (shell) => {
  function setUp(): { proxy: string } {
    fake = makeFakeHome();
    const proxy = `http://${secretValue("proxy")}:8080`;
    fake.write("login-bin/wave-login-tool", '#!/bin/sh\necho "tool:$HTTPS_PROXY"\n', true);
    // If anything sourced these files for a command, RC_SOURCED would be set and the marker printed.
    const sourcedMarker = ["export RC_SOURCED=yes", "echo RC-WAS-SOURCED"];
    writeProfile(fake, shell, {
      profile: [...sourcedMarker, `export HTTPS_PROXY='${proxy}'`],
      rc: [...sourcedMarker, 'export PATH="$HOME/login-bin:$PATH"'],
    });
    if (shell === "zsh") fake.write(".zlogin", sourcedMarker.join("\n") + "\n");
    hostProcessEnv(fake.home, SHELL_PATHS[shell]);
    return { proxy };
  }

  it(`BASH-ENV-8 (${shell}) a plain \`${shell} -c 'echo $PATH'\` shows the merged PATH and ran without -l and without sourcing the profile`, async () => {
    const { proxy } = setUp();
    startLoginEnvironmentProbe();
    const env = await childEnvironment();
    expect(loginEnvironmentStatus()).toMatchObject({ state: "ok", adoptedKeys: ["HTTPS_PROXY", "PATH"] });

    const merged = env.PATH!.split(":");
    expect(merged[0]).toBe(`${fake!.home}/login-bin`);
    expect(merged).toContain("/opt/host-only/bin");
    expect(new Set(merged).size).toBe(merged.length);
    expect(env.RC_SOURCED).toBeUndefined();

    // What a Bash-tool command amounts to: the shell with plain -c, the child environment.
    const command = 'printf "%s\\n" "$PATH" "${RC_SOURCED:-not-sourced}" "$HTTPS_PROXY"; wave-login-tool';
    const result = spawnSync(SHELL_PATHS[shell], ["-c", command], { env, cwd: fake!.home, encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${env.PATH}\nnot-sourced\n${proxy}\ntool:${proxy}\n`);
    expect(result.stderr).not.toContain("RC-WAS-SOURCED");
  });

  it(`BASH-ENV-8 (${shell}) children started without a shell, with or without an explicit environment, resolve tools and variables from the login shell`, async () => {
    const { proxy } = setUp();
    startLoginEnvironmentProbe();
    const env = await childEnvironment();
    // The result is in the core's own process.env, not only in the copy.
    expect(process.env.HTTPS_PROXY).toBe(proxy);
    expect(process.env.PATH).toBe(env.PATH);
    const viaSeam = spawnSync("wave-login-tool", [], { env, encoding: "utf8" });
    const inherited = spawnSync("wave-login-tool", [], { encoding: "utf8" });
    expect(viaSeam.stdout).toBe(`tool:${proxy}\n`);
    expect(inherited.stdout).toBe(`tool:${proxy}\n`);
  });
});

describe("the childEnvironment() seam", () => {
  it("BASH-ENV-8 returns a copy of process.env the caller may extend", async () => {
    const env = await childEnvironment();
    env.WAVE_TEST_ONLY_IN_COPY = "1";
    expect(process.env.WAVE_TEST_ONLY_IN_COPY).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
  });

  it("BASH-ENV-7 waits no longer than the probe's budget, then hands out the inherited environment", async () => {
    const before = { ...process.env };
    startLoginEnvironmentProbe({
      budget: { attemptTimeoutMs: 50, maxAttempts: 2, backoffMs: 10 },
      // A stuck boundary that ignores its timeout: only the seam's own bound can end the wait.
      run: () => new Promise<ProbeRunResult>(() => undefined),
    });
    const env = await childEnvironment();
    expect(loginEnvironmentStatus().state).toBe("pending");
    expect(env).toEqual(before);
  });

  it("BASH-ENV-7 a hanging profile: the first child waits for the probe to fail within its budget, then runs with the inherited environment", async () => {
    fake = makeFakeHome();
    writeProfile(fake, "bash", { rc: ['echo $$ >> "$HOME/pids"', "export HTTPS_PROXY=http://never", "sleep 6"] });
    hostProcessEnv(fake.home, "/bin/bash");
    const before = { ...process.env };
    const logs = captureLogs();
    const probe = startLoginEnvironmentProbe({ budget: { attemptTimeoutMs: 300, maxAttempts: 2, backoffMs: 20 } });
    const env = await childEnvironment();
    expect(env).toEqual(before);
    // Usually the probe has failed by now; on a loaded machine its two attempts can outlast the
    // wait's budget (the test above proves that bound), so wait for the probe itself.
    expect(await probe.start()).toMatchObject({ state: "failed", attempts: 2 });
    expect(loginEnvironmentStatus()).toMatchObject({ state: "failed", attempts: 2 });
    expect(logs.lines()).toEqual([expect.stringMatching(/^WARN env: login environment failed: timed out after 300 ms/)]);
    const pids = readPids(fake, "pids");
    expect(pids).toHaveLength(2);
    expect(await eventually(() => pids.every((p) => !isAlive(p)))).toBe(true);
  });

  it("BASH-ENV-7 a call held up by the probe is told how long, and how the probe stood; a short wait, or none, says nothing", async () => {
    const logs = captureLogs();
    let now = 0;
    let finish!: (r: ProbeRunResult) => void;
    const probe = startLoginEnvironmentProbe({
      now: () => now,
      run: () => new Promise<ProbeRunResult>((r) => (finish = r)),
      budget: { attemptTimeoutMs: 4000, maxAttempts: 1, backoffMs: 0 },
      env: { HOME: "/h", SHELL: "/bin/sh", PATH: "/usr/bin" },
    });
    await new Promise((r) => setImmediate(r));
    const clock = startProbeWaitClock()!;
    now = 900;
    expect(describeProbeWait(clock())).toBeUndefined();
    now = 2500;
    expect(clock().waitedMs).toBe(2500);
    // The wait cannot outlast the budget (4 s and 100 ms to drain), whatever the call did after.
    now = 60_000;
    expect(describeProbeWait(clock())).toBe(
      "Note: this call waited 4.1 s for the user's login shell to report its environment, and it had not finished. Commands run with the environment the core was started with, so tools the user's profile puts on PATH (nvm, pyenv, ...) may be missing; `wave-core env` shows the details.",
    );
    now = 3000;
    const later = startProbeWaitClock()!;
    now = 3200;
    finish({ stdout: Buffer.alloc(0), exitCode: 1, signal: null, timedOut: false, aborted: false, outputOverflow: false });
    await probe.start();
    now = 9000;
    expect(later().waitedMs).toBe(200);
    expect(clock().status.state).toBe("failed");
    expect(describeProbeWait(clock())).toMatch(/^Note: this call waited 3\.2 s for the user's login shell to report its environment, and it failed: the login shell never ran the probe command/);
    // Landed: nothing to wait for any more.
    expect(startProbeWaitClock()).toBeUndefined();
    expect(logs.lines()).toEqual([expect.stringMatching(/^WARN env: login environment failed: the login shell never ran the probe command/)]);
  });

  it("BASH-ENV-7 a cancelled caller stops waiting at once", async () => {
    startLoginEnvironmentProbe({ run: () => new Promise<ProbeRunResult>(() => undefined) });
    const controller = new AbortController();
    const waiting = childEnvironment({ signal: controller.signal });
    controller.abort();
    await waiting;
    expect(loginEnvironmentStatus().state).toBe("pending");
  });

  it("BASH-ENV-1 the probe starts once per process: a second start returns the same probe", () => {
    process.env.WAVE_LOGIN_ENV = "0";
    const first = startLoginEnvironmentProbe();
    expect(startLoginEnvironmentProbe()).toBe(first);
  });

  it("BASH-ENV-1 WAVE_LOGIN_ENV=0: childEnvironment() hands out the environment unchanged", async () => {
    fake = makeFakeHome();
    writeProfile(fake, "bash", { rc: ["export HTTPS_PROXY=http://from-rc", 'export PATH="$HOME/login-bin:$PATH"'] });
    hostProcessEnv(fake.home, "/bin/bash");
    process.env.WAVE_LOGIN_ENV = "0";
    const before = { ...process.env };
    startLoginEnvironmentProbe();
    expect(await childEnvironment()).toEqual(before);
    expect(loginEnvironmentStatus()).toMatchObject({ state: "failed", attempts: 0 });
  });

  it("BASH-ENV-1 when the last core lets go of a running probe, its shell is stopped", async () => {
    fake = makeFakeHome();
    writeProfile(fake, "bash", { rc: ['echo $$ >> "$HOME/pids"', "sleep 60"] });
    hostProcessEnv(fake.home, "/bin/bash");
    const probe = startLoginEnvironmentProbe();
    const releaseA = holdLoginEnvironmentProbe();
    const releaseB = holdLoginEnvironmentProbe();
    expect(await eventually(() => readPids(fake!, "pids").length === 1)).toBe(true);
    releaseA();
    releaseA();
    expect(probe.status.state).toBe("pending");
    releaseB();
    const status = await probe.start();
    expect(status).toMatchObject({ state: "failed" });
    expect(status.reason).toContain("shut down");
    expect(await eventually(() => !isAlive(readPids(fake!, "pids")[0]!))).toBe(true);
  });
});
