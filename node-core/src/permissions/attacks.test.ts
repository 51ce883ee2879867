// The gate against real attacks. Each case is first run in a real bash and/or zsh to prove that
// it really runs code, writes a file, reaches the network or deletes what a deny rule protects
// (the proof), and then checked against the gate: the decision that used to let it through must
// now deny it or ask. Classes follow issue 12 ("The gate, conservative").
import { spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PermissionMode } from "../base/settings.js";
import { decideCommand, decidePath, type DecideContext, type RuleSet } from "./decide.js";
import { parseRule } from "./rules.js";
import { loadSyntax, type SyntaxLibraries } from "../util/bashSyntax.js";

type Shell = "bash" | "zsh";

/** Where an attack runs: a workspace, a place outside it, a home, a temp directory, a marker. */
interface Lab {
  base: string;
  ws: string;
  out: string;
  home: string;
  mark: string;
  port: number;
}

interface Attack {
  /** The command; WS, OUT, HOMEDIR, MARK and PORT stand for the lab's places. */
  command: string;
  /** The shells in which the command really does it (the proof runs there). */
  shells: Shell[];
  /** Files and repositories the attacker prepared earlier (with the Write tool, say). */
  setup?: (lab: Lab) => void;
  /** The environment the command starts with, beyond PATH and HOME. */
  env?: (lab: Lab) => Record<string, string>;
  /** What proves it worked; default: the marker file exists. */
  proof?: (lab: Lab) => boolean;
  allow?: string[];
  deny?: string[];
  /** The mode to decide in; default deny-all. */
  mode?: PermissionMode;
  /** The outcome the gate must reach; default deny. */
  expect?: "deny" | "ask";
  /** Also decided as a sandboxed command in ask mode: must still be asked (a danger warning). */
  askedWhenSandboxed?: boolean;
}

let lib: SyntaxLibraries;
const labs: string[] = [];
let tcpPort = 0;
let udpPort = 0;
let tcpConnections = 0;
const tcp = createServer((s) => {
  tcpConnections++;
  s.on("data", () => {});
  s.on("error", () => {});
  s.end();
});
const udp = createSocket("udp4");
let udpMessages = 0;
udp.on("message", () => udpMessages++);

beforeAll(async () => {
  lib = await loadSyntax();
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  tcpPort = (tcp.address() as AddressInfo).port;
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  udpPort = udp.address().port;
});

afterAll(() => {
  tcp.close();
  udp.close();
  for (const d of labs) rmSync(d, { recursive: true, force: true });
});

function newLab(port = tcpPort): Lab {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-attack-")));
  labs.push(base);
  const lab = { base, ws: path.join(base, "ws"), out: path.join(base, "out"), home: path.join(base, "home"), mark: path.join(base, "MARK"), port };
  for (const d of [lab.ws, lab.out, lab.home, path.join(base, "tmp")]) mkdirSync(d, { recursive: true });
  return lab;
}

function fill(text: string, lab: Lab): string {
  return text
    .replace(/HOMEDIR/g, lab.home)
    .replace(/MARK/g, lab.mark)
    .replace(/PORT/g, String(lab.port))
    .replace(/\bOUT\b/g, lab.out)
    .replace(/\bWS\b/g, lab.ws);
}

function context(lab: Lab): DecideContext {
  return { cwd: lab.ws, root: lab.ws, allowedDirectories: [lab.ws], home: lab.home, tempDir: path.join(lab.base, "tmp") };
}

function rules(allow: string[] = [], deny: string[] = []): RuleSet {
  return { allow: allow.map((r) => parseRule(r, lib)), deny: deny.map((r) => parseRule(r, lib)) };
}

const shellPaths: Record<Shell, string> = { bash: "/bin/bash", zsh: "/usr/bin/zsh" };

/** Runs the command as the Bash tool would (`<shell> -c`), with stdin closed; resolves when it exits. */
function runIn(shell: Shell, command: string, lab: Lab, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(shellPaths[shell], ["-c", command], {
      cwd: lab.ws,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: lab.home, ...env },
      stdio: ["ignore", "ignore", "ignore"],
      timeout: 15_000,
    });
    child.on("error", reject);
    child.on("exit", () => resolve());
  });
}

function git(lab: Lab, ...args: string[]): string {
  return `git -C ${JSON.stringify(lab.ws)} ${args.join(" ")}`;
}

/** A repository with one commit in the workspace, made with real git. */
async function gitRepo(lab: Lab): Promise<void> {
  const script = [
    git(lab, "init -q"),
    git(lab, "config user.email t@example.com"),
    git(lab, "config user.name t"),
    `echo a > ${JSON.stringify(path.join(lab.ws, "a.txt"))}`,
    git(lab, "add a.txt"),
    git(lab, "commit -qm first"),
    `echo b >> ${JSON.stringify(path.join(lab.ws, "a.txt"))}`,
  ].join(" && ");
  await runIn("bash", script, lab, {});
}

