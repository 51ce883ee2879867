import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { splitCommand } from "./commandParts.js";
import { commandRuleMatches, parseRule, pathRuleMatches, quoteWord, RuleSyntaxError, suggestRule, type CommandRule, type PathRule } from "./rules.js";
import { loadSyntax, type SyntaxLibraries } from "../util/bashSyntax.js";
import { scratchDir } from "../../test/support/scratch.js";

let lib: SyntaxLibraries;
beforeAll(async () => {
  lib = await loadSyntax();
});

const rule = (text: string) => parseRule(text, lib);
const commandRule = (text: string) => rule(text) as CommandRule;
function part(command: string) {
  // The command itself is the last part (substitutions come first).
  return splitCommand(command, lib, { cwd: "/ws", home: "/home/me" }).parts.at(-1)!;
}
const matches = (ruleText: string, command: string) => {
  const p = part(command);
  return commandRuleMatches(commandRule(ruleText), p.assignments, p.words);
};

describe("parseRule", () => {
  it.each<[string, Partial<CommandRule>]>([
    ["git status", { text: "git status", words: ["git", "status"], match: "exact", colon: false }],
    ["  git   status  ", { text: "git status", match: "exact" }],
    ["Bash(git status)", { text: "git status", match: "exact" }],
    ["npm run test:*", { text: "npm run test:*", words: ["npm", "run", "test"], match: "prefix", colon: true }],
    ["git log *", { text: "git log *", words: ["git", "log"], match: "prefix", colon: false }],
    ["Bash(npm run build:*)", { text: "npm run build:*", match: "prefix" }],
    ["git commit -m 'a b'", { words: ["git", "commit", "-m", "a b"], text: "git commit -m 'a b'" }],
    ['echo "x"', { words: ["echo", "x"], text: "echo x" }],
    ["CI=1 npm test", { assignments: ["CI=1"], words: ["npm", "test"], text: "CI=1 npm test" }],
    ["run_shell_command(make)", { text: "make" }],
  ])("%j", (text, expected) => {
    expect(rule(text)).toMatchObject({ type: "command", ...expected });
  });

  it("reads path rules", () => {
    expect(rule("Write(/tmp/out/**)")).toEqual({ type: "path", text: "Write(/tmp/out/**)", pattern: "/tmp/out/**", access: "write" });
    expect(rule("Edit(~/notes/*.md)")).toEqual({ type: "path", text: "Write(~/notes/*.md)", pattern: "~/notes/*.md", access: "write" });
    // Reads by the file tools: Grep(…) and Glob(…) are the same rule as Read(…).
    expect(rule("Read(~/.ssh/config)")).toEqual({ type: "path", text: "Read(~/.ssh/config)", pattern: "~/.ssh/config", access: "read" });
    expect(rule("Grep(~/.aws/**)")).toEqual({ type: "path", text: "Read(~/.aws/**)", pattern: "~/.aws/**", access: "read" });
  });

  it.each([
    ["", /cannot be empty/],
    ["*", /allow-all/],
    [":*", /allow-all/],
    ["git status && rm -rf ~", /one simple command/],
    ["a | b", /one simple command/],
    ["a; b", /one simple command/],
    ["sleep 1 &", /one simple command/],
    ["(ls)", /one simple command/],
    ["echo $(id)", /not a plain word/],
    ["rm $DIR", /not a plain word/],
    ["ls *.txt", /not a plain word/],
    ["X=$Y make", /not a plain word/],
    ["git log > out", /redirections/],
    ["echo 'open", /unterminated/],
    ["Fetch(/etc)", /not a rule kind/],
    ["Read()", /needs a path/],
    ["Write()", /needs a path/],
  ])("rejects %j with a reason", (text, reason) => {
    expect(() => rule(text)).toThrow(RuleSyntaxError);
    expect(() => rule(text)).toThrow(reason);
  });
});

describe("command rule matching", () => {
  it.each<[string, string, boolean]>([
    ["git status", "git status", true],
    ["git status", "git  status", true],
    ["git status", "'git' \"status\"", true],
    ["git status", "git status --short", false],
    ["git status", "git", false],
    ["git status:*", "git status --short", true],
    ["git status:*", "git status", true],
    ["git status:*", "git statusx", false],
    ["npm run test:*", "npm run test", true],
    ["npm run test:*", "npm run test:unit -- --watch", true],
    ["npm run test:*", "npm run testing", false],
    ["npm run test:*", "npm run build", false],
    ["git log *", "git log --oneline -5", true],
    ["git log *", "git log", true],
    ["git log *", "git logs", false],
    ["npm test", "CI=1 npm test", false],
    ["CI=1 npm test", "CI=1 npm test", true],
    ["CI=1 npm test", "CI=2 npm test", false],
    ["git log *", "git log $(rm -rf ~)", true],
    ["git status", "$GIT status", false],
    ["git status", "sudo git status", false],
    ["rm -rf build", "rm -rf build", true],
    ["rm -rf build", "rm -rf $X", false],
  ])("%j covers %j: %s", (ruleText, command, expected) => {
    expect(matches(ruleText, command)).toBe(expected);
  });
});

