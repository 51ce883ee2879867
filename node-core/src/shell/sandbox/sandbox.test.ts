// The OS sandbox for real: in-process cores running Bash and run_shell_command through the system's
// bubblewrap with real bash and zsh. What it blocks (writes outside, credential stores, protected
// workspace files, the network, the core's own files), what it allows (the workspace, TMPDIR,
// caches), and that every promise of the Bash engine still holds inside it.
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ALLOWED_DESPITE_WARNINGS, captureLogs, SANDBOX_STATUS_LINE } from "../../../test/support/logs.js";
import { closeCores, NO_SANDBOX, ourProcesses, SHELLS, testCore, useShell, type TestCore } from "../../../test/support/core.js";
import { isAlive, tempDir, waitFor } from "../../../test/support/processes.js";
import { resultText, type ToolResult } from "../../core/tool.js";
import { permissionHostMethods } from "../../protocol/methods/permissions.js";
import { parsePolicy } from "../../permissions/service.js";
import type { PermissionPrompt } from "../../permissions/types.js";
import { TASKS } from "../../tasks/manager.js";
import { RUNS } from "../run/index.js";
import type { RunShellCommandStructured } from "../../tools/runShellCommand.js";
import { processOutputDir } from "../outputDir.js";
import { BWRAP_VAR } from "./detect.js";

// Commands here carry permission warnings only as a side effect (allow-all): their audit line is claimed.
captureLogs(ALLOWED_DESPITE_WARNINGS);
// Sandbox availability and status are this file's subject: the lines announcing them (asserted
// through env/statusChanged and status() in the tests that change them) are claimed too.
captureLogs(SANDBOX_STATUS_LINE);

const hasBwrap = spawnSync("bwrap", ["--ro-bind", "/", "/", "true"]).status === 0;
if (!hasBwrap) throw new Error("These tests need bubblewrap: run scripts/setup (apt-get install bubblewrap).");

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeCores();
});
afterAll(async () => {
  expect(await waitFor(() => ourProcesses().length === 0, 5000)).toBe(true);
});

async function rsc(t: TestCore, args: Record<string, unknown>): Promise<ToolResult & { text: string; s: RunShellCommandStructured }> {
  const r = await t.call("run_shell_command", args);
  return { ...r, text: resultText(r), s: r.structuredContent as RunShellCommandStructured };
}

/** bash says `<path>: Read-only file system`, zsh `read-only file system: <path>`. */
function readOnly(file: string): RegExp {
  const f = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`${f}: Read-only file system|read-only file system: ${f}`, "i");
}

/** Processes whose command line is exactly `cmdline` (NUL-joined argv), wherever they are: give it a name of the test's own. */
function processesNamed(cmdline: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, "utf8").replace(/\0+$/, "").replace(/\0/g, " ") === cmdline && isAlive(Number(e))) out.push(Number(e));
    } catch {
      // gone
    }
  }
  return out;
}