function writeScript(file: string, body: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n/usr/bin/${body}\n`);
  chmodSync(file, 0o755);
}

/** Proves the attack in every shell it names, then checks the gate. */
async function check(attack: Attack, needsRepo = false): Promise<void> {
  for (const shell of attack.shells) {
    const lab = newLab(attack.command.includes("/dev/udp/") ? udpPort : tcpPort);
    if (needsRepo) await gitRepo(lab);
    attack.setup?.(lab);
    const before = { tcp: tcpConnections, udp: udpMessages };
    await runIn(shell, fill(attack.command, lab), lab, attack.env?.(lab) ?? {});
    // Connections and datagrams are counted by this process's event loop: give it a moment.
    if (attack.command.includes("/dev/tcp/") || attack.command.includes("/dev/udp/")) {
      for (let i = 0; i < 50 && tcpConnections === before.tcp && udpMessages === before.udp; i++) await new Promise((r) => setTimeout(r, 20));
      expect(tcpConnections + udpMessages, `${shell} reached the network: ${attack.command}`).toBeGreaterThan(before.tcp + before.udp);
    } else {
      const proved = attack.proof ? attack.proof(lab) : existsSync(lab.mark);
      expect(proved, `${shell} really does it: ${attack.command}`).toBe(true);
    }
  }
  const lab = newLab();
  if (needsRepo) await gitRepo(lab);
  attack.setup?.(lab);
  const command = fill(attack.command, lab);
  const ruleSet = rules(
    attack.allow?.map((r) => fill(r, lab)),
    attack.deny?.map((r) => fill(r, lab)),
  );
  const decision = decideCommand(command, context(lab), ruleSet, attack.mode ?? "deny-all", lib, { sandboxed: false });
  expect(decision.outcome, `${attack.command}: ${decision.reason}`).toBe(attack.expect ?? "deny");
  if (attack.askedWhenSandboxed) {
    const sandboxed = decideCommand(command, context(lab), ruleSet, "ask", lib, { sandboxed: true });
    expect(sandboxed.outcome, `sandboxed: ${attack.command}: ${sandboxed.reason}`).toBe("ask");
  }
}

const P = "a[$(touch MARK)]";

describe("code hidden in expansions evaluated at run time", () => {
  const aFile = (lab: Lab) => writeFileSync(path.join(lab.ws, "f"), "");
  const attacks: Attack[] = [
    { command: `x='${P}'; echo $((x))`, shells: ["bash"], askedWhenSandboxed: true },
    { command: `a=(1); x='${P}'; echo $((x))`, shells: ["bash", "zsh"], askedWhenSandboxed: true },
    { command: `a=(1); x='${P}'; echo $[x]`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; echo "$(( x + 1 ))"`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; echo $(( $x ))`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; y=x; echo $((y))`, shells: ["bash", "zsh"] },
    { command: `x='$(touch MARK)'; echo \${x@P}`, shells: ["bash"], askedWhenSandboxed: true },
    { command: `x='${P}'; echo \${!x}`, shells: ["bash"], askedWhenSandboxed: true },
    { command: `a=(1); x='${P}'; [[ $x -eq 1 ]]`, shells: ["bash", "zsh"], askedWhenSandboxed: true },
    { command: `a=(1); x='${P}'; [[ -v $x ]]`, shells: ["bash", "zsh"] },
    { command: `a=(1); test -v '${P}'`, shells: ["bash", "zsh"], askedWhenSandboxed: true },
    { command: `a=(1); [ -v '${P}' ]`, shells: ["bash", "zsh"] },
    { command: `a=(1); [ -t '${P}' ]`, shells: ["zsh"] },
    { command: `printf -v '${P}' x`, shells: ["bash", "zsh"], askedWhenSandboxed: true },
    { command: `a=(1); x='${P}'; printf '%d' "$x"`, shells: ["zsh"] },
    { command: `a=(1); x='${P}'; printf '%*s' "$x" y`, shells: ["zsh"] },
    { command: `a=(1); x='${P}'; cd $((x))`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; exit $x`, shells: ["zsh"] },
    { command: `a=(1); exit '${P}'`, shells: ["zsh"] },
    { command: `a=(1); x='${P}'; (( x ))`, shells: ["bash", "zsh"], askedWhenSandboxed: true },
    { command: `a=(1); x='${P}'; for ((i=x; 0; )); do :; done`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; echo \${a[x]}`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; echo $a[x]`, shells: ["zsh"] },
    { command: `a=(1); echo $a['${P}']`, shells: ["zsh"] },
    { command: `a=(1); x='${P}'; echo \${x:0:$x}`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; case $((x)) in *) ;; esac`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; : < $((x))`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; : <<EOF\n$((x))\nEOF`, shells: ["bash", "zsh"] },
    { command: `a=(1); RANDOM='${P}'`, shells: ["bash", "zsh"], askedWhenSandboxed: true },
    { command: `a=(1); OPTIND='${P}'`, shells: ["bash", "zsh"] },
    { command: `a=(1); SECONDS='${P}'`, shells: ["zsh"] },
    { command: `a=(1); COLUMNS='${P}'`, shells: ["zsh"] },
    { command: `a=(1); x='${P}'; COLUMNS=x`, shells: ["zsh"] },
    { command: `echo *(e:'touch MARK':)`, shells: ["zsh"], setup: aFile, askedWhenSandboxed: true },
    { command: `echo **/*(e:'touch MARK':)`, shells: ["zsh"], setup: aFile },
    { command: `x='$(touch MARK)'; echo \${(e)x}`, shells: ["zsh"], askedWhenSandboxed: true },
    { command: `x='$(touch MARK)'; echo "\${(e)x}"`, shells: ["zsh"] },
    { command: `echo =(touch MARK)`, shells: ["zsh"] },
    { command: `a=(1); x='${P}'; let x`, shells: ["bash", "zsh"] },
    { command: `declare '${P}=1'`, shells: ["bash", "zsh"] },
    { command: `read '${P}' <<< x`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; echo "\${a[x]}"`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; : $((x))`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; [[ x -eq 1 ]]`, shells: ["bash", "zsh"] },
    { command: `a=(1); [[ '${P}' -eq 1 ]]`, shells: ["bash", "zsh"] },
    { command: `a=(1); x=$'${P}'; echo $((x))`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; for i in $((x)); do :; done`, shells: ["bash", "zsh"] },
    { command: `a=(1); f() { echo $(($1)); }; f '${P}'`, shells: ["bash", "zsh"] },
    { command: `a=(1); set -- '${P}'; echo $(($1))`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}' bash -c 'echo $((x))'`, shells: ["bash", "zsh"] },
    { command: `a=(1); x='${P}'; cat <<< $((x))`, shells: ["bash", "zsh"], allow: ["cat:*"] },
    { command: `x='$(touch MARK)'; y=\${x@P}`, shells: ["bash"], askedWhenSandboxed: true },
    // Behind a prefix rule: the rule names the command, not the code its arguments run.
    { command: `a=(1); x='${P}'; git log -n $((x))`, shells: ["bash", "zsh"], allow: ["git log:*"] },
    { command: `a=(1); x='${P}'; ls \${a[x]}`, shells: ["bash", "zsh"], allow: ["ls:*"] },
    { command: `x='$(touch MARK)'; ls \${x@P}`, shells: ["bash"], allow: ["ls:*"], mode: "ask", expect: "ask" },
    { command: `ls *(e:'touch MARK':)`, shells: ["zsh"], setup: aFile, allow: ["ls:*"], mode: "ask", expect: "ask" },
  ];
  it.each(attacks.map((a) => [a.command, a] as const))("%s", async (_name, attack) => {
    await check(attack);
  });
});

