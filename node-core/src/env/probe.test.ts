// The probe end to end inside the core's process: real bash and zsh, a fake HOME with real rc
// files, the environment it writes into (an object standing in for process.env).
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { addLogSink, type LogRecord } from "../util/log.js";
import { captureLogs } from "../../test/support/logs.js";
import { DEFAULT_PROBE_BUDGET, LoginEnvironmentProbe, backoffBefore, probeBudgetMs, type ProbeBudget, type ProbeDependencies } from "./probe.js";
import { createProbeRunner, type ProbeRunRequest, type ProbeRunResult } from "./runProbeShell.js";
import type { ProbeFileSystem } from "./shellChoice.js";
import type { EnvStatus } from "./status.js";
import { SHELL_PATHS, eventually, isAlive, makeFakeHome, readPids, secretValue, writeProfile, type FakeHome, type TestShell } from "../../test/support/loginEnv.js";

const HOST_PATH = "/opt/host-only/bin:/usr/bin:/bin";
const SHORT: ProbeBudget = { attemptTimeoutMs: 400, maxAttempts: 2, backoffMs: 50 };

let fake: FakeHome | undefined;
let stopLogs: (() => void) | undefined;
const logs: LogRecord[] = [];
afterEach(() => {
  fake?.cleanup();
  fake = undefined;
  stopLogs?.();
  logs.length = 0;
});

// Probes that fail or degrade are what most tests here provoke: each logs its one diagnostic line
// (BASH-ENV-7; counted by the test that says so). Any other line still fails its test.
captureLogs(/^WARN env: login environment (failed|degraded): /);

function recordLogs(): void {
  stopLogs = addLogSink((r) => logs.push(r));
}

/** The core's environment as a host would start it: HOME, SHELL and a PATH of its own. */
function hostEnv(home: string, shell: TestShell, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { HOME: home, SHELL: SHELL_PATHS[shell], PATH: HOST_PATH, USER: "tester", LANG: "C.UTF-8", ...extra };
}

/** The real runner, with a short linger for what a stopped probe leaves running (LINGER_MS is 30 s). */
const lingerBriefly = (request: ProbeRunRequest) => createProbeRunner("linux")({ ...request, lingerMs: 200 });

async function probeWith(env: NodeJS.ProcessEnv, overrides: Partial<ProbeDependencies> = {}): Promise<EnvStatus> {
  const probe = new LoginEnvironmentProbe({ env, ...overrides });
  return probe.start();
}