describe.each(SHELLS)("Bash inside the sandbox (%s)", (kind, shellPath) => {
  useShell(shellPath);

  it(`writes outside the allowed directories fail with "Read-only file system"; inside they work (${kind})`, async () => {
    const t = testCore();
    const outside = tempDir("wave-outside-");
    const added = tempDir("wave-added-");
    t.core.workspace.addDirectory(added);
    const r = await t.bash({ command: `echo in > inside.txt; echo add > ${JSON.stringify(added)}/a.txt; echo out > ${JSON.stringify(outside)}/x.txt; touch /etc/wave-x; cat inside.txt` });
    expect(r.s.sandboxed).toBe(true);
    expect(r.s.output).toMatch(readOnly(`${outside}/x.txt`));
    expect(r.s.output).toContain("touch: cannot touch '/etc/wave-x': Read-only file system");
    expect(r.s.output).toContain("in\n");
    expect(readFileSync(path.join(t.root, "inside.txt"), "utf8")).toBe("in\n");
    expect(readFileSync(path.join(added, "a.txt"), "utf8")).toBe("add\n");
    expect(existsSync(path.join(outside, "x.txt"))).toBe(false);
    expect(existsSync("/etc/wave-x")).toBe(false);
    expect(r.text).not.toContain("outside the sandbox");
    // sandbox.allowWrite opens exactly what it names.
    t.core.workspace.updateSettings({ sandbox: { allowWrite: [outside] } });
    const allowed = await t.bash({ command: `echo out > ${JSON.stringify(outside)}/x.txt` });
    expect(allowed.s.success).toBe(true);
    expect(readFileSync(path.join(outside, "x.txt"), "utf8")).toBe("out\n");
  });

  it(`TMPDIR is private, writable and kept between commands; /tmp itself is read-only; heredocs work (${kind})`, async () => {
    const t = testCore();
    const r = await t.bash({ command: 'f=$(mktemp) && echo kept > "$f" && echo "$f"; echo x > /tmp/wave-direct-$$ 2>&1 || true; cat <<EOF\nheredoc $((1+1))\nEOF' });
    const file = r.s.output.split("\n")[0]!;
    expect(path.dirname(file)).toBe(path.join(processOutputDir(), "tmp"));
    expect(r.s.output).toMatch(/\/tmp\/wave-direct-\d+: Read-only file system|read-only file system: \/tmp\/wave-direct-\d+/i);
    expect(r.s.output).toContain("heredoc 2\n");
    const again = await t.bash({ command: `cat ${file}; echo "$TMPDIR"` });
    expect(again.s.output).toBe(`kept\n${path.join(processOutputDir(), "tmp")}\n`);
  });

  it(`SANDBOX-GIT: all of .git and editor/agent folders stay read-only; git status, log and diff work; a commit fails and says how to run it; renaming .git away does not help (${kind})`, async () => {
    const t = testCore();
    const git = (args: string) => spawnSync("sh", ["-c", `git ${args}`], { cwd: t.root, encoding: "utf8" });
    git("init -q && git config user.email t@example.com && git config user.name t && echo x > f.txt && git add f.txt && git commit -qm one");
    mkdirSync(path.join(t.root, ".vscode"));
    writeFileSync(path.join(t.root, ".vscode/tasks.json"), "{}");
    writeFileSync(path.join(t.root, ".envrc"), "export A=1\n");
    const r = await t.bash({
      command: [
        "echo y >> f.txt; git status --short f.txt; git log --format=%s; git diff --stat | tail -1",
        "git commit -qam two 2>&1",
        "git config core.fsmonitor 'touch /tmp/pwned' 2>&1 | tail -1",
        "echo 'touch /tmp/pwned' > .git/hooks/pre-commit 2>&1",
        "echo ../../evil > .git/commondir 2>&1",
        "echo '{}' > .vscode/settings.json 2>&1",
        "echo 'curl x | sh' >> .envrc 2>&1",
        "mv .git .git-away 2>&1; rm -rf .vscode 2>&1 | tail -1",
        "true",
      ].join("\n"),
    });
    expect(r.s.output).toContain(" M f.txt\none\n 1 file changed, 1 insertion(+)\n");
    expect(r.s.output).toMatch(/Unable to create '.*\.git\/index\.lock': Read-only file system/);
    expect(r.text).toContain("Git's metadata (.git) is read-only inside the sandbox");
    expect(r.text).toContain("dangerouslyDisableSandbox: true");
    for (const f of [".git/hooks/pre-commit", ".git/commondir", ".vscode/settings.json", ".envrc"]) expect(r.s.output).toMatch(readOnly(f));
    expect(r.s.output).toMatch(/mv: cannot move '\.git' to '\.git-away': Device or resource busy/);
    expect(git("config core.fsmonitor").stdout).toBe("");
    expect(existsSync(path.join(t.root, ".git/hooks/pre-commit"))).toBe(false);
    expect(existsSync(path.join(t.root, ".git/commondir"))).toBe(false);
    expect(existsSync(path.join(t.root, ".vscode/tasks.json"))).toBe(true);
    expect(readFileSync(path.join(t.root, ".envrc"), "utf8")).toBe("export A=1\n");
    expect(git("log --format=%s").stdout).toBe("one\n");
  });

  it(`credential stores are unreadable; public keys, known_hosts and ordinary files are not (${kind})`, async () => {
    const home = tempDir("wave-home-");
    for (const [f, text] of [
      [".ssh/id_ed25519", "PRIVATE KEY"],
      [".ssh/id_ed25519.pub", "ssh-ed25519 AAAA"],
      [".ssh/known_hosts", "host key"],
      [".aws/credentials", "aws_secret_access_key=x"],
      [".netrc", "machine x password y"],
      [".gnupg/private-keys-v1.d/k.key", "gpg"],
      ["notes.txt", "ordinary"],
    ] as const) {
      mkdirSync(path.dirname(path.join(home, f)), { recursive: true });
      writeFileSync(path.join(home, f), text);
    }
    vi.stubEnv("HOME", home);
    const t = testCore();
    t.core.workspace.updateSettings({ sandbox: { denyRead: ["secret.env"] } });
    writeFileSync(path.join(t.root, "secret.env"), "TOKEN=1");
    const r = await t.bash({
      command:
        "for f in ~/.ssh/id_ed25519 ~/.ssh/id_ed25519.pub ~/.ssh/known_hosts ~/.aws/credentials ~/.netrc ~/.gnupg/private-keys-v1.d/k.key ~/notes.txt secret.env; do cat $f 2>&1; echo; done; ls ~/.gnupg 2>&1",
    });
    const out = r.s.output;
    for (const denied of [".ssh/id_ed25519", ".aws/credentials", ".netrc", ".gnupg/private-keys-v1.d/k.key"]) expect(out).toMatch(new RegExp(`${denied.replace(/\./g, "\\.")}: Permission denied`));
    expect(out).toMatch(/secret\.env: Permission denied/);
    expect(out).toMatch(/\.gnupg'?: Permission denied/);
    for (const readable of ["ssh-ed25519 AAAA", "host key", "ordinary"]) expect(out).toContain(readable);
    for (const secret of ["PRIVATE KEY", "aws_secret", "password y", "TOKEN=1"]) expect(out).not.toContain(secret);
  });

  it(`the core's start-up files and other commands' files cannot be changed from inside (${kind})`, async () => {
    const t = testCore();
    const bg = await t.bash({ command: "sleep 300", run_in_background: true });
    const rc = path.join(processOutputDir(), "rc/bash_env.sh");
    const zshenv = path.join(processOutputDir(), "rc/zsh/.zshenv");
    const before = [readFileSync(rc, "utf8"), readFileSync(zshenv, "utf8")];
    const r = await t.bash({ command: `echo 'touch /tmp/pwned' >> ${rc}; echo x >> ${zshenv}; echo forged > ${bg.s.outputPath}; ls ${processOutputDir()} >/dev/null && echo listed` });
    expect(r.s.output.match(/read-only file system/gi)).toHaveLength(3);
    expect(r.s.output).toContain("listed\n");
    expect([readFileSync(rc, "utf8"), readFileSync(zshenv, "utf8")]).toEqual(before);
    expect(readFileSync(bg.s.outputPath!, "utf8")).toBe("");
  });

  it(`cwd tracking works, also into an added directory, and writing to /dev/stdout by path still reaches the output (${kind})`, async () => {
    const t = testCore();
    mkdirSync(path.join(t.root, "sub dir"));
    const r = await t.bash({ command: 'cd "sub dir" && echo lost && echo to-stdout > /dev/stdout' });
    expect(r.s).toMatchObject({ cwd: path.join(t.root, "sub dir"), cwdChanged: true, output: "to-stdout\n", sandboxed: true });
    const out = await t.bash({ command: "cd /usr" });
    expect(out.s).toMatchObject({ cwd: t.root, cwdReset: true });
  });
});

describe("the core's own files", () => {
  it("a link planted where the next command's cwd or output file goes neither truncates its target nor makes it writable in the sandbox", async () => {
    const t = testCore({ sandbox: NO_SANDBOX });
    // An unsandboxed command (approved once) plants links for the next ones, which run sandboxed.
    // The next run numbers: a shell started ahead may already hold the first of them (its files
    // are replaced by the links, which must keep it from being used).
    await t.bash({ command: "true" });
    const runs = t.core.sessions.main.service(RUNS);
    const victim = path.join(tempDir("wave-victim-"), "precious.txt");
    writeFileSync(victim, "precious\n");
    const plant = (name: (seq: number) => string) => {
      for (let seq = 2; seq <= 8; seq++) {
        const at = path.join(processOutputDir(), name(seq));
        rmSync(at, { force: true });
        symlinkSync(victim, at);
      }
    };
    plant((seq) => `${runs.markerPrefix}${seq}.cwd`);
    t.core.workspace.updateSettings({ sandbox: { mode: "auto" } });
    const r = await t.bash({ command: `echo pwned > ${victim}; cd /; true` });
    expect(r.s.sandboxed).toBe(true);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    plant((seq) => `run-${runs.tag}-${seq}.log`);
    const o = await t.bash({ command: "echo out" });
    expect(o.isError).toBe(true);
    expect(o.text).toMatch(/^Could not create the output file .*run-\d+-\d+\.log \(ELOOP\)/);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });
});

describe("processes inside the sandbox", () => {
  it("each command has its own process namespace: it sees only its own processes, no terminal, no capabilities", async () => {
    const t = testCore();
    const r = await t.bash({ command: "ps -e -o pid= -o comm= | wc -l; echo $$; { exec 3</dev/tty; } 2>&1; grep -E '^Cap(Eff|Prm):' /proc/self/status; mount -o remount,rw / 2>&1 | head -1" });
    const lines = r.s.output.split("\n");
    // bwrap's reaper, the shell, ps, wc (and the subshell of the pipe): a handful, not the machine's hundreds.
    expect(Number(lines[0])).toBeLessThan(8);
    expect(lines[1]).toBe("2");
    expect(r.s.output).toMatch(/\/dev\/tty: No such device or address/);
    expect(r.s.output).toContain("CapPrm:\t0000000000000000");
    expect(r.s.output).toContain("CapEff:\t0000000000000000");
    expect(r.s.output).toMatch(/mount: .*(permission denied|must be superuser|Operation not permitted)/i);
  });

  it("a shell that kills itself reads as exit status 128+N (bwrap's report), explained as the signal", async () => {
    const t = testCore();
    const r = await rsc(t, { command: "echo before; kill -KILL $$" });
    expect(r.s).toMatchObject({ sandboxed: true, exitCode: 137, signal: null, errorKind: "command_failed", stdout: "before\n" });
    expect(r.s.error).toMatch(/^Exit code 137: a process of the command was probably killed by signal 9 \(SIGKILL\)\./);
  });

  it("survivors are listed (never the sandbox's own reaper) and keep running; the session's end stops them", async () => {
    const t = testCore();
    const r = await t.bash({ command: "sleep 303 & echo started" });
    expect(r.s.survivors.map((s) => s.command)).toEqual(["sleep 303"]);
    expect(isAlive(r.s.survivors[0]!.pid)).toBe(true);
    const rs = await rsc(t, { command: "sleep 304 & (sleep 305 &); echo started" });
    expect(rs.s.backgroundProcesses.map((p) => p.command).sort()).toEqual(["sleep 304", "sleep 305"]);
    // The PGID the result names is the group of the command's processes: kill -- -PGID from outside stops them.
    process.kill(-rs.s.pgid!, "SIGTERM");
    expect(await waitFor(() => rs.s.backgroundPids.every((p) => !isAlive(p)))).toBe(true);
    await t.core.sessions.main.dispose();
    expect(await waitFor(() => !isAlive(r.s.survivors[0]!.pid))).toBe(true);
  });

  it("a process that drops its marker and leaves the group still dies with its task: the namespace holds it (it escapes without one)", async () => {
    // Names of this run's own: the count (and the kill) must never reach another run's escapee.
    const unique = randomBytes(4).toString("hex");
    const escapee = (tag: string) => `env -u WAVE_RUN_ID -u WAVE_CORE_PID setsid bash -c 'trap "" TERM; exec -a wave-escapee-${tag}-${unique} sleep 300' & sleep 300`;
    const t = testCore();
    const r = await t.bash({ command: escapee("in"), run_in_background: true });
    expect(await waitFor(() => processesNamed(`wave-escapee-in-${unique} 300`).length === 1)).toBe(true);
    const stop = await t.call("TaskStop", { task_id: r.s.backgroundTaskId });
    expect(stop.structuredContent).toMatchObject({ stopped: true });
    expect(await waitFor(() => processesNamed(`wave-escapee-in-${unique} 300`).length === 0, 5000)).toBe(true);

    // The control: without the sandbox the same trick escapes the tree kill.
    const plain = testCore({ sandbox: NO_SANDBOX });
    const p = await plain.bash({ command: escapee("out"), run_in_background: true });
    expect(await waitFor(() => processesNamed(`wave-escapee-out-${unique} 300`).length === 1)).toBe(true);
    await plain.call("TaskStop", { task_id: p.s.backgroundTaskId });
    const leaked = processesNamed(`wave-escapee-out-${unique} 300`);
    for (const pid of leaked) process.kill(pid, "SIGKILL");
    expect(leaked).toHaveLength(1);
  });

  it("Ctrl+B moves a sandboxed command to the background, a timeout does too, cancel stops it, and a stop reports the signal", async () => {
    const t = testCore();
    const pending = t.bash({ command: "echo begun; sleep 300" }, { callId: "c1" });
    await waitFor(() => ourProcesses().some((p) => p.command === "sleep 300"));
    expect(t.core.moveToBackground("c1")).toMatch(/^b/);
    const moved = await pending;
    expect(moved.s).toMatchObject({ backgroundedByUser: true, sandboxed: true });
    const timed = await t.bash({ command: "sleep 301", timeout: 0 });
    expect(timed.s).toMatchObject({ timedOut: true, sandboxed: true });
    const ctl = new AbortController();
    const cancelled = t.bash({ command: "trap '' TERM; sleep 302" }, { signal: ctl.signal });
    await waitFor(() => ourProcesses().some((p) => p.command === "sleep 302"));
    ctl.abort(new Error("user pressed stop"));
    const c = await cancelled;
    expect(c.s).toMatchObject({ interrupted: true, signal: "SIGKILL" });
    const tasks = t.core.sessions.main.service(TASKS);
    for (const task of tasks.list()) await tasks.stop(task.taskId, "agent");
    const stopped = tasks.list().map((x) => x.signal);
    expect(stopped.every((s) => s === "SIGTERM")).toBe(true);
    expect(await waitFor(() => ourProcesses().length === 0)).toBe(true);
  });
});

describe("network", () => {
  let server: net.Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = net.createServer((s) => {
      connections++;
      s.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => server.close());

  const probe = () => `echo ping > /dev/tcp/127.0.0.1/${port} && echo connected || echo refused`;

  it("allow reaches a loopback listener of the host; deny (setting or --sandbox-network) has a loopback of its own", async () => {
    const t = testCore();
    const before = connections;
    expect((await t.bash({ command: probe() })).s.output).toContain("connected");
    expect(connections).toBe(before + 1);
    t.core.workspace.updateSettings({ sandbox: { network: "deny" } });
    const denied = await t.bash({ command: probe() });
    expect(denied.s.output).toContain("refused");
    const cli = testCore({ sandbox: { network: "deny" } });
    expect((await cli.bash({ command: probe() })).s.output).toContain("refused");
    expect(connections).toBe(before + 1);
  });

  it("the deny-all permission mode implies network deny", async () => {
    const t = testCore({ permissions: await parsePolicy({ mode: "deny-all", allow: ["./probe.sh:*"] }) });
    writeFileSync(path.join(t.root, "probe.sh"), `#!/bin/bash\n${probe()}\n`);
    chmodSync(path.join(t.root, "probe.sh"), 0o755);
    const before = connections;
    const r = await t.bash({ command: `./probe.sh ${port}` });
    expect(r.s.output).toContain("refused");
    expect(connections).toBe(before);
    expect((await t.core.sandbox.status()).network).toBe("deny");
  });
});

describe("modes and the way out", () => {
  it("on without a usable bwrap refuses every shell command with what to install; nothing runs", async () => {
    vi.stubEnv(BWRAP_VAR, "/nonexistent/bwrap");
    const t = testCore({ sandbox: { mode: "on" } });
    const marker = path.join(t.root, "ran");
    const b = await t.bash({ command: `touch ${marker}` });
    expect(b.isError).toBe(true);
    expect(b.text).toMatch(
      /^The sandbox is required \(sandbox mode "on", --sandbox\) but not available: bubblewrap was not found at \/nonexistent\/bwrap \(WAVE_BWRAP\)\. Install bubblewrap: sudo apt-get install bubblewrap .* Nothing ran\.$/,
    );
    expect(b.s.sandboxed).toBe(false);
    const r = await rsc(t, { command: `touch ${marker}` });
    expect(r.s.errorKind).toBe("sandbox_unavailable");
    const bg = await t.bash({ command: `touch ${marker}`, run_in_background: true });
    expect(bg.isError).toBe(true);
    expect(existsSync(marker)).toBe(false);
    expect(t.core.sessions.main.peekService(RUNS)).toBeUndefined();
    expect(t.core.sessions.main.peekService(TASKS)).toBeUndefined();
    expect(await t.core.sandbox.status()).toMatchObject({ active: false, kind: "bubblewrap", network: "allow" });
    expect((await t.core.sandbox.status()).remedy).toContain("apt-get install bubblewrap");
  });

  it("auto without bwrap runs unsandboxed and every result says so; off says the user turned it off", async () => {
    vi.stubEnv("PATH", "/nonexistent-bin");
    vi.stubEnv("WAVE_SHELL", "/usr/bin/bash");
    const t = testCore();
    const r = await t.bash({ command: "echo plain" });
    expect(r.s).toMatchObject({ sandboxed: false, output: "plain\n" });
    expect(r.text).toBe("plain\nRan outside the sandbox: no sandbox is available here (wave-core env says why).");
    expect(await t.core.sandbox.status()).toMatchObject({ active: false, reason: expect.stringContaining("not installed") });
    vi.unstubAllEnvs();
    const off = testCore({ sandbox: NO_SANDBOX });
    const o = await rsc(off, { command: "echo plain" });
    expect(o.s.sandboxed).toBe(false);
    expect(o.text.split("\n").at(-1)).toBe("Ran outside the sandbox: sandbox mode is off.");
  });

  it("dangerouslyDisableSandbox runs the command outside and says so; in on mode it is refused", async () => {
    const outside = tempDir("wave-escape-");
    const t = testCore();
    const r = await t.bash({ command: `echo out > ${outside}/x.txt && echo wrote`, dangerouslyDisableSandbox: true, description: "needs /tmp" });
    expect(r.s).toMatchObject({ sandboxed: false, output: "wrote\n" });
    expect(r.text).toBe("wrote\nRan outside the sandbox: dangerouslyDisableSandbox was set.");
    expect(readFileSync(path.join(outside, "x.txt"), "utf8")).toBe("out\n");
    const on = testCore({ sandbox: { mode: "on" } });
    const refused = await on.bash({ command: `echo again > ${outside}/y.txt`, dangerouslyDisableSandbox: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^This call asked to run outside the sandbox \(dangerouslyDisableSandbox\), but sandbox mode is "on"/);
    expect(existsSync(path.join(outside, "y.txt"))).toBe(false);
  });
});

describe("the gate trusts the sandbox, and only the sandbox", () => {
  function asking(t: TestCore) {
    const prompts: PermissionPrompt[] = [];
    const call = (name: string, args: Record<string, unknown>) =>
      t.core.callTool({
        name,
        arguments: args,
        origin: "host",
        asker: async (p) => {
          prompts.push(p);
          return { decision: "allow-once" };
        },
      });
    return { prompts, call };
  }

  it("ask: a sandboxed command without warnings runs without a question; a warning still asks", async () => {
    const t = testCore({ permissions: await parsePolicy({ mode: "ask" }) });
    const { prompts, call } = asking(t);
    const ls = await call("Bash", { command: "ls -a && git status 2>&1 | head -1 && touch made" });
    expect(ls.isError).toBe(false);
    expect(prompts).toEqual([]);
    expect(existsSync(path.join(t.root, "made"))).toBe(true);
    await call("run_shell_command", { command: "npm --version >/dev/null 2>&1; echo ok" });
    expect(prompts).toEqual([]);
    await call("Bash", { command: "git push --force origin main 2>/dev/null; true" });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ sandboxed: true, warnings: [{ id: "force-push" }] });
    expect(prompts[0]!.outsideSandboxReason).toBeUndefined();
  });

  it("ask: a call that escapes the sandbox is asked, and the question says it runs outside", async () => {
    const t = testCore({ permissions: await parsePolicy({ mode: "ask" }) });
    const { prompts, call } = asking(t);
    const r = await call("Bash", { command: "touch made", dangerouslyDisableSandbox: true, description: "make a file" });
    expect(r.isError).toBe(false);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ tool: "Bash", command: "touch made", sandboxed: false, outsideSandboxReason: "the call set dangerouslyDisableSandbox" });
    // Judged as if there were no sandbox: a read-only command from the list runs without a question.
    expect((await call("Bash", { command: "ls -a", dangerouslyDisableSandbox: true })).structuredContent).toMatchObject({ sandboxed: false });
    expect(prompts).toHaveLength(1);
    await call("run_shell_command", { command: "touch made2", dangerouslyDisableSandbox: true });
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toMatchObject({ tool: "run_shell_command", sandboxed: false, outsideSandboxReason: "the call set dangerouslyDisableSandbox" });
  });

  it("ask without a sandbox asks as before, saying why it runs outside", async () => {
    vi.stubEnv(BWRAP_VAR, "/nonexistent/bwrap");
    const t = testCore({ permissions: await parsePolicy({ mode: "ask" }) });
    const { prompts, call } = asking(t);
    await call("Bash", { command: "touch x" });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ sandboxed: false, outsideSandboxReason: expect.stringContaining("bubblewrap was not found") });
  });

  it("deny-all: an escaping call is denied unless an allow rule covers it; allow-all allows it", async () => {
    const deny = testCore({ permissions: await parsePolicy({ mode: "deny-all" }) });
    const denied = await deny.bash({ command: "ls", dangerouslyDisableSandbox: true });
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/^Permission denied: Bash may not run `ls`\. The permission mode is deny-all/);
    // Without the escape too: deny-all never auto-allows.
    expect((await deny.bash({ command: "ls" })).isError).toBe(true);
    const ruled = testCore({ permissions: await parsePolicy({ mode: "deny-all", allow: ["ls"] }) });
    expect((await ruled.bash({ command: "ls", dangerouslyDisableSandbox: true })).s).toMatchObject({ success: true, sandboxed: false });
    const all = testCore({ permissions: await parsePolicy({ mode: "allow-all" }) });
    expect((await all.bash({ command: "ls", dangerouslyDisableSandbox: true })).s).toMatchObject({ success: true, sandboxed: false });
  });

  it("permissions/evaluate previews the shell tools with the sandbox's real state; permissions/check (the host's own commands) never counts as sandboxed", async () => {
    const t = testCore({ permissions: await parsePolicy({ mode: "ask" }) });
    const method = (name: string) => permissionHostMethods.find((m) => m.name === name)!;
    const permissionsEvaluate = method("permissions/evaluate");
    const permissionsCheck = method("permissions/check");
    const evaluate = (params: object) => permissionsEvaluate.handle(permissionsEvaluate.params.parse(params), { core: t.core } as never) as Promise<Record<string, unknown>>;
    expect(await evaluate({ command: "make test" })).toMatchObject({ outcome: "allow", sandboxed: true });
    expect(await evaluate({ tool: "run_shell_command", command: "make test" })).toMatchObject({ outcome: "allow", sandboxed: true });
    expect(await evaluate({ tool: "SomeHostTool", command: "make test" })).toMatchObject({ outcome: "ask", sandboxed: false });
    const check = await permissionsCheck.handle(permissionsCheck.params.parse({ command: "make test" }), { core: t.core, signal: new AbortController().signal } as never);
    expect(check).toMatchObject({ allowed: false, decision: { outcome: "ask", sandboxed: false } });
    t.core.workspace.updateSettings({ sandbox: { mode: "off" } });
    expect(await evaluate({ command: "make test" })).toMatchObject({ outcome: "ask", sandboxed: false, outsideSandboxReason: 'sandbox mode is "off" (settings.sandbox.mode)' });
  });
});