describe("redirections that reach the network", () => {
  const attacks: Attack[] = [
    { command: ": < /dev/tcp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: 'echo "$(: </dev/tcp/127.0.0.1/PORT)"', shells: ["bash"], askedWhenSandboxed: true },
    // bash 5.2 opens the file itself for `$(<file)` (no /dev/tcp there); other versions may not.
    { command: "echo $(</dev/tcp/127.0.0.1/PORT)", shells: [], askedWhenSandboxed: true },
    { command: "true 0</dev/tcp/127.0.0.1/PORT", shells: ["bash"] },
    { command: "cd . </dev/tcp/127.0.0.1/PORT", shells: ["bash"] },
    { command: "echo hi > /dev/tcp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: "echo hi >> /dev/tcp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: "echo hi > /dev/./tcp/../tcp/127.0.0.1/PORT", shells: [], askedWhenSandboxed: true },
    { command: "exec 3<>/dev/tcp/127.0.0.1/PORT; echo hi >&3", shells: ["bash"], allow: ["exec:*"], askedWhenSandboxed: true },
    { command: "exec {fd}>/dev/tcp/127.0.0.1/PORT; echo hi >&$fd", shells: ["bash"], allow: ["exec:*"], askedWhenSandboxed: true },
    { command: "cat <<< hi > /dev/tcp/127.0.0.1/PORT", shells: ["bash"], allow: ["cat:*"], askedWhenSandboxed: true },
    { command: "cat < /dev/tcp/127.0.0.1/PORT", shells: ["bash"], allow: ["cat:*"], askedWhenSandboxed: true },
    { command: "cat 3</dev/tcp/127.0.0.1/PORT", shells: ["bash"], allow: ["cat:*"] },
    { command: "p=/dev/tcp/127.0.0.1/PORT; : < $p", shells: ["bash"], askedWhenSandboxed: true },
    { command: "echo hi > /dev/udp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: ": < /dev/udp/127.0.0.1/PORT; echo hi >/dev/udp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: "{ echo hi; } > /dev/tcp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: "while read l; do :; done < /dev/tcp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: "echo hi >& /dev/tcp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: "exec 3</dev/tcp/127.0.0.1/PORT", shells: ["bash"], allow: ["exec:*"], askedWhenSandboxed: true },
    { command: "f=/dev/tcp/127.0.0.1/PORT; echo hi > $f", shells: ["bash"], askedWhenSandboxed: true },
    { command: ": <> /dev/tcp/127.0.0.1/PORT", shells: ["bash"], askedWhenSandboxed: true },
    { command: "exec {fd}<>/dev/tcp/127.0.0.1/PORT", shells: ["bash"], allow: ["exec:*"], askedWhenSandboxed: true },
    { command: "bash <<< ': < /dev/tcp/127.0.0.1/PORT'", shells: ["bash"], askedWhenSandboxed: true },
  ];
  it.each(attacks.map((a) => [a.command, a] as const))("%s", async (_name, attack) => {
    await check(attack);
  });
});

describe("shells started with start-up files", () => {
  const rc = (lab: Lab) => writeFileSync(path.join(lab.ws, "rc"), `touch ${lab.mark}\n`);
  const homeFile = (name: string) => (lab: Lab) => writeFileSync(path.join(lab.home, name), `touch ${lab.mark}\n`);
  const attacks: Attack[] = [
    { command: "bash --rcfile rc -i -c true", shells: ["bash", "zsh"], setup: rc, askedWhenSandboxed: true },
    { command: "bash --init-file ./rc -i -c true", shells: ["bash"], setup: rc },
    { command: "bash -ic true", shells: ["bash"], setup: homeFile(".bashrc"), askedWhenSandboxed: true },
    { command: "bash -i -c 'git status'", shells: ["bash"], setup: homeFile(".bashrc"), allow: ["git status"] },
    { command: "bash -l -c true", shells: ["bash"], setup: homeFile(".profile"), askedWhenSandboxed: true },
    { command: "bash --login -c 'git status'", shells: ["bash"], setup: homeFile(".profile"), allow: ["git status"] },
    { command: "bash -lc true", shells: ["bash"], setup: homeFile(".bash_profile") },
    { command: "sh -i -c true", shells: ["bash"], setup: rc, env: (lab) => ({ ENV: path.join(lab.ws, "rc") }), askedWhenSandboxed: true },
    { command: "sh -l -c true", shells: ["bash"], setup: homeFile(".profile") },
    { command: "bash --posix -i -c true", shells: ["bash"], setup: rc, env: (lab) => ({ ENV: path.join(lab.ws, "rc") }) },
    { command: "zsh -i -c true", shells: ["bash"], setup: homeFile(".zshrc") },
    { command: "zsh -l -c true", shells: ["bash"], setup: homeFile(".zprofile") },
    { command: "zsh -o login -c true", shells: ["bash"], setup: homeFile(".zprofile") },
    // zsh reads $ZDOTDIR/.zshenv (or ~/.zshenv) even for `zsh -c`: moving ZDOTDIR or HOME runs a file.
    { command: "HOME=WS; zsh -c true", shells: ["bash", "zsh"], setup: (lab) => writeFileSync(path.join(lab.ws, ".zshenv"), `touch ${lab.mark}\n`), askedWhenSandboxed: true },
    {
      command: "ZDOTDIR=WS/z; zsh -c 'git status'",
      shells: ["bash", "zsh"],
      allow: ["git status"],
      setup: (lab) => (mkdirSync(path.join(lab.ws, "z")), writeFileSync(path.join(lab.ws, "z", ".zshenv"), `touch ${lab.mark}\n`)),
      env: () => ({ ZDOTDIR: "/nonexistent" }),
    },
    { command: "BASH_ENV=./rc; bash -c true", shells: ["bash", "zsh"], setup: rc, env: () => ({ BASH_ENV: "" }), askedWhenSandboxed: true },
    { command: "ENV=./rc; sh -i -c true", shells: ["bash"], setup: rc, env: () => ({ ENV: "" }) },
    { command: "env BASH_ENV=./rc bash -c true", shells: ["bash"], setup: rc },
    { command: "bash -o posix -i -c true", shells: ["bash"], setup: rc, env: (lab) => ({ ENV: path.join(lab.ws, "rc") }) },
    { command: "exec -l bash -c true", shells: ["bash"], setup: homeFile(".profile"), askedWhenSandboxed: true },
    { command: "exec -a -bash bash -c true", shells: ["bash"], setup: homeFile(".profile") },
    { command: "env 'BASH_FUNC_true%%=() { touch MARK; }' bash -c true", shells: ["bash", "zsh"], allow: ["env:*"], mode: "ask", expect: "ask" },
  ];
  it.each(attacks.map((a) => [a.command, a] as const))("%s", async (_name, attack) => {
    await check(attack, attack.allow?.includes("git status"));
  });
});

describe("assignments in their own statement change later commands", () => {
  const evilGit = (lab: Lab) => writeScript(path.join(lab.ws, "bin", "git"), `touch ${lab.mark}`);
  const evil = (lab: Lab) => writeScript(path.join(lab.ws, "evil"), `touch ${lab.mark}`);
  const attacks: Attack[] = [
    { command: "PATH=WS/bin:$PATH; git status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status"] },
    { command: "PATH=WS/bin:$PATH\ngit status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status"] },
    { command: "path=(WS/bin $path); git status", shells: ["zsh"], setup: evilGit, allow: ["git status"] },
    { command: "for PATH in WS/bin:/usr/bin:/bin; do git status; done", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status"] },
    { command: "printf -v PATH %s WS/bin:/usr/bin:/bin; git status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status"] },
    { command: "read PATH <<< WS/bin:/usr/bin:/bin; git status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status", "read:*"] },
    { command: "export PATH=WS/bin:$PATH; git status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status", "export:*"] },
    { command: "declare -x PATH=WS/bin:/usr/bin:/bin; git status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status", "declare:*"] },
    { command: "typeset PATH=WS/bin:/usr/bin:/bin; git status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status", "typeset:*"] },
    { command: "GIT_EDITOR=./evil; git commit --allow-empty -e -m x", shells: ["bash", "zsh"], setup: evil, env: () => ({ GIT_EDITOR: "true" }), allow: ["git commit:*"] },
    {
      command: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=./evil; git status",
      shells: ["bash", "zsh"],
      setup: evil,
      env: () => ({ GIT_CONFIG_COUNT: "0", GIT_CONFIG_KEY_0: "x", GIT_CONFIG_VALUE_0: "x" }),
      allow: ["git status"],
    },
    { command: "GIT_EXTERNAL_DIFF=./evil; git diff", shells: ["bash", "zsh"], setup: evil, env: () => ({ GIT_EXTERNAL_DIFF: "" }), allow: ["git diff:*"] },
    {
      command: "NODE_OPTIONS='--require ./evil.js'; node -e 0",
      shells: ["bash", "zsh"],
      setup: (lab) => writeFileSync(path.join(lab.ws, "evil.js"), `require("fs").writeFileSync(${JSON.stringify(lab.mark)}, "")`),
      env: () => ({ NODE_OPTIONS: "" }),
      allow: ["node -e 0"],
    },
    { command: "IFS=/; git status", shells: [], allow: ["git status"] },
    { command: "PROMPT_COMMAND=./evil; git status", shells: [], allow: ["git status"] },
    { command: "enable -f ./evil.so git; git status", shells: [], allow: ["git status", "enable:*"] },
    { command: "export -f git; git status", shells: [], allow: ["git status", "export:*"] },
    { command: "LD_PRELOAD=./evil.so; git status", shells: [], allow: ["git status"] },
    { command: "hash -p ./evil git; git status", shells: ["bash"], setup: evil, allow: ["git status", "hash:*"] },
    { command: "shopt -s expand_aliases; alias git=./evil\ngit status", shells: ["bash"], setup: evil, allow: ["git status", "shopt:*", "alias:*"] },
    { command: "git() { ./evil; }; git status", shells: ["bash", "zsh"], setup: evil, allow: ["git status", "./evil"] },
    { command: "trap ./evil EXIT; git status", shells: ["bash", "zsh"], setup: evil, allow: ["git status", "trap:*"] },
    { command: "set -a; PATH=WS/bin:$PATH; git status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status", "set:*"] },
    { command: "PS4='$(touch MARK)'; set -x; true", shells: ["bash"], askedWhenSandboxed: true },
    { command: "BASH_CMDS[git]=./evil; git status", shells: ["bash"], setup: evil, allow: ["git status"] },
    { command: "commands[git]=./evil; git status", shells: ["zsh"], setup: evil, allow: ["git status"] },
    { command: "functions[git]=./evil; git status", shells: ["zsh"], setup: evil, allow: ["git status"] },
    { command: "PATH=WS/bin:$PATH; export PATH\ngit status", shells: ["bash", "zsh"], setup: evilGit, allow: ["git status", "export:*"] },
  ];
  it.each(attacks.map((a) => [a.command, a] as const))("%s", async (_name, attack) => {
    await check(attack, /git (status|commit|diff)/.test(attack.command));
  });
});

