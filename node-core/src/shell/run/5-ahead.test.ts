// Shells started ahead (5-ahead.ts): the next sandboxed command runs in them exactly as in a shell
// started for it, they are not used — the command starts cold — whenever its launch differs from
// the cold one beyond the allow-list, and unsandboxed commands never get one.
// Real bash, real bwrap, real processes. Inside the sandbox a shell is pid 2 of its namespace.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALLOWED_DESPITE_WARNINGS, captureLogs } from "../../../test/support/logs.js";
import { closeCores, NO_SANDBOX, testCore, type TestCore } from "../../../test/support/core.js";
import { bwrapWorks, isAlive, processesOfCore, processesWithEnv, tempDir, waitFor, waitingShellGroups } from "../../../test/support/processes.js";
import { RUNS } from "./2-session.js";
import { addLogSink } from "../../util/log.js";
import { hostPlatform } from "../../util/platform.js";
import { ShellEngine } from "../engine.js";
import { PROCESS_TOKEN, processOutputDir } from "../outputDir.js";
import { readProcEntry, RUN_MARKER_VAR } from "../processTable.js";
import { planRun } from "./3-plan.js";
import { AHEAD_MAY_DIFFER, loaderInvocation, WARM_COMMAND_MAX_BYTES, WarmShell, warmLoader, warmUnfitEnvironment } from "./5-ahead.js";
import type { RunSpec } from "./1-request.js";
import type { RunPlan } from "./3-plan.js";

// Commands here carry permission warnings only as a side effect (allow-all): their audit line is claimed.
captureLogs(ALLOWED_DESPITE_WARNINGS);

afterEach(async () => {
  await closeCores();
  vi.unstubAllEnvs();
});

interface Waiting {
  /** The loader (the shell that becomes the command's). */
  pid: number;
  pgid: number;
  /** The run marker it was started with: the one the next command carries when it is used. */
  runId: string;
}

