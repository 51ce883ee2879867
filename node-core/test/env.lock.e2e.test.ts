// The login-environment probe never leaves a profile tool's lock behind, however the core ends.
// pyenv's `rehash` (run by `eval "$(pyenv init -)"` in ~/.bashrc) creates its lock about a
// millisecond before it sets the EXIT trap that removes it; a signal in that moment left the lock,
// and every later login shell of the user waited 60 s for it. Here the moment lasts until the test
// lets it end, and each way a core ends (stdin closed, SIGTERM, the host's shutdown, MCP's end of
// input, a one-shot `call`, the probe's own timeout) comes inside it. Real bundle, real bash.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { CoreProcess } from "./support/coreProcess.js";
import { BUNDLE } from "./support/coreProcess.js";
import { eventually, isAlive, makeFakeHome, readPids, writeProfile, type FakeHome } from "./support/loginEnv.js";

let fake: FakeHome | undefined;
const cores: CoreProcess[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.kill();
  // Lets a tool that still waits go on, so nothing of the test outlives it.
  fake?.write("proceed", "");
  fake?.cleanup();
  fake = undefined;
});

/**
 * A fake HOME whose ~/.bashrc runs a tool in the pyenv pattern: it takes `~/lock`, waits for
 * `~/proceed` (the window), then sets the trap that removes the lock and finishes. `~/log` says
 * it got past the window; `~/pids` holds its pid.
 */
function homeWithLockingProfile(): FakeHome {
  const home = makeFakeHome();
  const tool = home.write(
    "bin/rehash",
    [
      "#!/bin/bash",
      'echo $$ >> "$HOME/pids"',
      'set -o noclobber; : > "$HOME/lock"; set +o noclobber',
      'until [ -e "$HOME/proceed" ]; do sleep 0.02; done',
      `trap 'rm -f "$HOME/lock"' EXIT`,
      'echo rehashed >> "$HOME/log"',
      "",
    ].join("\n"),
    true,
  );
  writeProfile(home, "bash", { rc: [`${tool} 2>/dev/null`, "export HTTPS_PROXY=http://proxy.example:3128"] });
  return home;
}