describe("deny rules catch what they name however it is invoked", () => {
  const victim = (lab: Lab) => writeFileSync(path.join(lab.ws, "victim"), "precious");
  const deleted = (lab: Lab) => !existsSync(path.join(lab.ws, "victim"));
  const base: Omit<Attack, "command" | "shells"> = { setup: victim, proof: deleted, deny: ["rm:*"], mode: "allow-all" };
  const cases: [string, Shell[]][] = [
    ["/bin/rm -f victim", ["bash", "zsh"]],
    ["/usr/bin/rm -f WS/victim", ["bash", "zsh"]],
    ["X=1 rm -f victim", ["bash", "zsh"]],
    ["X=1 /bin/rm -f victim", ["bash", "zsh"]],
    ["flock WS/lock rm -f victim", ["bash", "zsh"]],
    ["flock -w 5 WS/lock rm -f victim", ["bash", "zsh"]],
    ["flock WS/lock -c 'rm -f victim'", ["bash", "zsh"]],
    ["taskset 1 rm -f victim", ["bash", "zsh"]],
    ["taskset -c 0 rm -f victim", ["bash", "zsh"]],
    ["chrt -o 0 rm -f victim", ["bash", "zsh"]],
    ["ionice -c 3 /bin/rm -f victim", ["bash", "zsh"]],
    ["stdbuf -o0 /bin/rm -f victim", ["bash", "zsh"]],
    ["setsid -w rm -f victim", ["bash", "zsh"]],
    ["nohup /bin/rm -f victim", ["bash", "zsh"]],
    ["time /bin/rm -f victim", ["bash", "zsh"]],
    ["timeout 5 /bin/rm -f victim", ["bash", "zsh"]],
    ["strace -f -o /dev/null rm -f victim", []],
    ["ltrace -o /dev/null rm -f victim", []],
    ["watch -n 1 rm -f victim", []],
    ["watch -x rm -f victim", []],
    ["unbuffer rm -f victim", []],
    ["parallel rm -f ::: victim", []],
    ["parallel ::: 'rm -f victim'", []],
    ["doas rm -f victim", []],
    ["busybox rm -f victim", []],
    ["env -S 'rm -f victim'", ["bash", "zsh"]],
    ["env --split-string='rm -f victim'", ["bash", "zsh"]],
    ["command rm -f victim", ["bash", "zsh"]],
    ["command -p rm -f victim", ["bash", "zsh"]],
    ["(exec rm -f victim)", ["bash", "zsh"]],
    ["(exec -a x /bin/rm -f victim)", ["bash", "zsh"]],
    ["x=rm; $x -f victim", ["bash", "zsh"]],
    ["$(echo rm) -f victim", ["bash", "zsh"]],
    ["`echo rm` -f victim", ["bash", "zsh"]],
    ['"r"m -f victim', ["bash", "zsh"]],
    ["r''m -f victim", ["bash", "zsh"]],
    ["\\rm -f victim", ["bash", "zsh"]],
    ["$'\\x72m' -f victim", ["bash", "zsh"]],
    ["{rm,-f,victim}", ["bash"]],
    ["/bin/r[m] -f victim", ["bash", "zsh"]],
    ["nice -n 1 $(echo rm) -f victim", ["bash", "zsh"]],
    ["setpriv /bin/rm -f victim", ["bash", "zsh"]],
    ["prlimit --nofile=100 rm -f victim", ["bash", "zsh"]],
    ["script -qc 'rm -f victim' /dev/null", ["bash", "zsh"]],
    ["sg root -c 'rm -f victim'", ["bash", "zsh"]],
    ["runuser -u root -- rm -f victim", ["bash", "zsh"]],
    ["unshare rm -f victim", ["bash", "zsh"]],
    ["ls | xargs -I{} {} -f victim", []],
    ["nice -- rm -f victim", ["bash", "zsh"]],
    ["nice -10 /bin/rm -f victim", ["bash", "zsh"]],
    ["env -u X rm -f victim", ["bash", "zsh"]],
    ["timeout --preserve-status 5 rm -f victim", ["bash", "zsh"]],
    ["ionice -c3 rm -f victim", ["bash", "zsh"]],
    ["echo victim | xargs -I % rm -f %", ["bash", "zsh"]],
    ['eval "$(echo rm) -f victim"', ["bash", "zsh"]],
    ['bash -c "$(echo rm) -f victim"', ["bash", "zsh"]],
    ["shopt -s expand_aliases\nalias r='rm -f'\nr victim", ["bash"]],
    ["hash -p /bin/rm r; r -f victim", ["bash"]],
    ["watch -x rm -f victim", []],
    ["builtin command rm -f victim", ["bash", "zsh"]],
    ["watch -n 1 'rm -f victim'", []],
    ["watch 'ls; rm -f victim'", []],
  ];
  const attacks: Attack[] = [
    ...cases.map(([command, shells]) => ({ ...base, command, shells })),
    { ...base, command: "rm $opt victim", shells: ["bash", "zsh"], env: () => ({ opt: "-f" }), deny: ["rm -f:*"] },
    { ...base, command: "cp /bin/rm ./rm; ./rm -f victim", shells: ["bash", "zsh"] },
  ];
  it.each(attacks.map((a) => [a.command, a] as const))("%s", async (_name, attack) => {
    await check(attack);
  });

  it("a command known only at run time is never allowed by a rule, whatever it expands to", () => {
    const lab = newLab();
    for (const command of ["$x status", "$(echo git) status", "`echo git` status", "{git,status}"]) {
      const d = decideCommand(command, context(lab), rules(["git status", "git:*"]), "deny-all", lib, { sandboxed: false });
      expect(d.outcome, command).toBe("deny");
      expect(d.parts.at(-1)!.status, command).not.toBe("allowed");
    }
  });

  it("a deny rule that could not have named the command leaves it alone", () => {
    const lab = newLab();
    const deny = rules([], ["git push --force:*"]);
    const decide = (command: string) => decideCommand(command, context(lab), deny, "allow-all", lib, { sandboxed: false }).outcome;
    // A quoted "$x" is one word: `"$x" status` cannot be `git push --force …`.
    expect(decide('"$x" status')).toBe("allow");
    expect(decide('"$x" push --force')).toBe("deny");
    // Unquoted, the shell splits it: `$x` may be `git push --force` all by itself.
    expect(decide("$x status")).toBe("deny");
    expect(decide("git log $x")).toBe("allow");
    expect(decide("git $x")).toBe("deny");
  });
});