describe.each(["bash", "zsh"] as const)("the login environment from a real %s", (shell) => {
  it(`BASH-ENV-4 (${shell}) adopts allow-listed variables and a PATH directory from the profile and rc files`, async () => {
    fake = makeFakeHome();
    const proxy = `http://${secretValue("proxy")}:3128`;
    const ca = `/certs/${secretValue("ca")}.pem`;
    const agent = `/tmp/${secretValue("agent")}.sock`;
    writeProfile(fake, shell, {
      profile: [`export SSL_CERT_FILE='${ca}'`, 'export PATH="$HOME/profile-bin:$PATH"'],
      beforeGuard: [`export HTTPS_PROXY='${proxy}'`],
      rc: [`export SSH_AUTH_SOCK='${agent}'`, 'export PATH="$HOME/login-bin:$PATH"'],
    });
    const env = hostEnv(fake.home, shell);
    const status = await probeWith(env);

    expect(status).toMatchObject({ state: "ok", shell: SHELL_PATHS[shell], attempts: 1, parseMode: "nul" });
    expect(status.adoptedKeys).toEqual(["HTTPS_PROXY", "PATH", "SSH_AUTH_SOCK", "SSL_CERT_FILE"]);
    expect(env.HTTPS_PROXY).toBe(proxy);
    expect(env.SSL_CERT_FILE).toBe(ca);
    expect(env.SSH_AUTH_SOCK).toBe(agent);
    const path = env.PATH!.split(":");
    expect(path[0]).toBe(`${fake.home}/login-bin`);
    expect(path).toContain(`${fake.home}/profile-bin`);
    expect(typeof status.durationMs).toBe("number");
  });

  it(`BASH-ENV-4 (${shell}) does not adopt variables outside the allow-list (NODE_OPTIONS, LD_PRELOAD, GIT_DIR, ...)`, async () => {
    fake = makeFakeHome();
    writeProfile(fake, shell, {
      rc: [
        "export NODE_OPTIONS='--require /tmp/evil.js'",
        "export LD_PRELOAD=/tmp/evil.so",
        "export GIT_DIR=/tmp/elsewhere/.git",
        "export DYLD_INSERT_LIBRARIES=/tmp/evil.dylib",
        "export BASH_ENV=/tmp/evil.sh",
        "export WAVE_TEST_NOT_LISTED=1",
        "export GIT_SSL_CAINFO=/certs/git.pem",
      ],
    });
    const env = hostEnv(fake.home, shell);
    const status = await probeWith(env);
    expect(status.state).toBe("ok");
    for (const key of ["NODE_OPTIONS", "LD_PRELOAD", "GIT_DIR", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "WAVE_TEST_NOT_LISTED"]) {
      expect(env[key], key).toBeUndefined();
      expect(status.adoptedKeys).not.toContain(key);
    }
    expect(env.GIT_SSL_CAINFO).toBe("/certs/git.pem");
  });

  it(`BASH-ENV-4 (${shell}) keeps keys the host set and merges PATH probe-first, de-duplicated`, async () => {
    fake = makeFakeHome();
    writeProfile(fake, shell, {
      rc: [
        "export SSH_AUTH_SOCK=/login/agent.sock",
        "export http_proxy=http://login-proxy",
        // Some profiles set PATH outright; the host's own directory then comes back only from the merge.
        'export PATH="$HOME/login-bin:/usr/bin:$HOME/login-bin:/usr/local/bin::/usr/bin:/bin"',
      ],
    });
    const env = hostEnv(fake.home, shell, { SSH_AUTH_SOCK: "/host/agent.sock", HTTP_PROXY: "http://host-proxy" });
    const status = await probeWith(env);
    expect(status.state).toBe("ok");
    expect(env.SSH_AUTH_SOCK).toBe("/host/agent.sock");
    expect(env.HTTP_PROXY).toBe("http://host-proxy");
    expect(env.http_proxy).toBeUndefined();
    expect(status.adoptedKeys).toEqual(["PATH"]);

    expect(env.PATH!.split(":")).toEqual([`${fake.home}/login-bin`, "/usr/bin", "/usr/local/bin", "/bin", "/opt/host-only/bin"]);
  });

  it(`BASH-ENV-5 (${shell}) the profile runs with the minimal environment plus the anti-noise variables`, async () => {
    fake = makeFakeHome();
    // The profile records the environment the shell process was started with (exactly what the
    // probe passed, before /etc/profile or the shell itself change anything).
    fake.write(shell === "bash" ? ".bash_profile" : ".zshenv", 'cat "/proc/$$/environ" > "$HOME/seen-by-profile"\n');
    const env = hostEnv(fake.home, shell, {
      NODE_OPTIONS: "--inspect",
      IDEA_VM_OPTIONS: "/x",
      SSH_AUTH_SOCK: "/host/agent.sock",
      LC_MESSAGES: "C",
      DISPLAY: ":1",
      DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus",
    });
    await probeWith(env);
    const seen = new Map(
      fake
        .read("seen-by-profile")
        .split("\0")
        .filter(Boolean)
        .map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)] as const),
    );
    expect(Object.fromEntries(seen)).toEqual({
      HOME: fake.home,
      PATH: HOST_PATH,
      SHELL: SHELL_PATHS[shell],
      USER: "tester",
      LANG: "C.UTF-8",
      LC_MESSAGES: "C",
      DISPLAY: ":1",
      SSH_AUTH_SOCK: "/host/agent.sock",
      DISABLE_AUTO_UPDATE: "true",
      ZSH_DISABLE_COMPFIX: "true",
      SSH_ASKPASS_REQUIRE: "never",
      DBUS_SESSION_BUS_ADDRESS: "disabled:",
    });
  });

  it(`BASH-ENV-6 (${shell}) drops PWD, OLDPWD, SHLVL, _ and the anti-noise variables, even when the rc exports them`, async () => {
    fake = makeFakeHome();
    writeProfile(fake, shell, { rc: ["cd /tmp && cd - >/dev/null", "export DISABLE_AUTO_UPDATE=false"] });
    const env: NodeJS.ProcessEnv = hostEnv(fake.home, shell);
    const before = { ...env };
    // Widen nothing: check the probe writes none of these into an environment that lacks them.
    const status = await probeWith(env);
    expect(status.state).toBe("ok");
    for (const key of ["PWD", "OLDPWD", "SHLVL", "_", "DISABLE_AUTO_UPDATE", "ZSH_DISABLE_COMPFIX", "SSH_ASKPASS_REQUIRE", "DBUS_SESSION_BUS_ADDRESS"]) {
      expect(env[key], key).toBe(before[key]);
    }
  });

  it(`BASH-ENV-2 (${shell}) keeps a value with a newline intact (NUL parsing)`, async () => {
    fake = makeFakeHome();
    writeProfile(fake, shell, { rc: ['export NO_PROXY="localhost\n.corp.example"'] });
    const env = hostEnv(fake.home, shell);
    const status = await probeWith(env);
    expect(status.parseMode).toBe("nul");
    expect(env.NO_PROXY).toBe("localhost\n.corp.example");
  });

  it(`BASH-ENV-2 (${shell}) falls back to line parsing when \`env -0\` is unavailable, flags it and drops multi-line values`, async () => {
    fake = makeFakeHome();
    // An `env` like old BSD's: no -0.
    fake.write("fakebin/env", '#!/bin/sh\nif [ "$1" = "-0" ]; then echo "env: illegal option -- 0" >&2; echo "usage: env [-iv] [name=value ...]" >&2; exit 1; fi\nexec /usr/bin/env "$@"\n', true);
    writeProfile(fake, shell, {
      rc: ['export PATH="$HOME/fakebin:$PATH"', "export HTTPS_PROXY=http://single-line", 'export NO_PROXY="localhost\n.corp.example"'],
    });
    const env = hostEnv(fake.home, shell);
    const status = await probeWith(env);
    expect(status).toMatchObject({ state: "degraded", parseMode: "lines", attempts: 1 });
    expect(status.reason).toContain("`env -0` is not available");
    expect(status.reason).toContain("NO_PROXY");
    expect(env.HTTPS_PROXY).toBe("http://single-line");
    expect(env.NO_PROXY).toBeUndefined();
    expect(env.PATH!.split(":")[0]).toBe(`${fake.home}/fakebin`);
  });

  it(`BASH-ENV-7 (${shell}) when \`env\` cannot run in the login shell, degrades to PATH only`, async () => {
    fake = makeFakeHome();
    fake.write("brokenbin/env", "#!/bin/sh\nexit 126\n", true);
    writeProfile(fake, shell, { rc: ['export PATH="$HOME/brokenbin:$PATH"', "export HTTPS_PROXY=http://not-reachable-this-way"] });
    const env = hostEnv(fake.home, shell);
    const sleeps: number[] = [];
    const status = await probeWith(env, { sleep: async (ms) => void sleeps.push(ms) });
    expect(status).toMatchObject({ state: "degraded", parseMode: "lines", attempts: 2, adoptedKeys: ["PATH"] });
    expect(status.reason).toContain("adopted PATH only");
    expect(status.reason).toContain("exit code 126");
    expect(sleeps).toEqual([DEFAULT_PROBE_BUDGET.backoffMs]);
    expect(env.PATH!.split(":")[0]).toBe(`${fake.home}/brokenbin`);
    expect(env.HTTPS_PROXY).toBeUndefined();
  });

  describe(`hostile rc files (${shell})`, () => {
    it(`BASH-ENV-2 (${shell}) a profile that prints banners, asks for input and sets noclobber still yields its environment`, async () => {
      fake = makeFakeHome();
      writeProfile(fake, shell, {
        profile: ['echo "Welcome to $(hostname)!"', 'echo "PATH=/banner/evil"', "printf 'HTTPS_PROXY=http://evil\\0'"],
        rc: [shell === "bash" ? "set -o noclobber" : "setopt noclobber", 'read -r answer; echo "you said: $answer"', 'echo "Last login: yesterday" >&2', "export HTTPS_PROXY=http://the-real-one"],
      });
      const env = hostEnv(fake.home, shell);
      const status = await probeWith(env);
      expect(status).toMatchObject({ state: "ok", parseMode: "nul" });
      expect(env.HTTPS_PROXY).toBe("http://the-real-one");
      expect(env.PATH).not.toContain("/banner/evil");
    });

    it(`BASH-ENV-7 (${shell}) a profile that execs another program fails cleanly after its retries`, async () => {
      fake = makeFakeHome();
      writeProfile(fake, shell, { rc: [`exec ${shell === "bash" ? "/bin/zsh" : "/bin/bash"} -i`] });
      const env = hostEnv(fake.home, shell);
      const before = { ...env };
      const status = await probeWith(env, { budget: { ...DEFAULT_PROBE_BUDGET, backoffMs: 20 } });
      expect(status).toMatchObject({ state: "failed", attempts: 2, adoptedKeys: [], parseMode: null });
      expect(status.reason).toContain("no start marker");
      expect(status.reason).toContain("kept the inherited environment");
      expect(env).toEqual(before);
    });

    it(`BASH-ENV-7 (${shell}) a profile that hangs: each attempt's shell is stopped, what it started is stopped once it lingers, then the probe fails`, async () => {
      fake = makeFakeHome();
      writeProfile(fake, shell, { rc: ['echo $$ >> "$HOME/pids"', 'sleep 60 & echo $! >> "$HOME/pids"', "sleep 60"] });
      const env = hostEnv(fake.home, shell);
      const before = { ...env };
      recordLogs();
      const status = await probeWith(env, { budget: SHORT, run: lingerBriefly });
      expect(status).toMatchObject({ state: "failed", attempts: 2, shell: SHELL_PATHS[shell] });
      expect(status.reason).toContain(`timed out after ${SHORT.attemptTimeoutMs} ms`);
      expect(env).toEqual(before);
      const pids = readPids(fake, "pids");
      expect(pids).toHaveLength(4);
      expect(await eventually(() => pids.every((p) => !isAlive(p)))).toBe(true);
      // One diagnostic log for the outcome (attempt details stay at debug level).
      expect(logs.filter((r) => r.scope === "env" && r.level !== "debug")).toHaveLength(1);
    });

    it(`BASH-ENV-7 (${shell}) a profile that starts a background job holding the output still yields its environment; the job is stopped once it lingers`, async () => {
      fake = makeFakeHome();
      writeProfile(fake, shell, { rc: ['sleep 60 & echo $! >> "$HOME/pids"', "export CURL_CA_BUNDLE=/certs/curl.pem"] });
      const env = hostEnv(fake.home, shell);
      const status = await probeWith(env, { budget: SHORT, run: lingerBriefly });
      expect(status).toMatchObject({ state: "ok", attempts: 1 });
      expect(env.CURL_CA_BUNDLE).toBe("/certs/curl.pem");
      const [job] = readPids(fake, "pids");
      expect(await eventually(() => !isAlive(job!))).toBe(true);
    });
  });
});

