// The probe's process boundary with real processes: deadlines, what a stopped probe leaves to
// finish, and the lock a profile's tool takes a moment before it sets the EXIT trap that removes it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_PROBE_OUTPUT_BYTES, createProbeRunner, reapLater } from "./runProbeShell.js";
import { eventually, isAlive, makeFakeHome, readPids, type FakeHome } from "../../test/support/loginEnv.js";

const run = createProbeRunner("linux");
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
/** Short on purpose, so the tests see what happens after it; the default is LINGER_MS. */
const quick = { lingerMs: 300, termGraceMs: 2000 };

/**
 * The pyenv pattern (`pyenv rehash`): a tool that creates its lock file, and only a moment later
 * sets the EXIT trap that removes it. Here that moment lasts until the test writes `proceed`, so a
 * signal is sure to land in it. It records its pid, and `done` once it got past the window.
 */
function lockingTool(fake: FakeHome, after = "sleep 0.2"): string {
  return fake.write(
    "bin/locking-tool",
    ["#!/bin/bash", 'echo $$ >> "$HOME/pids"', ': > "$HOME/lock"', 'until [ -e "$HOME/proceed" ]; do sleep 0.02; done', `trap 'rm -f "$HOME/lock"' EXIT`, 'echo done >> "$HOME/log"', after, ""].join(
      "\n",
    ),
    true,
  );
}