describe("prefix rules do not allow the write flags of read commands", () => {
  const written = (lab: Lab) => existsSync(path.join(lab.out, "x"));
  const input = (lab: Lab) => writeFileSync(path.join(lab.ws, "in.txt"), "b\na\n");
  const evil = (lab: Lab) => (input(lab), writeScript(path.join(lab.ws, "evil"), `touch ${lab.mark}`));
  const w: Omit<Attack, "command" | "shells" | "allow"> = { setup: input, proof: written };
  const attacks: Attack[] = [
    { ...w, command: "git log --output=OUT/x", shells: ["bash", "zsh"], allow: ["git log:*"] },
    { ...w, command: "git log -p --output OUT/x", shells: ["bash", "zsh"], allow: ["git log:*"] },
    { ...w, command: "git diff --output=OUT/x", shells: ["bash", "zsh"], allow: ["git diff:*"] },
    { ...w, command: "git show --output=OUT/x", shells: ["bash", "zsh"], allow: ["git show:*"] },
    { ...w, command: "git format-patch -1 -o OUT/x", shells: ["bash", "zsh"], allow: ["git format-patch:*"] },
    { command: "git -c core.fsmonitor=./evil status", shells: ["bash", "zsh"], setup: evil, allow: ["git:*"] },
    { command: "git grep --open-files-in-pager=./evil a", shells: ["bash", "zsh"], setup: evil, allow: ["git grep:*"] },
    { ...w, command: "sort -o OUT/x in.txt", shells: ["bash", "zsh"], allow: ["sort:*"] },
    { ...w, command: "sort --output=OUT/x in.txt", shells: ["bash", "zsh"], allow: ["sort:*"] },
    { ...w, command: "sort -uo OUT/x in.txt", shells: ["bash", "zsh"], allow: ["sort:*"] },
    { ...w, command: "find . -fprint OUT/x", shells: ["bash", "zsh"], allow: ["find:*"] },
    { ...w, command: "find . -fprint0 OUT/x", shells: ["bash", "zsh"], allow: ["find:*"] },
    { ...w, command: "find . -fprintf OUT/x %p", shells: ["bash", "zsh"], allow: ["find:*"] },
    { ...w, command: "find . -fls OUT/x", shells: ["bash", "zsh"], allow: ["find:*"] },
    { command: "find in.txt -delete", shells: ["bash", "zsh"], setup: input, proof: (lab) => !existsSync(path.join(lab.ws, "in.txt")), allow: ["find:*"] },
    { command: "find . -name in.txt -exec ./evil \\;", shells: ["bash", "zsh"], setup: evil, allow: ["find:*", "./evil"] },
    { command: "find . -name in.txt -execdir ../ws/evil \\;", shells: ["bash", "zsh"], setup: evil, allow: ["find:*", "../ws/evil"] },
    { ...w, command: "echo x | tee OUT/x", shells: ["bash", "zsh"], allow: ["tee:*"] },
    { command: "sed -i s/a/b/ in.txt", shells: ["bash", "zsh"], setup: input, proof: (lab) => !readFileSync(path.join(lab.ws, "in.txt"), "utf8").includes("a"), allow: ["sed:*"] },
    { ...w, command: "sed 's/a/b/w OUT/x' in.txt", shells: ["bash", "zsh"], allow: ["sed:*"] },
    { ...w, command: "sed -n 'w OUT/x' in.txt", shells: ["bash", "zsh"], allow: ["sed:*"] },
    { command: "sed '1e ./evil' in.txt", shells: ["bash", "zsh"], setup: evil, allow: ["sed:*"] },
    { command: "sed 's/.*/.\\/evil/e' in.txt", shells: ["bash", "zsh"], setup: evil, allow: ["sed:*"] },
    { command: "rg --pre ./evil a", shells: ["bash", "zsh"], setup: evil, allow: ["rg:*"] },
    { command: "rg --pre=./evil a .", shells: ["bash", "zsh"], setup: evil, allow: ["rg:*"] },
    { ...w, command: "uniq in.txt OUT/x", shells: ["bash", "zsh"], allow: ["uniq:*"] },
    { ...w, command: "xxd in.txt OUT/x", shells: ["bash", "zsh"], allow: ["xxd:*"] },
    { command: "sort --compress-program=./evil -S 1k in.txt", shells: [], setup: evil, allow: ["sort:*"] },
    { command: "fd -x ./evil", shells: [], allow: ["fd:*", "./evil"] },
    { ...w, command: "sort --out=OUT/x in.txt", shells: ["bash", "zsh"], allow: ["sort:*"] },
    { command: "sed --in=.bak s/a/b/ in.txt", shells: ["bash", "zsh"], setup: input, proof: (lab) => existsSync(path.join(lab.ws, "in.txt.bak")), allow: ["sed:*"] },
    { ...w, command: "echo x | tee -a OUT/x", shells: ["bash", "zsh"], allow: ["tee:*"] },
    { ...w, command: "sed -n $'/a/{w OUT/x\\n}' in.txt", shells: ["bash", "zsh"], allow: ["sed:*"] },
    // A word known only at run time may be the write flag.
    { ...w, command: "o=--output=OUT/x; git log $o", shells: ["bash", "zsh"], allow: ["git log:*"] },
  ];
  it.each(attacks.map((a) => [a.command, a] as const))("%s", async (_name, attack) => {
    await check(attack, attack.command.includes("git"));
  });

  it("an exact rule still names the call, write flag and all", () => {
    const lab = newLab();
    const d = decideCommand(`sort -o ${lab.out}/x in.txt`, context(lab), rules([`sort -o ${lab.out}/x in.txt`]), "deny-all", lib, { sandboxed: false });
    expect(d.outcome).toBe("allow");
  });
});

