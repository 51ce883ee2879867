// The probe's process boundary with real processes: deadlines, whole-tree kills, stragglers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_PROBE_OUTPUT_BYTES, createProbeRunner } from "./runProbeShell.js";
import { eventually, isAlive, makeFakeHome, readPids, type FakeHome } from "../../test/support/loginEnv.js";

const run = createProbeRunner("linux");
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

describe("the probe's process boundary", () => {
  let fake: FakeHome;
  afterEach(() => fake?.cleanup());

  it("BASH-ENV-7 kills the whole process tree when an attempt times out", async () => {
    fake = makeFakeHome();
    const script = `sleep 30 & echo $! >> pids; echo $$ >> pids; echo partial; sleep 30`;
    const result = await run({ file: "/bin/sh", args: ["-c", script], env, cwd: fake.home, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.stdout.toString()).toBe("partial\n");
    const pids = readPids(fake, "pids");
    expect(pids).toHaveLength(2);
    expect(await eventually(() => pids.every((p) => !isAlive(p)))).toBe(true);
  });

  it("BASH-ENV-7 a timed-out profile's tools run their EXIT traps first: a lock they took is released (pyenv rehash)", async () => {
    fake = makeFakeHome();
    // Like `pyenv rehash`: a child script takes a lock file and removes it in its EXIT trap.
    const tool = fake.write("bin/locking-tool", '#!/bin/bash\ntrap \'rm -f "$HOME/lock"\' EXIT\n: > "$HOME/lock"\necho $$ >> "$HOME/pids"\nsleep 30\n', true);
    const script = `${tool}; echo unreachable`;
    const result = await run({ file: "/bin/bash", args: ["-c", script], env: { ...env, HOME: fake.home }, cwd: fake.home, timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(readPids(fake, "pids")).toHaveLength(1);
    expect(fake.exists("lock")).toBe(false);
  });

  it("BASH-ENV-7 a tool whose EXIT trap takes a while (a loaded machine) still releases its lock before anything is killed", async () => {
    fake = makeFakeHome();
    const tool = fake.write(
      "bin/slow-trap-tool",
      '#!/bin/bash\ntrap \'echo t1 >> "$HOME/log"; sleep 0.5; rm -f "$HOME/lock"; echo t2 >> "$HOME/log"\' EXIT\n: > "$HOME/lock"\necho $$ >> "$HOME/pids"\nsleep 30\n',
      true,
    );
    const result = await run({ file: "/bin/bash", args: ["-c", `${tool}; echo unreachable`], env: { ...env, HOME: fake.home }, cwd: fake.home, timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    const [pid] = readPids(fake, "pids");
    expect(await eventually(() => !isAlive(pid!))).toBe(true);
    // The trap ran to its end (t2) before anything was killed.
    expect(fake.exists("log") ? readFileSync(path.join(fake.home, "log"), "utf8") : "no trap ran").toBe("t1\nt2\n");
    expect(fake.exists("lock")).toBe(false);
  });

  it("BASH-ENV-7 a profile process that ignores SIGTERM is still killed with the tree", async () => {
    fake = makeFakeHome();
    const script = `(trap '' TERM; echo $BASHPID >> pids; while :; do sleep 1; done) & echo $$ >> pids; sleep 30`;
    const result = await run({ file: "/bin/bash", args: ["-c", script], env, cwd: fake.home, timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    const pids = readPids(fake, "pids");
    expect(pids).toHaveLength(2);
    expect(await eventually(() => pids.every((p) => !isAlive(p)))).toBe(true);
  });

  it("BASH-ENV-7 a shell that exits while its profile left a job holding stdout is not waited for; the job is stopped", async () => {
    fake = makeFakeHome();
    const script = `sleep 30 & echo $! >> pids; echo done`;
    const result = await run({ file: "/bin/sh", args: ["-c", script], env, cwd: fake.home, timeoutMs: 20_000 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toBe("done\n");
    const [job] = readPids(fake, "pids");
    expect(await eventually(() => !isAlive(job!))).toBe(true);
  });

  it("BASH-ENV-7 stdin is /dev/null, so a profile that reads input goes on at once", async () => {
    const result = await run({ file: "/bin/sh", args: ["-c", "read -r answer; echo \"got:$answer:$?\""], env, cwd: undefined, timeoutMs: 20_000 });
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

  it("BASH-ENV-7 an abort stops the shell and its children", async () => {
    fake = makeFakeHome();
    const controller = new AbortController();
    const pending = run({ file: "/bin/sh", args: ["-c", "echo $$ >> pids; sleep 30"], env, cwd: fake.home, timeoutMs: 20_000, signal: controller.signal });
    expect(await eventually(() => readPids(fake, "pids").length === 1)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.aborted).toBe(true);
    expect(await eventually(() => !isAlive(readPids(fake, "pids")[0]!))).toBe(true);
  });
});
