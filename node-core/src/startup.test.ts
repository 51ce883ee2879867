// The core's start-up hook: createCore() starts the probe without waiting for it, forwards its
// state change as `env/statusChanged`, and stops a still-running probe when the core shuts down.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCore } from "./startup.js";
import { childEnvironment, loginEnvironmentStatus, resetLoginEnvironmentProbeForTests } from "./env/index.js";
import type { EnvStatus } from "./env/status.js";
import { eventually, isAlive, makeFakeHome, readPids, writeProfile, type FakeHome } from "../test/support/loginEnv.js";

const savedEnv = { ...process.env };
let fake: FakeHome;

beforeEach(() => {
  resetLoginEnvironmentProbeForTests();
  fake = makeFakeHome();
  delete process.env.WAVE_LOGIN_ENV;
  delete process.env.GIT_SSL_CAINFO;
  Object.assign(process.env, { HOME: fake.home, SHELL: "/bin/bash", PATH: "/usr/bin:/bin" });
});
afterEach(() => {
  resetLoginEnvironmentProbeForTests();
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  fake.cleanup();
});

function statusEvents(core: ReturnType<typeof createCore>): EnvStatus[] {
  const events: EnvStatus[] = [];
  core.events.subscribe((method, params) => {
    if (method === "env/statusChanged") events.push(params as EnvStatus);
  });
  return events;
}

describe("BASH-ENV-1 the probe starts with the core and never holds it up", () => {
  it("BASH-ENV-1 createCore() returns with the probe pending while a profile hangs; the tools are listed at once", async () => {
    writeProfile(fake, "bash", { rc: ['echo $$ >> "$HOME/pids"', "sleep 60"] });
    const core = createCore({ root: fake.home });
    expect(loginEnvironmentStatus().state).toBe("pending");
    expect(core.registry.list().length).toBeGreaterThan(0);
    // The shell really is running: the core did not wait for it.
    expect(await eventually(() => readPids(fake, "pids").length === 1)).toBe(true);
    expect(loginEnvironmentStatus().state).toBe("pending");

    const events = statusEvents(core);
    await core.shutdown();
    // Shutting down stops the probe's process tree and reports the end of the probe.
    expect(await eventually(() => events.length === 1)).toBe(true);
    expect(events[0]).toMatchObject({ state: "failed", attempts: 1 });
    expect(await eventually(() => !isAlive(readPids(fake, "pids")[0]!))).toBe(true);
  });

  it("BASH-ENV-8 the state change reaches the core's events with names only, and children get the result", async () => {
    writeProfile(fake, "bash", { rc: ["export GIT_SSL_CAINFO=/certs/git-ca.pem", 'export PATH="$HOME/login-bin:$PATH"'] });
    const core = createCore({ root: fake.home });
    const events = statusEvents(core);
    const env = await childEnvironment();
    expect(await eventually(() => events.length === 1)).toBe(true);
    expect(events[0]).toMatchObject({ state: "ok", shell: "/bin/bash", attempts: 1, parseMode: "nul", adoptedKeys: ["GIT_SSL_CAINFO", "PATH"] });
    expect(JSON.stringify(events)).not.toContain("/certs/git-ca.pem");
    expect(env.GIT_SSL_CAINFO).toBe("/certs/git-ca.pem");
    await core.shutdown();
  });
});