describe("BASH-ENV-7 budget, retries and backoff", () => {
  it("BASH-ENV-7 the default budget is 4 s per attempt, 2 attempts, backoff from 200 ms: at most 8.4 s in all", () => {
    expect(DEFAULT_PROBE_BUDGET).toEqual({ attemptTimeoutMs: 4000, maxAttempts: 2, backoffMs: 200 });
    expect(probeBudgetMs(DEFAULT_PROBE_BUDGET)).toBe(8400);
  });

  it("BASH-ENV-7 backoff doubles from its base before each retry", () => {
    const budget = { attemptTimeoutMs: 10, maxAttempts: 4, backoffMs: 200 };
    expect([1, 2, 3, 4].map((a) => backoffBefore(a, budget))).toEqual([0, 200, 400, 800]);
  });

  it("BASH-ENV-7 a real hanging profile: each attempt gets the timeout, retries wait with exponential backoff", async () => {
    fake = makeFakeHome();
    writeProfile(fake, "bash", { rc: ["sleep 60"] });
    const sleeps: number[] = [];
    const timeouts: number[] = [];
    const { createProbeRunner } = await import("./runProbeShell.js");
    const real = createProbeRunner("linux");
    const status = await probeWith(hostEnv(fake.home, "bash"), {
      budget: { attemptTimeoutMs: 200, maxAttempts: 3, backoffMs: 30 },
      sleep: async (ms) => {
        sleeps.push(ms);
        await delay(ms);
      },
      run: (req) => {
        timeouts.push(req.timeoutMs);
        return real(req);
      },
    });
    expect(status).toMatchObject({ state: "failed", attempts: 3 });
    expect(sleeps).toEqual([30, 60]);
    expect(timeouts).toEqual([200, 200, 200]);
  });

  it("BASH-ENV-7 a missing shell is retried, then the inherited environment is kept", async () => {
    const env: NodeJS.ProcessEnv = { HOME: "/home/u", PATH: "/usr/bin", SHELL: "/gone/zsh" };
    const nothing: ProbeFileSystem = { exists: () => false, isExecutable: () => false, isDirectory: () => false };
    const runs: ProbeRunRequest[] = [];
    const status = await probeWith(env, { fs: nothing, sleep: async () => undefined, run: async (r) => (runs.push(r), neverCalled()) });
    expect(status).toMatchObject({ state: "failed", attempts: 2, shell: null });
    expect(status.reason).toContain("no shell found");
    expect(runs).toHaveLength(0);
    expect(env).toEqual({ HOME: "/home/u", PATH: "/usr/bin", SHELL: "/gone/zsh" });
  });

  it("BASH-ENV-7 a shell that cannot start (removed between choice and spawn) is reported with its error code", async () => {
    const env: NodeJS.ProcessEnv = { HOME: "/tmp", PATH: "/usr/bin", SHELL: "/gone/zsh" };
    const claims: ProbeFileSystem = { exists: () => false, isExecutable: (f) => f === "/gone/zsh", isDirectory: () => true };
    const status = await probeWith(env, { fs: claims, sleep: async () => undefined });
    expect(status).toMatchObject({ state: "failed", attempts: 2, shell: "/gone/zsh" });
    expect(status.reason).toContain("ENOENT");
  });

  it("BASH-ENV-1 start() returns before any shell is spawned and the status is pending until the result lands", async () => {
    let spawned = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const probe = new LoginEnvironmentProbe({
      env: { HOME: "/h", SHELL: "/bin/sh", PATH: "/usr/bin" },
      run: async (req) => {
        spawned++;
        await gate;
        return recorded(req, (m) => `${m.start}\nPATH=/login\0${m.end}\n`);
      },
    });
    const settled = probe.start();
    expect(spawned).toBe(0);
    expect(probe.status.state).toBe("pending");
    expect(await eventually(() => spawned === 1)).toBe(true);
    expect(probe.status.state).toBe("pending");
    release();
    expect((await settled).state).toBe("ok");
  });
});