describe("workspace files that run code later are sensitive", () => {
  const SENSITIVE = [
    ".git/config",
    ".git/hooks/pre-commit",
    ".git/hooks/post-checkout",
    ".git/info/attributes",
    "sub/.git/config",
    "sub/.git",
    ".gitmodules",
    ".envrc",
    ".bashrc",
    ".zshenv",
    ".profile",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/hooks/x.sh",
    ".mcp.json",
    ".vscode/tasks.json",
    ".vscode/settings.json",
    ".vscode/launch.json",
    ".idea/workspace.xml",
    ".idea/runConfigurations/App.xml",
    ".husky/pre-commit",
    ".npmrc",
    ".yarnrc.yml",
    ".pnpmfile.cjs",
    ".devcontainer/devcontainer.json",
    ".pre-commit-config.yaml",
    "bare/config",
    ".gitconfig",
    ".cursor/mcp.json",
    ".zed/tasks.json",
    ".githooks/pre-commit",
    "lefthook.yml",
    "bunfig.toml",
    ".venv/lib/python3.11/site-packages/evil.pth",
    ".venv/lib/python3.11/site-packages/sitecustomize.py",
    ".GIT/config",
    ".Vscode/tasks.json",
  ];

  it.each(SENSITIVE)("Write/Edit of %s is asked (ask) and denied (deny-all), even inside the workspace", (rel) => {
    const lab = newLab();
    mkdirSync(path.join(lab.ws, "bare"), { recursive: true });
    writeFileSync(path.join(lab.ws, "bare", "HEAD"), "ref: refs/heads/main\n");
    const ask = decidePath(rel, context(lab), rules(), "ask", lib);
    expect(ask.outcome, ask.reason).toBe("ask");
    expect(ask.warnings.map((w) => w.id)).toContain("sensitive-path");
    expect(decidePath(rel, context(lab), rules(), "deny-all", lib).outcome).toBe("deny");
    // A rule that names the file exactly allows it; a rule for the whole workspace does not.
    expect(decidePath(rel, context(lab), rules([`Write(${rel})`]), "deny-all", lib).outcome).toBe("allow");
    expect(decidePath(rel, context(lab), rules(["Write(**)"]), "deny-all", lib).outcome).toBe("deny");
  });

  it("a workspace link to one, even dangling, is judged as the file it leads to", () => {
    const lab = newLab();
    mkdirSync(path.join(lab.ws, ".git", "hooks"), { recursive: true });
    symlinkSync(".git/hooks/pre-commit", path.join(lab.ws, "notes"));
    const d = decidePath("notes", context(lab), rules(["Write(**)"]), "deny-all", lib);
    expect(d.outcome, d.reason).toBe("deny");
    expect(d.path).toBe(path.join(lab.ws, ".git", "hooks", "pre-commit"));
    expect(d.warnings.map((w) => w.id)).toEqual(["sensitive-path"]);
  });

  it("one with several hard links still needs a rule that names it, and the approval carries the hard-link warning", () => {
    const lab = newLab();
    writeFileSync(path.join(lab.out, "shared"), "export SAFE=1\n");
    linkSync(path.join(lab.out, "shared"), path.join(lab.ws, ".envrc"));
    const broad = decidePath(".envrc", context(lab), rules(["Write(**)"]), "deny-all", lib);
    expect(broad.outcome, broad.reason).toBe("deny");
    expect(broad.warnings.map((w) => w.id)).toEqual(["sensitive-path", "hard-linked"]);
    expect(broad.reason).toContain("2 hard links");
    expect(broad.suggestedRules).toEqual([`Write(${path.join(lab.ws, ".envrc")})`]);
    expect(decidePath(".envrc", context(lab), rules(), "ask", lib).outcome).toBe("ask");
    const named = decidePath(".envrc", context(lab), rules(["Write(.envrc)"]), "deny-all", lib);
    expect(named.outcome).toBe("allow");
    expect(named.warnings.map((w) => w.id)).toEqual(["hard-linked"]);
    const all = decidePath(".envrc", context(lab), rules(), "allow-all", lib);
    expect(all.outcome).toBe("allow");
    expect(all.warnings.map((w) => w.id)).toEqual(["sensitive-path", "hard-linked"]);
  });

  it("ordinary project files stay allowed without a question", () => {
    const lab = newLab();
    for (const rel of ["src/index.ts", "package.json", "README.md", ".gitignore", "config", "git/config", ".github/workflows/ci.yml", ".env.example"]) {
      expect(decidePath(rel, context(lab), rules(), "deny-all", lib).outcome, rel).toBe("allow");
    }
  });

  it("what they run: a .git/config written with a file tool runs code on the next git status", async () => {
    const lab = newLab();
    await gitRepo(lab);
    await runIn("bash", `printf '[core]\\n\\tfsmonitor = touch ${lab.mark}\\n' >> .git/config`, lab, {});
    await runIn("bash", "git status", lab, {});
    expect(existsSync(lab.mark)).toBe(true);
  });

  const writers: Attack[] = [
    {
      command: "cp evil .git/hooks/pre-commit && git commit --allow-empty -qm x",
      shells: ["bash"],
      allow: ["cp:*", "git commit:*"],
      mode: "ask",
      expect: "ask",
      askedWhenSandboxed: true,
      setup: (lab) => writeScript(path.join(lab.ws, "evil"), `touch ${lab.mark}`),
    },
    {
      command: "echo 'touch MARK' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; git commit --allow-empty -qm x",
      shells: ["bash"],
      allow: ["echo *", "chmod:*", "git commit:*"],
      mode: "ask",
      expect: "ask",
    },
    { command: "git config core.fsmonitor 'touch MARK' && git status", shells: [], allow: ["git config:*", "git status"], mode: "ask", expect: "ask" },
    // A dangling link prepared earlier: the hook does not exist yet, so only following the link
    // (not resolving as far as the path exists) shows what the redirection and chmod reach.
    {
      command: "echo 'touch MARK' > notes; chmod +x notes; git commit --allow-empty -qm x",
      shells: ["bash"],
      allow: ["echo *", "chmod:*", "git commit:*"],
      mode: "ask",
      expect: "ask",
      askedWhenSandboxed: true,
      setup: (lab) => symlinkSync(".git/hooks/pre-commit", path.join(lab.ws, "notes")),
    },
  ];
  it.each(writers.map((a) => [a.command, a] as const))("a command writing one is asked: %s", async (_name, attack) => {
    await check(attack, true);
  });
});