function environOf(pid: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
    const eq = kv.indexOf("=");
    if (eq > 0) out[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return out;
}

/** The shell of `t`'s main session started ahead and waiting, once there is one. */
async function waitingShell(t: TestCore): Promise<Waiting | undefined> {
  const prefix = t.core.sessions.main.service(RUNS).markerPrefix;
  const find = (): Waiting | undefined => {
    const groups = waitingShellGroups({ markedWith: prefix });
    for (const p of processesWithEnv(RUN_MARKER_VAR, prefix, { includeWaiting: true })) {
      const pgid = readProcEntry(p.pid)?.pgid;
      if (pgid !== undefined && groups.has(pgid) && /^\S*bash -c /.test(p.command)) return { pid: p.pid, pgid, runId: environOf(p.pid)[RUN_MARKER_VAR]! };
    }
    return undefined;
  };
  return waitFor(find);
}

/** A probe of everything a command can see of its own shell: argv, environment, options. */
const PROBE = `echo "$$ $WAVE_RUN_ID"; tr '\\0' '\\n' < /proc/$$/cmdline; echo "[$-] [$0] [$#] [$BASH_EXECUTION_STRING] [$SHLVL] [$PWD] [$OLDPWD] [$(trap -p EXIT | wc -l)]"; env | grep -v -e '^_=' -e '^WAVE_RUN_ID=' -e '^WAVE_CWD_FILE=' -e '^WAVE_CORE_PID=' -e '^WAVE_WARM_SHELL=' | sort`;

describe.runIf(hostPlatform().name === "linux" && bwrapWorks())("shells started ahead", () => {
  it("the next command runs in the shell started ahead, and sees what a shell started for it sees", async () => {
    vi.stubEnv("WAVE_WARM_SHELL", "0");
    const cold = testCore();
    await cold.bash({ command: "true" });
    const expected = await cold.bash({ command: PROBE });
    expect(expected.s.sandboxed).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    // This core's own: another core on the machine (a developer's IDE, another test file) may well have one.
    expect(waitingShellGroups({ markedWith: cold.core.sessions.main.service(RUNS).markerPrefix }).size).toBe(0);
    vi.unstubAllEnvs();

    const t = testCore({ root: cold.root });
    await t.bash({ command: "true" });
    const w = (await waitingShell(t))!;
    expect(w).toBeDefined();
    const r = await t.bash({ command: PROBE });
    const [first, ...rest] = r.s.output.split("\n");
    // Its marker, and the pid a shell has in the sandbox: the command ran in the shell that waited.
    expect(first).toBe(`2 ${w.runId}`);
    const norm = (s: string) => s.replace(/^(WAVE_SHIMS_FILE|TMPDIR)=.*$/gm, "$1=…").replace(/\/tmp\/wave-core-root\/[^/\s]+/g, "<out>");
    expect(norm(rest.join("\n"))).toBe(norm(expected.s.output.split("\n").slice(1).join("\n")));
    expect(isAlive(w.pid)).toBe(false);
  });

  it("BASH-SH-5 a plain command (no cd, no shimmed tool) runs in the shell started ahead as the plain bash -c a start gives", async () => {
    // No trap, no grep: the probe's own names keep it plain.
    const plainProbe = `echo "$$ $WAVE_RUN_ID"; tr '\\0' '\\n' < /proc/$$/cmdline; echo "[$-] [$0] [$#] [$BASH_EXECUTION_STRING] [$SHLVL] [$PWD] [$OLDPWD]"; env | sort`;
    const drop = /^(_|WAVE_RUN_ID|WAVE_CORE_PID|WAVE_WARM_SHELL|TMPDIR)=/;
    const norm = (s: string) =>
      s
        .split("\n")
        .slice(1)
        .filter((l) => !drop.test(l))
        .join("\n")
        .replace(/\/tmp\/wave-core-root\/[^/\s]+/g, "<out>");
    vi.stubEnv("WAVE_WARM_SHELL", "0");
    const cold = testCore();
    await cold.bash({ command: "true" });
    const expected = await cold.bash({ command: plainProbe });
    expect(expected.s.output).not.toMatch(/^(BASH_ENV|WAVE_CWD_FILE|WAVE_SHIMS_FILE)=/m);
    vi.unstubAllEnvs();

    const t = testCore({ root: cold.root });
    await t.bash({ command: "true" });
    const w = (await waitingShell(t))!;
    const r = await t.bash({ command: plainProbe });
    expect(r.s.output.split("\n")[0]).toBe(`2 ${w.runId}`);
    expect(norm(r.s.output)).toBe(norm(expected.s.output));
    // The next command that needs the start-up file still gets it from the next shell started ahead.
    const w2 = (await waitingShell(t))!;
    const tracked = await t.bash({ command: "echo $WAVE_RUN_ID; cd /" });
    expect(tracked.s).toMatchObject({ output: `${w2.runId}\n`, cwdChanged: false, cwdReset: true });
  });

  it("keeps bash -c's own diagnostics, exit status, cwd tracking and survivors", async () => {
    const t = testCore();
    mkdirSync(path.join(t.root, "sub"));
    await t.bash({ command: "true" });
    let w = (await waitingShell(t))!;
    const syntax = await t.bash({ command: "echo $WAVE_RUN_ID\nif" });
    expect(syntax.s.output).toMatch(new RegExp(`^${w.runId.replace(/\./g, "\\.")}\\n\\S*bash: -c: line 3: syntax error: unexpected end of file\\n$`));
    expect(syntax.s.exitCode).toBe(2);

    w = (await waitingShell(t))!;
    const cd = await t.bash({ command: "echo $WAVE_RUN_ID; cd sub; exit 3" });
    expect(cd.s).toMatchObject({ output: `${w.runId}\n`, exitCode: 3, cwdChanged: true, cwd: path.join(t.root, "sub") });

    // The next one waits in the new directory.
    w = (await waitingShell(t))!;
    expect(execFileSync("readlink", [`/proc/${w.pid}/cwd`], { encoding: "utf8" }).trim()).toBe(path.join(t.root, "sub"));
    const bg = await t.bash({ command: "echo $WAVE_RUN_ID; pwd; sleep 300 & (sleep 301; echo late) &" });
    expect(bg.s.output).toBe(`${w.runId}\n${path.join(t.root, "sub")}\n`);
    // The subshell may not have started its sleep yet when the shell exits: then it is listed itself.
    const left = bg.s.survivors.map((s) => s.command);
    expect(left).toContain("sleep 300");
    expect(left.some((c) => c === "sleep 301" || c.endsWith("(sleep 301; echo late) &"))).toBe(true);
    await t.core.sessions.main.dispose();
    for (const s of bg.s.survivors) expect(await waitFor(() => !isAlive(s.pid))).toBe(true);
  });

  it("is not used when its directory or output file was replaced, for a long command, or for zsh", async () => {
    const t = testCore();
    const sub = path.join(t.root, "sub");
    mkdirSync(sub);
    await t.bash({ command: "cd sub" });

    // The directory deleted and made again: the command starts in the new one.
    let w = (await waitingShell(t))!;
    rmSync(sub, { recursive: true });
    mkdirSync(sub);
    writeFileSync(path.join(sub, "new.txt"), "");
    const moved = await t.bash({ command: "echo $WAVE_RUN_ID; ls" });
    expect(moved.s.output).not.toContain(w.runId);
    expect(moved.s.output).toMatch(/\nnew\.txt\n$/);
    expect(await waitFor(() => !isAlive(w.pid))).toBe(true);

    // Its output file replaced: not used, and nothing is written to the replacement.
    w = (await waitingShell(t))!;
    const out = execFileSync("readlink", [`/proc/${w.pid}/fd/1`], { encoding: "utf8" }).trim();
    expect(readFileSync(out, "utf8")).toBe("");
    rmSync(out);
    writeFileSync(out, "someone else's\n");
    const o = await t.bash({ command: "echo $WAVE_RUN_ID" });
    expect(o.s.output).not.toContain(w.runId);
    expect(readFileSync(out, "utf8")).toBe("someone else's\n");

    // Too long for the loader's socket: a shell of its own, and the waiting one stays for the next.
    w = (await waitingShell(t))!;
    const long = await t.bash({ command: `echo $WAVE_RUN_ID # ${"x".repeat(WARM_COMMAND_MAX_BYTES)}` });
    expect(long.s.output).not.toContain(w.runId);

    // zsh never gets one.
    vi.stubEnv("WAVE_SHELL", "/usr/bin/zsh");
    const z = testCore();
    await z.bash({ command: "true" });
    await new Promise((r) => setTimeout(r, 200));
    expect(processesWithEnv(RUN_MARKER_VAR, z.core.sessions.main.service(RUNS).markerPrefix, { includeWaiting: true })).toEqual([]);
  });

  it("goes when the session ends, when it waited too long, and when the core dies", async () => {
    const t = testCore();
    await t.bash({ command: "true" });
    const w = (await waitingShell(t))!;
    const sandbox = t.core.sessions.main.service(RUNS).ahead.waiting!.spec.sandbox!;
    const tag = t.core.sessions.main.service(RUNS).tag;
    const files = () =>
      execFileSync("ls", [processOutputDir()], { encoding: "utf8" })
        .split("\n")
        .filter((f) => f.startsWith(`run-${tag}-`));
    expect(files().length).toBe(1);
    await t.core.sessions.main.dispose();
    expect(await waitFor(() => !isAlive(w.pid))).toBe(true);
    expect(await waitFor(() => files().length === 0)).toBe(true);

    // Unused for its idle time.
    const engine = new ShellEngine();
    // A run id of this process's own: another test run on the machine may run this test too.
    const runId = `${PROCESS_TOKEN}.warm-test.1`;
    const spec = { command: "", cwd: t.root, runId, outputPath: path.join(processOutputDir(), `${runId}.log`), trackCwd: true, shimsEnabled: false, engine, sandbox };
    const idle = (await WarmShell.start(spec, 300))!;
    expect(idle.usable).toBe(true);
    expect(await waitFor(() => !idle.usable)).toBe(true);
    expect(await waitFor(() => processesWithEnv(RUN_MARKER_VAR, runId, { includeWaiting: true }).length === 0)).toBe(true);
    engine.dispose();

    // The core killed outright: the loader reads end-of-file and exits without running anything.
    const bundle = path.resolve(__dirname, "../../../dist/wave-core.js");
    const root = tempDir();
    const served = spawn(process.execPath, [bundle, "serve", "--root", root, "--sandbox", "auto", "--permission-mode", "allow-all"], { stdio: ["pipe", "pipe", "ignore"] });
    served.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2.0", hostInfo: { name: "test" } } })}\n`);
    served.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "Bash", arguments: { command: "touch ran-$WAVE_RUN_ID" } } })}\n`);
    const loaders = () => processesOfCore(served.pid, { includeWaiting: true });
    expect(await waitFor(() => loaders().some((p) => p.command.includes("__wave_warm_command")))).toBe(true);
    served.kill("SIGKILL");
    expect(await waitFor(() => loaders().length === 0)).toBe(true);
    expect(execFileSync("ls", [root], { encoding: "utf8" }).split("\n").filter(Boolean)).toHaveLength(1);
  });
});

describe.runIf(hostPlatform().name === "linux" && bwrapWorks())("shells started ahead in the sandbox", () => {
  it("a sandboxed command runs in the sandboxed shell that waited", async () => {
    const t = testCore();
    await t.bash({ command: "true" });
    const w = (await waitingShell(t))!;
    const r = await t.bash({ command: "echo $WAVE_RUN_ID $$; touch made.txt; touch /etc/wave-nope 2>&1 | grep -c 'Read-only'" });
    expect(r.s).toMatchObject({ sandboxed: true, output: `${w.runId} 2\n1\n` });
    expect(readFileSync(path.join(t.root, "made.txt"), "utf8")).toBe("");
  });

  it("commands one after another each run in the shell that waited for them (its ready message is no replaced output file)", async () => {
    const notUsed: string[] = [];
    const unsubscribe = addLogSink((r) => {
      if (r.scope === "warm" && r.message.startsWith("the shell started ahead is not used")) notUsed.push(r.message);
    });
    try {
      const t = testCore();
      await t.bash({ command: "true" });
      for (let i = 0; i < 25; i++) expect((await t.bash({ command: "true" })).s.sandboxed).toBe(true);
      expect(notUsed).toEqual([]);
    } finally {
      unsubscribe();
    }
  });

  it("a protected file replaced by rename while the shell waits stays read-only (its mount would be gone)", async () => {
    const t = testCore();
    writeFileSync(path.join(t.root, ".envrc"), "export A=1\n");
    await t.bash({ command: "true" });
    const w = (await waitingShell(t))!;
    // What an editor's atomic save does: write a new file and rename it over the old one.
    writeFileSync(path.join(t.root, ".envrc.tmp"), "export A=2\n");
    renameSync(path.join(t.root, ".envrc.tmp"), path.join(t.root, ".envrc"));
    const r = await t.bash({ command: "echo $WAVE_RUN_ID; echo 'curl x | sh' >> .envrc" });
    expect(r.s.output).not.toContain(w.runId);
    expect(r.s.output).toMatch(/Read-only file system/);
    expect(readFileSync(path.join(t.root, ".envrc"), "utf8")).toBe("export A=2\n");
  });

  it("git's config replaced by rename while the shell waits needs no new shell: all of .git stays read-only", async () => {
    const t = testCore();
    mkdirSync(path.join(t.root, ".git"));
    writeFileSync(path.join(t.root, ".git/config"), "[core]\n");
    await t.bash({ command: "true" });
    await waitingShell(t);
    writeFileSync(path.join(t.root, ".git/config.lock"), "[core]\n\tbare = false\n");
    renameSync(path.join(t.root, ".git/config.lock"), path.join(t.root, ".git/config"));
    mkdirSync(path.join(t.root, ".git/hooks"));
    const r = await t.bash({ command: "echo '[alias] x = !touch /tmp/pwned' >> .git/config; echo 'touch /tmp/pwned' > .git/hooks/pre-commit" });
    expect(r.s.output.match(/Read-only file system/g)).toHaveLength(2);
    expect(readFileSync(path.join(t.root, ".git/config"), "utf8")).toBe("[core]\n\tbare = false\n");
  });

  it("a repository made while the shell waits is protected for the next command", async () => {
    const t = testCore();
    await t.bash({ command: "true" });
    const w = (await waitingShell(t))!;
    mkdirSync(path.join(t.root, "lib/.git"), { recursive: true });
    writeFileSync(path.join(t.root, "lib/.git/config"), "[core]\n");
    const r = await t.bash({ command: "echo $WAVE_RUN_ID; echo '[core] fsmonitor = touch /tmp/pwned' >> lib/.git/config" });
    expect(r.s.output).not.toContain(w.runId);
    expect(r.s.output).toMatch(/Read-only file system/);
  });

  it("a credential store's filtered copy that changed while the shell waits is shown new to the next command", async () => {
    const home = tempDir("wave-warm-home-");
    writeFileSync(path.join(home, ".npmrc"), "registry=http://one.invalid/\n//one.invalid/:_authToken=SECRET\n");
    vi.stubEnv("HOME", home);
    const t = testCore();
    expect((await t.bash({ command: "cat ~/.npmrc" })).s.output).toBe("registry=http://one.invalid/\n");
    const w = (await waitingShell(t))!;
    writeFileSync(path.join(home, ".npmrc"), "registry=http://two.invalid/\n//two.invalid/:_authToken=SECRET\n");
    const r = await t.bash({ command: "echo $WAVE_RUN_ID; cat ~/.npmrc" });
    expect(r.s.output).not.toContain(w.runId);
    expect(r.s.output.split("\n").slice(1).join("\n")).toBe("registry=http://two.invalid/\n");
  });

  it("a unix socket allowed while the shell waits is reachable from the next command only", async () => {
    const t = testCore();
    const dir = tempDir("wave-warm-sock-");
    const sock = path.join(dir, "s.sock");
    const server = (await import("node:net")).createServer((c) => c.end("hello\n"));
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      const connect = `node -e 'require("net").connect(${JSON.stringify(sock)}).on("data",d=>process.stdout.write(d)).on("error",e=>console.log(e.code))'`;
      expect((await t.bash({ command: connect })).s.output).toBe("EPERM\n");
      const w = (await waitingShell(t))!;
      t.core.workspace.updateSettings({ sandbox: { allowUnixSockets: [sock] } });
      const r = await t.bash({ command: `echo $WAVE_RUN_ID; ${connect}` });
      expect(r.s.output).not.toContain(w.runId);
      expect(r.s.output).toMatch(/hello\n$/);
    } finally {
      server.close();
    }
  });

  it("a command asking to run outside the sandbox never gets the sandboxed shell, and the other way round", async () => {
    const t = testCore();
    await t.bash({ command: "true" });
    let w = (await waitingShell(t))!;
    const out = await t.bash({ command: "echo $WAVE_RUN_ID; touch /tmp/wave-warm-outside-$$ && echo wrote && rm /tmp/wave-warm-outside-$$", dangerouslyDisableSandbox: true });
    expect(out.s).toMatchObject({ sandboxed: false });
    expect(out.s.output).not.toContain(w.runId);
    expect(out.s.output).toContain("wrote");
    // The unsandboxed command ran cold and left the sandboxed shell waiting for the next sandboxed one.
    expect(isAlive(w.pid)).toBe(true);
    const back = await t.bash({ command: "echo $WAVE_RUN_ID; touch /tmp/wave-warm-inside 2>&1 | grep -c Read-only" });
    expect(back.s).toMatchObject({ sandboxed: true });
    expect(back.s.output).toBe(`${w.runId}\n1\n`);
    w = (await waitingShell(t))!;
    // After an unsandboxed command nothing new is started ahead: the one waiting is still the sandboxed one.
    await t.bash({ command: "true", dangerouslyDisableSandbox: true });
    await new Promise((r) => setTimeout(r, 200));
    expect([...waitingShellGroups({ markedWith: t.core.sessions.main.service(RUNS).markerPrefix })]).toEqual([w.pgid]);
  });
});

describe.runIf(hostPlatform().name === "linux" && bwrapWorks())("the allow-list: a waiting shell is used only when its launch differs from the cold one in nothing else", () => {
  it("names exactly the script, BASH_ENV and (for a plain command) the start-up file's variables", () => {
    expect(Object.keys(AHEAD_MAY_DIFFER).sort()).toEqual(["args[last]", "env.BASH_ENV", "env.WAVE_CWD_FILE", "env.WAVE_CWD_START", "env.WAVE_SHIMS_FILE"]);
  });

  /** Changes one thing of the would-be cold launch of the command a real waiting shell is given. */
  type Change = (spec: RunSpec, plan: RunPlan) => void;
  /** Both invocations of a plan (they are one object unless the run is plain). */
  const invocations = (plan: RunPlan) => new Set([plan.inv, plan.withStartupFile]);
  let n = 0;

  async function offer(t: TestCore, change: Change, opts: { plain?: boolean } = {}) {
    const runs = t.core.sessions.main.service(RUNS);
    const ahead = runs.ahead.waiting!.spec;
    const runId = `${PROCESS_TOKEN}.allow-list.${++n}`;
    const spec: RunSpec = {
      command: "",
      cwd: t.root,
      runId,
      outputPath: path.join(processOutputDir(), `${runId}.log`),
      trackCwd: true,
      shimsEnabled: true,
      engine: ahead.engine,
      sandbox: ahead.sandbox!,
    };
    const warm = (await WarmShell.start(spec))!;
    expect(warm).toBeDefined();
    const given: RunSpec = { ...spec, command: "echo $WAVE_RUN_ID", ...(opts.plain ? { plain: true } : {}) };
    const plan = await planRun(given);
    change(given, plan);
    const fields: string[][] = [];
    const unsubscribe = addLogSink((r) => {
      if (r.scope === "warm" && r.message === "the shell started ahead no longer fits" && r.fields?.runId === runId) fields.push(r.fields.fields as string[]);
    });
    try {
      const run = await warm.take(given, plan);
      if (run) {
        await run.exited;
        const output = readFileSync(run.outputPath, "utf8");
        rmSync(run.outputPath, { force: true });
        run.discardCwdFile();
        return { used: true, output, fields: fields.flat() };
      }
      expect(warm.usable).toBe(false);
      expect(await waitFor(() => processesWithEnv(RUN_MARKER_VAR, runId, { includeWaiting: true }).length === 0)).toBe(true);
      return { used: false, output: "", fields: fields.flat() };
    } finally {
      unsubscribe();
    }
  }

  it("is used when nothing but the allowed fields differ: a command with the start-up file, and a plain one", async () => {
    const t = testCore();
    await t.bash({ command: "true" });
    expect(await waitingShell(t)).toBeDefined();
    expect(await offer(t, () => {})).toMatchObject({ used: true, fields: [] });
    const plain = await offer(t, () => {}, { plain: true });
    expect(plain).toMatchObject({ used: true, fields: [] });
    expect(plain.output).toMatch(/allow-list\.\d+\n$/);
  });

  it("starts cold when anything else differs: an environment variable added, changed or removed, an allowed field with another value, the cwd, the shell, a mount, an output file", async () => {
    const t = testCore();
    mkdirSync(path.join(t.root, "sub"));
    await t.bash({ command: "true" });
    expect(await waitingShell(t)).toBeDefined();
    const bashLink = path.join(tempDir(), "bash");
    symlinkSync(execFileSync("bash", ["-c", "command -v bash"], { encoding: "utf8" }).trim(), bashLink);
    // Outside every writable place, and there (the sandbox binds existing files only): it gets a bind of its own.
    const extra = path.join(tempDir(), "extra.log");
    writeFileSync(extra, "");
    const cases: Array<[string, Change, (fields: string[]) => void]> = [
      [
        "a variable added",
        (_s, plan) => {
          for (const i of invocations(plan)) i.env.WAVE_TEST_ADDED = "1";
        },
        (f) => expect(f).toContain("env.WAVE_TEST_ADDED"),
      ],
      [
        "a variable changed",
        (_s, plan) => {
          for (const i of invocations(plan)) i.env.PATH = `${i.env.PATH}:/nonexistent`;
        },
        (f) => expect(f).toContain("env.PATH"),
      ],
      [
        "a variable removed",
        (_s, plan) => {
          for (const i of invocations(plan)) delete i.env.HOME;
        },
        (f) => expect(f).toContain("env.HOME"),
      ],
      // BASH_ENV may differ (the loader sets it back), but only to the value its script names: the script is what no longer fits.
      [
        "BASH_ENV, allowed, with another value than the loader sets",
        (_s, plan) => {
          for (const i of invocations(plan)) i.env.BASH_ENV = "/nonexistent/rc";
        },
        (f) => expect(f).toEqual(["args[last]"]),
      ],
      ["the working directory", (spec) => (spec.cwd = path.join(t.root, "sub")), (f) => expect(f).toContain("cwd")],
      [
        "the shell's path",
        (_s, plan) => {
          plan.shell = { ...plan.shell, path: bashLink };
          for (const i of invocations(plan)) i.file = bashLink;
        },
        (f) => expect(f.some((x) => /^args\[\d+\]$/.test(x))).toBe(true),
      ],
      [
        "the sandbox's mounts",
        (spec) => {
          const plan = spec.sandbox!;
          spec.sandbox = { ...plan, wrap: (cmd) => plan.wrap!({ ...cmd, runFiles: [...cmd.runFiles, extra] }) };
        },
        (f) => expect(f).toEqual(expect.arrayContaining(["args.length", "policy"])),
      ],
      ["an output file", (spec) => (spec.outputPath = extra), (f) => expect(f).toContain("outputPath")],
    ];
    for (const [what, change, check] of cases) {
      const r = await offer(t, change);
      expect({ what, used: r.used, output: r.output }).toEqual({ what, used: false, output: "" });
      check(r.fields);
    }
  });
});

describe.runIf(hostPlatform().name === "linux")("unsandboxed commands", () => {
  it("always start cold: no shell is started ahead of them, and a plain one is a bare bash -c", async () => {
    const t = testCore({ sandbox: NO_SANDBOX });
    const runs = t.core.sessions.main.service(RUNS);
    expect(runs.launchersFor(undefined).map((l) => l.kind)).toEqual(["cold"]);
    for (let i = 0; i < 3; i++) expect((await t.bash({ command: "echo $WAVE_RUN_ID" })).s.output).toBe(`${runs.markerPrefix}${i + 1}\n`);
    await new Promise((r) => setTimeout(r, 200));
    expect(runs.ahead.waiting).toBeUndefined();
    expect(waitingShellGroups({ markedWith: runs.markerPrefix }).size).toBe(0);
    expect(processesWithEnv(RUN_MARKER_VAR, runs.markerPrefix, { includeWaiting: true })).toEqual([]);
    // The plain fast path: no start-up file, the command line is the command's own.
    const plain = await t.bash({ command: "tr '\\0' ' ' < /proc/$$/cmdline; echo; echo ${BASH_ENV-none}" });
    expect(plain.s.output).toMatch(/^\S*bash -c tr .*\nnone\n$/);
  });
});

describe("the loader", () => {
  it("reads one NUL-terminated command from its descriptor and execs the shell with BASH_ENV set back, or plain", () => {
    expect(warmLoader("/usr/bin/bash", "/o/rc/bash_env.sh", 4)).toBe(
      `printf R >&4; IFS= read -r -d '' -u 4 __wave_warm_command || exit 0; exec 4<&-; ` +
        `case $__wave_warm_command in P*) unset BASH_ENV WAVE_CWD_FILE WAVE_CWD_START WAVE_SHIMS_FILE; exec '/usr/bin/bash' -c "\${__wave_warm_command#P}" ;; esac; ` +
        `BASH_ENV='/o/rc/bash_env.sh' exec '/usr/bin/bash' -c "\${__wave_warm_command#S}"`,
    );
    expect(warmLoader("/opt/it's/bash", "/o'/rc")).toContain(`BASH_ENV='/o'\\''/rc' exec '/opt/it'\\''s/bash'`);
    const inv = loaderInvocation({ file: "/usr/bin/bash", args: ["-c", "ls"], env: { PATH: "/usr/bin", BASH_ENV: "/o/rc" } })!;
    expect(inv.env).toEqual({ PATH: "/usr/bin" });
    expect(inv.args[1]).toContain("BASH_ENV='/o/rc'");
    expect(loaderInvocation({ file: "/usr/bin/zsh", args: ["-c", "ls"], env: { ZDOTDIR: "/o/rc/zsh" } })).toBeUndefined();
  });

  it("is not used where the environment changes how bash runs it", () => {
    expect(warmUnfitEnvironment({ PATH: "/usr/bin", HOME: "/root" })).toBeUndefined();
    expect(warmUnfitEnvironment({ "BASH_FUNC_read%%": "() { :; }" })).toMatch(/exports the shell function/);
    for (const name of ["SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT", "BASH_XTRACEFD", "BASH_COMPAT", "__wave_warm_command"]) {
      expect(warmUnfitEnvironment({ [name]: "x" })).toMatch(new RegExp(name));
    }
  });

  it("an environment that would trace or hijack the loader gets a shell started for each command", async () => {
    vi.stubEnv("SHELLOPTS", "xtrace");
    const t = testCore();
    await t.bash({ command: "true" });
    await new Promise((r) => setTimeout(r, 200));
    const prefix = t.core.sessions.main.service(RUNS).markerPrefix;
    expect(processesWithEnv(RUN_MARKER_VAR, prefix, { includeWaiting: true })).toEqual([]);
    const r = await t.bash({ command: "echo hi" });
    expect(r.s.output).toMatch(/^\+ echo hi\nhi\n/);
    // planRun sees the same environment the loader would get.
    const plan = await planRun({ command: "", cwd: t.root, runId: "x.1", outputPath: "/dev/null", trackCwd: false, shimsEnabled: false, engine: new ShellEngine() });
    expect(warmUnfitEnvironment(plan.inv.env)).toMatch(/SHELLOPTS/);
  });
});