describe("path rules", () => {
  let base: string;
  let ctx: { root: string; home: string };
  beforeAll(() => {
    base = scratchDir("wave-rules-");
    ctx = { root: path.join(base, "ws"), home: path.join(base, "home") };
    for (const d of ["ws", "home/notes", "out/deep", "real"]) mkdirSync(path.join(base, d), { recursive: true });
    symlinkSync(path.join(base, "real"), path.join(base, "link"));
  });
  const covers = (pattern: string, target: string) => pathRuleMatches(rule(`Write(${pattern})`) as PathRule, target, ctx, lib);

  it("matches exact files, directories and globs after resolving ~, relative paths and symlinks", () => {
    expect(covers(`${base}/out/a.txt`, `${base}/out/a.txt`)).toBe(true);
    expect(covers(`${base}/out/a.txt`, `${base}/out/b.txt`)).toBe(false);
    expect(covers(`${base}/out/`, `${base}/out/deep/x`)).toBe(true);
    expect(covers(`${base}/out/**`, `${base}/out/deep/x`)).toBe(true);
    expect(covers(`${base}/out/*`, `${base}/out/deep/x`)).toBe(false);
    expect(covers(`${base}/out/*`, `${base}/out/x`)).toBe(true);
    expect(covers("~/notes/*.md", `${ctx.home}/notes/today.md`)).toBe(true);
    expect(covers("~/notes/*.md", `${ctx.home}/notes/today.txt`)).toBe(false);
    expect(covers("~/notes/*.md", `${ctx.home}/.hidden/x.md`)).toBe(false);
    expect(covers("../out/**", `${base}/out/x`)).toBe(true);
    expect(covers(`${base}/link/**`, `${base}/real/file`)).toBe(true);
    expect(covers(`${base}/link/f`, `${base}/real/f`)).toBe(true);
    expect(covers("**/.env", `${ctx.root}/pkg/.env`)).toBe(true);
  });
});

describe("suggestRule: what Always allow offers", () => {
  const suggest = (command: string, warned = false) => {
    const p = part(command);
    return suggestRule(p, { warnings: warned, fileRedirect: p.redirects.some((r) => r.operator === ">") });
  };
  it.each<[string, boolean, string | undefined]>([
    ["git status", false, "git status:*"],
    ["git status --short", false, "git status:*"],
    ["ls -la src", false, "ls:*"],
    ["cat README.md", false, "cat:*"],
    ["npm run test:unit -- --watch", false, "npm run test:unit:*"],
    ["npm run build", false, "npm run build:*"],
    ["pnpm exec vitest run", false, "pnpm exec vitest:*"],
    ["npm test", false, "npm test:*"],
    ["make", false, "make:*"],
    ["make build", false, "make:*"],
    ["echo hi", false, "echo:*"],
    ["cargo build --release", false, "cargo build:*"],
    ["CI=1 npm test", false, "CI=1 npm test:*"],
    ["echo hi > out.txt", false, "echo:*"],
    ["rm -rf build", false, "rm -rf build"],
    ["rm -rf $DIR", true, undefined],
    ["python3 script.py", false, "python3 script.py"],
    ["sudo apt-get update", true, "sudo apt-get update"],
    ["git push --force", true, "git push --force"],
    ["git log --oneline > /etc/x", true, "git log --oneline *"],
    ["$CMD run", false, undefined],
    ["find . -name '*.o'", false, "find . -name '*.o'"],
  ])("%j (warnings: %s) → %j", (command, warned, expected) => {
    expect(suggest(command, warned)).toBe(expected);
  });

  it("offers only rules that parse back and cover the command", () => {
    for (const command of ["git commit -m 'fix: a b'", "npm run test:unit", "rm -rf 'a dir'", "echo ~/x"]) {
      const s = suggest(command)!;
      const p = part(command);
      expect(commandRuleMatches(commandRule(s), p.assignments, p.words), `${command} → ${s}`).toBe(true);
    }
  });

  it("quotes only what needs quoting", () => {
    expect(quoteWord("npm")).toBe("npm");
    expect(quoteWord("~/x")).toBe("~/x");
    expect(quoteWord("a b")).toBe("'a b'");
    expect(quoteWord("it's")).toBe("'it'\\''s'");
    expect(quoteWord("")).toBe("''");
    expect(quoteWord("~root")).toBe("'~root'");
  });
});
