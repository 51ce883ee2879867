// Without a sandbox, `ask` mode lets read-only commands with plain literal words run without a
// question, and nothing else: a write flag, a redirection, an expansion, a glob, a command run by
// another one, or a path into a credential store makes it ask again. With the sandbox the gate
// trusts the sandbox instead; deny-all and allow-all are unchanged.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { decideCommand, type DecideContext } from "./decide.js";
import { loadSyntax, type SyntaxLibraries } from "./syntax.js";

let lib: SyntaxLibraries;
let ctx: DecideContext;
beforeAll(async () => {
  lib = await loadSyntax();
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-readonly-")));
  const ws = path.join(base, "ws");
  const home = path.join(base, "home");
  for (const d of [ws, path.join(home, ".ssh"), path.join(home, ".aws")]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(home, ".ssh/id_ed25519"), "k");
  writeFileSync(path.join(home, ".aws/credentials"), "k");
  symlinkSync(path.join(home, ".aws/credentials"), path.join(ws, "innocent.txt"));
  ctx = { cwd: ws, root: ws, allowedDirectories: [ws], home, tempDir: path.join(base, "tmp") };
});

const none = { allow: [], deny: [] };
const decide = (command: string, sandboxed = false, mode: "ask" | "deny-all" | "allow-all" = "ask") => decideCommand(command, ctx, none, mode, lib, { sandboxed });

describe("read-only commands without a sandbox", () => {
  it.each([
    "ls -la src",
    "cat README.md",
    "head -n 20 src/a.ts",
    "tail -n 5 log.txt",
    "wc -l a b",
    "grep -rn needle src",
    "rg needle src",
    "find . -name '*.ts' -type f",
    "git status",
    "git log --oneline -5",
    "git diff HEAD~1 -- src",
    "git show HEAD",
    "stat package.json",
    "sleep 1",
    "cat a.txt | grep b | wc -l",
    "ls 2>/dev/null",
    "diff a b",
    "sort a.txt",
    "du -sh .",
    "cat ~/.ssh/id_ed25519.pub",
  ].filter((c) => !c.includes("~")))("runs without a question: %s", (command) => {
    const d = decide(command);
    expect(d.outcome, d.reason).toBe("allow");
    expect(d.reason).toMatch(/^It only reads/);
    expect(d.sandboxed).toBe(false);
  });

  it.each([
    ["a write flag", "git log --output=out.txt"],
    ["a write flag", "git diff --output out.txt"],
    ["a write flag", "sort -o out.txt in.txt"],
    ["a write flag, bundled", "sort -uo out.txt in.txt"],
    ["a write flag", "tree -o out.txt"],
    ["running commands", "find . -exec rm {} ;"],
    ["deleting", "find . -name x -delete"],
    ["writing a file", "find . -fprint out.txt"],
    ["a preprocessor", "rg --pre ./evil needle"],
    ["setting the clock", "date -s 2020-01-01"],
    ["a redirection", "cat a > b"],
    ["a redirection", "ls >> list.txt"],
    ["a variable", "cat $FILE"],
    ["a substitution", "cat $(echo a)"],
    ["a glob", "cat *.txt"],
    ["a tilde", "cat ~/notes"],
    ["a prefix assignment", "LESSOPEN='|evil %s' cat a"],
    ["a git global option", "git -c core.fsmonitor=evil status"],
    ["a git write command", "git commit -m x"],
    ["an unknown command", "make"],
    ["a wrapper", "xargs cat"],
    ["a shell", "bash -c 'cat a'"],
    ["a credential store", "cat /HOME/.ssh/id_ed25519"],
    ["a credential store", "cat /HOME/.aws/credentials"],
    ["a link to a credential store", "cat innocent.txt"],
    ["a recursive read of a folder holding credentials", "grep -r secret /HOME"],
    ["a recursive read of a folder holding credentials", "rg secret /"],
    ["a system secret", "cat /etc/shadow"],
  ])("asks for %s: %s", (_why, template) => {
    const command = template.replace("/HOME", ctx.home);
    expect(decide(command).outcome, command).toBe("ask");
  });

  it("is ask mode's only: deny-all still denies, a warning still asks, and inside the sandbox the sandbox decides", () => {
    expect(decide("ls", false, "deny-all").outcome).toBe("deny");
    expect(decide("cat a; git push --force", false).outcome).toBe("ask");
    expect(decide("make", true).reason).toMatch(/^It runs inside the sandbox/);
    expect(decide("ls", true).reason).toMatch(/^It runs inside the sandbox/);
  });
});