describe("the probe's process boundary", () => {
  let fake: FakeHome;
  afterEach(() => fake?.cleanup());

  it("BASH-ENV-7 an attempt that times out stops its shell; what the profile started finishes or, once it lingers, is stopped with its tree", async () => {
    fake = makeFakeHome();
    const script = `sleep 30 & echo $! >> pids; echo $$ >> pids; echo partial; sleep 30`;
    const result = await run({ file: "/bin/sh", args: ["-c", script], env, cwd: fake.home, timeoutMs: 300, ...quick });
    expect(result.timedOut).toBe(true);
    expect(result.stdout.toString()).toBe("partial\n");
    const pids = readPids(fake, "pids");
    expect(pids).toHaveLength(2);
    expect(await eventually(() => pids.every((p) => !isAlive(p)))).toBe(true);
  });

  it("BASH-ENV-7 a timeout while a profile's tool holds a lock it has not yet set its EXIT trap for leaves no lock (pyenv rehash)", async () => {
    fake = makeFakeHome();
    const tool = lockingTool(fake);
    const result = await run({ file: "/bin/bash", args: ["-c", `${tool}; echo unreachable`], env: { ...env, HOME: fake.home }, cwd: fake.home, timeoutMs: 1000, ...quick });
    expect(result.timedOut).toBe(true);
    // The timeout came inside the window: the lock is there and its trap is not set.
    expect(fake.exists("lock")).toBe(true);
    expect(fake.exists("log")).toBe(false);
    fake.write("proceed", "");
    expect(await eventually(() => !fake.exists("lock"), 10_000)).toBe(true);
    expect(fake.read("log")).toBe("done\n");
    expect(result.stdout.toString()).not.toContain("unreachable");
  });

  it("BASH-ENV-7 an abort (the core shutting down) inside that window leaves no lock either, and the tool's later output does not kill it", async () => {
    fake = makeFakeHome();
    // No trap at all this time: the tool releases its lock by printing, then removing it. A pipe
    // whose reader is gone would kill it with SIGPIPE at that echo.
    const tool = fake.write("bin/printing-tool", '#!/bin/bash\n: > "$HOME/lock"\nuntil [ -e "$HOME/proceed" ]; do sleep 0.02; done\necho "rehashed $(seq 1 20000)"\nrm -f "$HOME/lock"\n', true);
    const controller = new AbortController();
    const pending = run({ file: "/bin/bash", args: ["-c", `${tool}; echo unreachable`], env: { ...env, HOME: fake.home }, cwd: fake.home, timeoutMs: 20_000, signal: controller.signal, ...quick });
    expect(await eventually(() => fake.exists("lock"))).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.aborted).toBe(true);
    fake.write("proceed", "");
    expect(await eventually(() => !fake.exists("lock"), 10_000)).toBe(true);
  });

  it("BASH-ENV-7 a tool still running when its linger ends gets SIGTERM, and its EXIT trap runs to the end before anything is killed", async () => {
    fake = makeFakeHome();
    const tool = fake.write(
      "bin/slow-trap-tool",
      '#!/bin/bash\ntrap \'echo t1 >> "$HOME/log"; sleep 0.5; rm -f "$HOME/lock"; echo t2 >> "$HOME/log"\' EXIT\n: > "$HOME/lock"\necho $$ >> "$HOME/pids"\nsleep 30\n',
      true,
    );
    const result = await run({ file: "/bin/bash", args: ["-c", `${tool}; echo unreachable`], env: { ...env, HOME: fake.home }, cwd: fake.home, timeoutMs: 500, ...quick });
    expect(result.timedOut).toBe(true);
    const [pid] = readPids(fake, "pids");
    expect(await eventually(() => !isAlive(pid!), 10_000)).toBe(true);
    expect(fake.exists("log") ? readFileSync(path.join(fake.home, "log"), "utf8") : "no trap ran").toBe("t1\nt2\n");
    expect(fake.exists("lock")).toBe(false);
  });

  it("BASH-ENV-7 a profile process that ignores SIGTERM is still killed with the tree", async () => {
    fake = makeFakeHome();
    const script = `(trap '' TERM; echo $BASHPID >> pids; while :; do sleep 1; done) & echo $$ >> pids; sleep 30`;
    const result = await run({ file: "/bin/bash", args: ["-c", script], env, cwd: fake.home, timeoutMs: 500, lingerMs: 200, termGraceMs: 300 });
    expect(result.timedOut).toBe(true);
    const pids = readPids(fake, "pids");
    expect(pids).toHaveLength(2);
    expect(await eventually(() => pids.every((p) => !isAlive(p)), 10_000)).toBe(true);
  });

  it("BASH-ENV-7 a shell that exits while its profile left a job running is not waited for; the job may finish, and is stopped once it lingers", async () => {
    fake = makeFakeHome();
    const script = `sleep 30 & echo $! >> pids; echo done`;
    const result = await run({ file: "/bin/sh", args: ["-c", script], env, cwd: fake.home, timeoutMs: 20_000, ...quick });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toBe("done\n");
    const [job] = readPids(fake, "pids");
    expect(await eventually(() => !isAlive(job!), 10_000)).toBe(true);
  });

  it("BASH-ENV-7 a finished probe with nothing left running leaves no reaper behind", async () => {
    fake = makeFakeHome();
    const result = await run({ file: "/bin/sh", args: ["-c", "echo $$ > pid; echo ok"], env, cwd: fake.home, timeoutMs: 20_000 });
    expect(result.stdout.toString()).toBe("ok\n");
    expect(reapLater(Number(fake.read("pid").trim()))).toBeUndefined();
  });

  it("BASH-ENV-7 stdin is /dev/null, so a profile that reads input goes on at once", async () => {
    const result = await run({ file: "/bin/sh", args: ["-c", 'read -r answer; echo "got:$answer:$?"'], env, cwd: undefined, timeoutMs: 20_000 });
    expect(result.timedOut).toBe(false);
    expect(result.stdout.toString()).toBe("got::1\n");
  });

  it("BASH-ENV-7 reports a shell that cannot be started", async () => {
    const result = await run({ file: "/nonexistent/zsh", args: ["-c", "true"], env, cwd: undefined, timeoutMs: 1000 });
    expect(result.spawnError).toBe("ENOENT");
    expect(result.timedOut).toBe(false);
  });

  it("BASH-ENV-7 stops a shell that prints without end", async () => {
    const result = await run({ file: "/bin/sh", args: ["-c", "exec cat /dev/zero"], env, cwd: undefined, timeoutMs: 20_000 });
    expect(result.outputOverflow).toBe(true);
    expect(result.stdout.length).toBeLessThanOrEqual(MAX_PROBE_OUTPUT_BYTES);
  });

  it("BASH-ENV-7 an abort stops the shell at once; its child is left to finish, then stopped once it lingers", async () => {
    fake = makeFakeHome();
    const controller = new AbortController();
    const pending = run({ file: "/bin/sh", args: ["-c", "echo $$ >> pids; sleep 30 & echo $! >> pids; wait"], env, cwd: fake.home, timeoutMs: 20_000, signal: controller.signal, ...quick });
    expect(await eventually(() => readPids(fake, "pids").length === 2)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.aborted).toBe(true);
    const [shell, child] = readPids(fake, "pids");
    expect(isAlive(shell!)).toBe(false);
    expect(await eventually(() => !isAlive(child!), 10_000)).toBe(true);
  });

  it("BASH-ENV-7 what a probe prints is read from a file nobody else can open: nothing is left in the temp directory", async () => {
    fake = makeFakeHome();
    const result = await run({ file: "/bin/sh", args: ["-c", "ls -l /proc/$$/fd/1"], env, cwd: fake.home, timeoutMs: 20_000 });
    expect(result.stdout.toString()).toMatch(/wave-probe-\d+-[0-9a-f]+\.out \(deleted\)\n$/);
  });
});