describe("BASH-ENV-7 waiting for the probe", () => {
  it("BASH-ENV-7 landed() gives up at the budget even when the probe itself does not finish", async () => {
    const probe = new LoginEnvironmentProbe({
      env: { HOME: "/h", SHELL: "/bin/sh", PATH: "/usr/bin" },
      budget: { attemptTimeoutMs: 30, maxAttempts: 1, backoffMs: 10 },
      // A boundary that ignores its own timeout, so only landed()'s bound can end the wait.
      run: () => new Promise<ProbeRunResult>(() => undefined),
    });
    void probe.start();
    const status = await probe.landed();
    expect(status.state).toBe("pending");
  });

  it("BASH-ENV-7 landed() returns as soon as its caller's signal aborts", async () => {
    const probe = new LoginEnvironmentProbe({
      env: { HOME: "/h", SHELL: "/bin/sh", PATH: "/usr/bin" },
      run: () => new Promise<ProbeRunResult>(() => undefined),
    });
    void probe.start();
    const controller = new AbortController();
    const waiting = probe.landed({ signal: controller.signal });
    controller.abort();
    expect((await waiting).state).toBe("pending");
  });

  it("BASH-ENV-7 landed() does not wait at all for a caller whose signal was aborted before it asked (a call cancelled early)", async () => {
    // A budget no test outlasts: waiting for it would time the test out.
    const probe = new LoginEnvironmentProbe({
      env: { HOME: "/h", SHELL: "/bin/sh", PATH: "/usr/bin" },
      run: () => new Promise<ProbeRunResult>(() => undefined),
      budget: { attemptTimeoutMs: 3_600_000, maxAttempts: 1, backoffMs: 0 },
    });
    void probe.start();
    expect((await probe.landed({ signal: AbortSignal.abort() })).state).toBe("pending");
  });

  it("BASH-ENV-7 abort() stops a running probe; the inherited environment is kept", async () => {
    fake = makeFakeHome();
    writeProfile(fake, "bash", { rc: ['echo $$ >> "$HOME/pids"', "sleep 60"] });
    const env = hostEnv(fake.home, "bash");
    const probe = new LoginEnvironmentProbe({ env });
    const settled = probe.start();
    expect(await eventually(() => readPids(fake!, "pids").length === 1)).toBe(true);
    probe.abort();
    const status = await settled;
    expect(status).toMatchObject({ state: "failed", attempts: 1 });
    expect(status.reason).toContain("shut down");
    expect(await eventually(() => !isAlive(readPids(fake!, "pids")[0]!))).toBe(true);
  });

  it("BASH-ENV-1 WAVE_LOGIN_ENV=0 turns the probe off: nothing runs, nothing is adopted, the status says why", async () => {
    const runs: ProbeRunRequest[] = [];
    for (const off of ["0", "false", "off", "NO"]) {
      const env: NodeJS.ProcessEnv = { WAVE_LOGIN_ENV: off, PATH: "/usr/bin" };
      const status = await probeWith(env, { run: async (r) => (runs.push(r), neverCalled()) });
      expect(status).toMatchObject({ state: "failed", attempts: 0, shell: null, adoptedKeys: [] });
      expect(status.reason).toContain("WAVE_LOGIN_ENV=0");
    }
    expect(runs).toHaveLength(0);
  });
});