function coreEnv(home: string): NodeJS.ProcessEnv {
  return { HOME: home, SHELL: "/bin/bash", PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" };
}

function start(args: string[]): CoreProcess {
  const core = new CoreProcess([...args, "--root", fake!.home], { env: coreEnv(fake!.home), inheritEnv: false });
  cores.push(core);
  return core;
}

/** Once the core has exited with the tool inside its window: the lock must go when the window ends. */
async function expectLockReleased(): Promise<void> {
  const f = fake!;
  // Still inside the window (the stop came while the lock had no trap yet).
  expect(f.exists("lock")).toBe(true);
  expect(f.exists("log")).toBe(false);
  const [tool] = readPids(f, "pids");
  expect(isAlive(tool!)).toBe(true);
  f.write("proceed", "");
  expect(await eventually(() => !f.exists("lock"), 10_000)).toBe(true);
  expect(f.read("log")).toBe("rehashed\n");
  expect(await eventually(() => !isAlive(tool!), 10_000)).toBe(true);
}

function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

const lockTaken = () => eventually(() => fake!.exists("lock"), 15_000);

describe("BASH-ENV-1 a core that ends while its probe runs the profile leaves no lock of the profile's tools behind", () => {
  it("BASH-ENV-1 serve: stdin closed", async () => {
    fake = homeWithLockingProfile();
    const core = start(["serve"]);
    expect(await lockTaken()).toBe(true);
    expect((await core.close()).code).toBe(0);
    await expectLockReleased();
  });

  it("BASH-ENV-1 serve: SIGTERM", async () => {
    fake = homeWithLockingProfile();
    const core = start(["serve"]);
    expect(await lockTaken()).toBe(true);
    core.child.kill("SIGTERM");
    expect((await core.exited).code).toBe(143);
    await expectLockReleased();
  });

  it("BASH-ENV-1 serve: the host's shutdown, then exit", async () => {
    fake = homeWithLockingProfile();
    const core = start(["serve"]);
    await core.request("initialize", {});
    expect(await lockTaken()).toBe(true);
    expect((await core.request("shutdown")).result).toBeNull();
    // Before its answer the host heard what to leave running: the probe's group (the tool's) and its reaper.
    const left = core.received.find((m) => m.method === "processes/leftRunning");
    const [tool] = readPids(fake, "pids");
    expect(left?.params.pids).toContain(processGroupOf(tool!));
    expect(left?.params.pids).toHaveLength(2);
    expect(core.received.indexOf(left!)).toBeLessThan(core.received.findIndex((m) => m.result === null));
    core.notify("exit");
    expect((await core.exited).code).toBe(0);
    await expectLockReleased();
  });

  it("BASH-ENV-1 mcp: the client closes the connection", async () => {
    fake = homeWithLockingProfile();
    const core = start(["mcp"]);
    expect((await core.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } })).result).toBeDefined();
    expect(await lockTaken()).toBe(true);
    expect((await core.close()).code).toBe(0);
    await expectLockReleased();
  });

  it("BASH-ENV-1 call: a one-shot call interrupted (Ctrl+C) while it waits for the login shell", async () => {
    fake = homeWithLockingProfile();
    const child = spawn(process.execPath, [BUNDLE, "call", "Bash", '{"command":"echo never"}', "--root", fake.home], { env: coreEnv(fake.home), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    expect(await lockTaken()).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(1);
    expect(stdout).toMatch(/aborted before it finished \(interrupted\)/);
    await expectLockReleased();
  });

  it("BASH-ENV-7 the probe's own timeout: the first Bash call says it waited for a login shell that did not finish, and the lock still goes", async () => {
    fake = homeWithLockingProfile();
    const core = start(["serve", "--permission-mode", "allow-all"]);
    await core.request("initialize", {});
    const call = await core.request("tools/call", { name: "Bash", arguments: { command: "echo ran; echo ${HTTPS_PROXY:-no-proxy}" } });
    const text = (call.result.content as Array<{ text: string }>).map((c) => c.text);
    expect(text[0]).toBe("ran\nno-proxy");
    expect(text[1]).toMatch(
      /^Note: this call waited \d+\.\d s for the user's login shell to report its environment, and it failed: timed out after 4000 ms .*Commands run with the environment the core was started with, so tools the user's profile puts on PATH \(nvm, pyenv, \.\.\.\) may be missing; `wave-core env` shows the details\.$/,
    );
    expect(call.result.structuredContent.loginEnvironment).toMatchObject({ state: "failed" });
    // A later call does not wait and says nothing of it.
    const second = await core.request("tools/call", { name: "Bash", arguments: { command: "echo again" } });
    expect(second.result.content).toHaveLength(1);
    // Both attempts' tools are still inside their window; the core ends too.
    expect(readPids(fake, "pids")).toHaveLength(2);
    expect((await core.close()).code).toBe(0);
    expect(fake.exists("lock")).toBe(true);
    fake.write("proceed", "");
    const f = fake;
    expect(await eventually(() => f.exists("log") && f.read("log") === "rehashed\nrehashed\n", 10_000)).toBe(true);
    expect(await eventually(() => !f.exists("lock"), 10_000)).toBe(true);
    expect(await eventually(() => readPids(f, "pids").every((p) => !isAlive(p)), 10_000)).toBe(true);
  }, 40_000);

  it("BASH-ENV-7 a slow profile that does finish: the first call says it waited, and got the profile's environment", async () => {
    fake = makeFakeHome();
    writeProfile(fake, "bash", { rc: ["sleep 1.5", "export HTTPS_PROXY=http://proxy.example:3128"] });
    const core = start(["serve", "--permission-mode", "allow-all"]);
    await core.request("initialize", {});
    const call = await core.request("tools/call", { name: "Bash", arguments: { command: "echo $HTTPS_PROXY" } });
    const text = (call.result.content as Array<{ text: string }>).map((c) => c.text);
    expect(text[0]).toBe("http://proxy.example:3128");
    expect(text[1]).toMatch(
      /^Note: this call waited \d+\.\d s for the user's login shell to report its environment \(PATH, proxies\); their shell profile is slow\. Later calls do not wait for it\.$/,
    );
    expect(call.result.structuredContent.loginEnvironment).toMatchObject({ state: "ok" });
    expect((await core.close()).code).toBe(0);
  }, 30_000);
});