describe("status", () => {
  it("env/status-shaped status; settings and mode changes are announced with env/statusChanged", async () => {
    const t = testCore();
    expect(await t.core.sandbox.status()).toEqual({ active: true, kind: "bubblewrap", network: "allow" });
    const changes = () => t.events.filter((e) => e.method === "env/statusChanged").map((e) => e.params.sandbox);
    t.core.workspace.updateSettings({ sandbox: { network: "deny" } });
    t.core.workspace.updateSettings({ shims: false });
    await t.core.permissions.setMode("deny-all");
    t.core.workspace.updateSettings({ sandbox: { mode: "off" } });
    expect(changes()).toEqual([
      { active: true, kind: "bubblewrap", network: "deny" },
      { active: false, kind: "none", network: "allow", reason: 'Sandbox mode is "off" (settings.sandbox.mode): commands run with your full permissions.', remedy: expect.any(String) },
    ]);
    t.core.workspace.updateSettings({ sandbox: { mode: "auto", network: "allow" } });
    expect(changes().at(-1)).toEqual({ active: true, kind: "bubblewrap", network: "deny" });
  });

  it('a host that was told "checking" hears when the check lands', async () => {
    const t = testCore();
    expect(t.core.sandbox.statusForNotification()).toMatchObject({ active: false, reason: "Checking whether the sandbox works here." });
    await t.core.sandbox.whenChecked();
    expect(await waitFor(() => t.events.some((e) => e.method === "env/statusChanged"))).toBe(true);
    expect(t.events.filter((e) => e.method === "env/statusChanged").at(-1)!.params.sandbox).toEqual({ active: true, kind: "bubblewrap", network: "allow" });
  });

  it("invalid settings fail closed: an unknown network value means deny, an unknown mode means on", async () => {
    const logs = captureLogs(/^WARN sandbox: /);
    const t = testCore();
    t.core.workspace.updateSettings({ sandbox: { network: "deny " } });
    expect((await t.core.sandbox.status()).network).toBe("deny");
    vi.stubEnv(BWRAP_VAR, "/nonexistent/bwrap");
    const u = testCore();
    u.core.workspace.updateSettings({ sandbox: { mode: "onn" } });
    expect((await u.bash({ command: "true" })).text).toMatch(/^The sandbox is required \(sandbox mode "on", settings\.sandbox\.mode\)/);
    expect(logs.lines()).toEqual([
      'WARN sandbox: settings.sandbox.network "deny " is not one of allow, deny; using "deny"',
      'WARN sandbox: settings.sandbox.mode "onn" is not one of auto, on, off; using "on"',
    ]);
  });
});