describe("logs and status never contain values", () => {
  it("BASH-ENV-4 no log record, status or reason holds a variable's value, on success, degradation or failure", async () => {
    fake = makeFakeHome();
    const secrets = [secretValue("proxy"), secretValue("agent"), secretValue("token"), secretValue("path")];
    const [proxy, agent, token, pathDir] = secrets;
    recordLogs();
    const statuses: EnvStatus[] = [];
    for (const shell of ["bash", "zsh"] as const) {
      writeProfile(fake, shell, {
        rc: [`export HTTPS_PROXY=http://${proxy}`, `export SSH_AUTH_SOCK=/tmp/${agent}`, `export API_TOKEN=${token}`, `export PATH="/${pathDir}:$PATH"`, `echo "token is ${token}" >&2`],
      });
      statuses.push(await probeWith(hostEnv(fake.home, shell, { WAVE_LOG_LEVEL: "debug" })));
    }
    // Line mode and PATH-only and a timeout, to cover the other reasons.
    fake.write("fakebin/env", '#!/bin/sh\n[ "$1" = "-0" ] && exit 1\nexec /usr/bin/env "$@"\n', true);
    writeProfile(fake, "bash", { rc: ['export PATH="$HOME/fakebin:$PATH"', `export NO_PROXY="${token}\n${proxy}"`, `export HTTPS_PROXY=http://${proxy}`] });
    statuses.push(await probeWith(hostEnv(fake.home, "bash")));
    writeProfile(fake, "bash", { rc: [`export HTTPS_PROXY=http://${proxy}`, `echo ${token}`, "sleep 60"] });
    statuses.push(await probeWith(hostEnv(fake.home, "bash"), { budget: SHORT }));

    expect(statuses.map((s) => s.state)).toEqual(["ok", "ok", "degraded", "failed"]);
    const everything = JSON.stringify(logs) + JSON.stringify(statuses);
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});

describe("other platforms, by injection of recorded outputs", () => {
  /** A stand-in for the process boundary that answers with `output(markers)` for the markers in the request. */
  function recordedRun(output: (m: { start: string; end: string }) => string, seen: ProbeRunRequest[] = []) {
    return async (req: ProbeRunRequest) => {
      seen.push(req);
      return recorded(req, output);
    };
  }

  it("BASH-ENV-9 Windows: Git Bash `-lic 'cygpath -pw \"$PATH\"'`, PATH only, written to the existing `Path` key", async () => {
    const gitBash = "C:\\Program Files\\Git\\bin\\bash.exe";
    const fs: ProbeFileSystem = { exists: (f) => f === gitBash, isExecutable: () => false, isDirectory: () => true };
    const env: NodeJS.ProcessEnv = {
      Path: "C:\\WINDOWS\\system32;C:\\WINDOWS;C:\\Users\\me\\AppData\\Local\\JetBrains\\bin",
      USERPROFILE: "C:\\Users\\me",
      SystemRoot: "C:\\WINDOWS",
      HTTPS_PROXY: undefined,
    };
    const seen: ProbeRunRequest[] = [];
    // What Git Bash prints for this probe: /etc/profile's greeting on first start, then the
    // converted PATH (Git's own directories first, the Windows PATH it inherited after).
    const status = await probeWith(env, {
      platform: "win32",
      fs,
      run: recordedRun(
        (m) =>
          `Welcome to Git (version 2.45.1)\r\n${m.start}\n` +
          "C:\\Users\\me\\bin;C:\\Program Files\\Git\\mingw64\\bin;C:\\Program Files\\Git\\usr\\local\\bin;C:\\Program Files\\Git\\usr\\bin;" +
          "C:\\Program Files\\Git\\usr\\bin;C:\\Program Files\\Git\\mingw64\\bin;C:\\WINDOWS\\system32;c:\\windows\\;C:\\Users\\me\\.cargo\\bin\n" +
          `${m.end}\n`,
        seen,
      ),
    });
    expect(status).toMatchObject({ state: "ok", shell: gitBash, attempts: 1, parseMode: "lines", adoptedKeys: ["PATH"] });
    expect(seen[0]!.file).toBe(gitBash);
    expect(seen[0]!.args[0]).toBe("-lic");
    expect(seen[0]!.args[1]).toContain('cygpath -pw "$PATH"');
    expect(seen[0]!.cwd).toBe("C:\\Users\\me");
    expect(Object.keys(env).filter((k) => k.toUpperCase() === "PATH")).toEqual(["Path"]);
    expect(env.Path!.split(";")).toEqual([
      "C:\\Users\\me\\bin",
      "C:\\Program Files\\Git\\mingw64\\bin",
      "C:\\Program Files\\Git\\usr\\local\\bin",
      "C:\\Program Files\\Git\\usr\\bin",
      "C:\\WINDOWS\\system32",
      "c:\\windows\\",
      "C:\\Users\\me\\.cargo\\bin",
      "C:\\Users\\me\\AppData\\Local\\JetBrains\\bin",
    ]);
  });

  it("BASH-ENV-9 Windows without Git Bash: retried, then the inherited environment is kept", async () => {
    const env: NodeJS.ProcessEnv = { Path: "C:\\WINDOWS" };
    const none: ProbeFileSystem = { exists: () => false, isExecutable: () => false, isDirectory: () => false };
    const status = await probeWith(env, { platform: "win32", fs: none, sleep: async () => undefined });
    expect(status).toMatchObject({ state: "failed", attempts: 2, shell: null });
    expect(status.reason).toContain("Git Bash was not found");
    expect(env).toEqual({ Path: "C:\\WINDOWS" });
  });

  it("BASH-ENV-9 Windows: output without the markers (a profile that exits early) fails without touching Path", async () => {
    const gitBash = "C:\\Program Files\\Git\\bin\\bash.exe";
    const env: NodeJS.ProcessEnv = { Path: "C:\\WINDOWS" };
    const status = await probeWith(env, {
      platform: "win32",
      fs: { exists: (f) => f === gitBash, isExecutable: () => false, isDirectory: () => true },
      sleep: async () => undefined,
      run: recordedRun(() => "C:\\evil\r\n"),
    });
    expect(status).toMatchObject({ state: "failed", attempts: 2 });
    expect(env).toEqual({ Path: "C:\\WINDOWS" });
  });

  const macEnv = (): NodeJS.ProcessEnv => ({ HOME: "/Users/me", SHELL: "/bin/zsh", PATH: "/usr/bin:/bin:/usr/sbin:/sbin", USER: "me" });
  const macFs: ProbeFileSystem = { exists: () => true, isExecutable: (f) => f === "/bin/zsh", isDirectory: () => true };
  // A Dock-launched IDE on macOS has launchd's PATH; zsh with Homebrew and nvm in ~/.zprofile and ~/.zshrc.
  const macListing = [
    "__CFBundleIdentifier=com.jetbrains.intellij",
    "HOME=/Users/me",
    "PATH=/Users/me/.nvm/versions/node/v22.11.0/bin:/opt/homebrew/bin:/opt/homebrew/sbin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
    "SSH_AUTH_SOCK=/private/tmp/com.apple.launchd.Xy12/Listeners",
    "HOMEBREW_PREFIX=/opt/homebrew",
    "DYLD_LIBRARY_PATH=/opt/homebrew/lib",
    "NVM_DIR=/Users/me/.nvm",
    "SHLVL=1",
    "PWD=/Users/me",
    "_=/usr/bin/env",
  ];

  it("BASH-ENV-2 macOS: zsh with `env -0` → NUL parsing, Homebrew and nvm on PATH, DYLD_* refused", async () => {
    const env = macEnv();
    const seen: ProbeRunRequest[] = [];
    const status = await probeWith(env, {
      platform: "darwin",
      fs: macFs,
      run: recordedRun((m) => `Last login: Tue Dec  1 09:12:44 on ttys003\n${m.start}\n${macListing.join("\0")}\0${m.end}\n`, seen),
    });
    expect(status).toMatchObject({ state: "ok", shell: "/bin/zsh", parseMode: "nul", adoptedKeys: ["PATH", "SSH_AUTH_SOCK"] });
    expect(seen[0]!.args.slice(0, 3)).toEqual(["-l", "-i", "-c"]);
    expect(env.PATH!.split(":").slice(0, 3)).toEqual(["/Users/me/.nvm/versions/node/v22.11.0/bin", "/opt/homebrew/bin", "/opt/homebrew/sbin"]);
    expect(env.DYLD_LIBRARY_PATH).toBeUndefined();
  });

  it("BASH-ENV-2 macOS before `env -0` (BSD env): line parsing, flagged as degraded", async () => {
    const env = macEnv();
    const status = await probeWith(env, {
      platform: "darwin",
      fs: macFs,
      // `env -0` fails on stderr ("env: illegal option -- 0"), then the plain listing, no end marker.
      run: recordedRun((m) => `${m.start}\n${macListing.join("\n")}\nNO_PROXY=localhost\n.corp\n`),
    });
    expect(status).toMatchObject({ state: "degraded", parseMode: "lines", adoptedKeys: ["PATH", "SSH_AUTH_SOCK"] });
    expect(status.reason).toContain("NO_PROXY");
    expect(env.NO_PROXY).toBeUndefined();
  });
});

function neverCalled(): never {
  throw new Error("the probe ran a shell although it should not have");
}

/** Answers a probe request with output built from the request's own markers (read from its script). */
function recorded(req: ProbeRunRequest, output: (m: { start: string; end: string }) => string): ProbeRunResult {
  const script = req.args.at(-1)!;
  const start = /__WAVE_LOGIN_ENV_[0-9a-f]+_START__/.exec(script)![0];
  const markers = { start, end: start.replace(/_START__$/, "_END__") };
  return { stdout: Buffer.from(output(markers)), exitCode: 0, signal: null, timedOut: false, aborted: false, outputOverflow: false };
}