describe("/dev/shm and other shared places are not harmless devices", () => {
  const shmFile = `/dev/shm/wave-attack-${process.pid}`;
  afterAll(() => rmSync(shmFile, { force: true }));
  const inShm: Omit<Attack, "command" | "shells"> = { proof: () => existsSync(shmFile), setup: () => rmSync(shmFile, { force: true }), askedWhenSandboxed: false };
  const attacks: Attack[] = [
    { ...inShm, command: `echo x > ${shmFile}`, shells: ["bash", "zsh"] },
    { ...inShm, command: `: >> ${shmFile}`, shells: ["bash", "zsh"] },
    { ...inShm, command: `printf x >| ${shmFile}`, shells: ["bash", "zsh"] },
    { ...inShm, command: `true &> ${shmFile}`, shells: ["bash"] },
    { ...inShm, command: `echo x | tee ${shmFile}`, shells: ["bash", "zsh"], allow: ["tee:*"], mode: "ask", expect: "ask" },
    {
      ...inShm,
      command: `cat in.txt > ${shmFile}`,
      shells: ["bash", "zsh"],
      allow: ["cat:*"],
      mode: "ask",
      expect: "ask",
      setup: (lab) => (rmSync(shmFile, { force: true }), writeFileSync(path.join(lab.ws, "in.txt"), "x")),
    },
    {
      ...inShm,
      command: `cp in.txt ${shmFile}`,
      shells: ["bash", "zsh"],
      allow: ["cp:*"],
      mode: "ask",
      expect: "ask",
      setup: (lab) => (rmSync(shmFile, { force: true }), writeFileSync(path.join(lab.ws, "in.txt"), "x")),
    },
    { ...inShm, command: `touch ${shmFile}`, shells: ["bash", "zsh"], allow: ["touch:*"], mode: "ask", expect: "ask" },
    { ...inShm, command: `dd if=/dev/zero of=${shmFile} count=1`, shells: ["bash", "zsh"], allow: ["dd:*"], mode: "ask", expect: "ask" },
  ];
  it.each(attacks.map((a) => [a.command, a] as const))("%s", async (_name, attack) => {
    await check(attack);
  });

  it("writing a file there is an ordinary write outside the workspace, not a disk device", () => {
    const lab = newLab();
    const d = decideCommand(`echo x > ${shmFile}`, context(lab), rules(["echo *"]), "ask", lib, { sandboxed: false });
    expect(d.warnings.map((w) => w.id)).toEqual(["write-outside-workspace"]);
  });
});

describe("deny rules and code no reading can see", () => {
  it("a fish or csh -c string is read for the commands in it", () => {
    const lab = newLab();
    for (const command of ["fish -c 'rm -f victim'", "tcsh -c 'rm -f victim'"]) {
      expect(decideCommand(command, context(lab), rules([], ["rm:*"]), "allow-all", lib).outcome, command).toBe("deny");
    }
  });

  it("code hidden outside any simple command is denied where a deny rule exists", () => {
    const lab = newLab();
    const d = decideCommand("x='a[$(rm -f victim)]'; case $((x)) in *) ;; esac", context(lab), rules([], ["rm:*"]), "allow-all", lib);
    expect(d.outcome).toBe("deny");
    expect(decideCommand("case $1 in *) ;; esac", context(lab), rules([], ["rm:*"]), "allow-all", lib).outcome).toBe("allow");
  });
});
