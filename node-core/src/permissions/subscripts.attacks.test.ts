// Issue 23 §1: words bash and zsh evaluate as code although they look like data — an
// assignment's subscript (`a['$(cmd)']=1`), the values an integer variable is given, declaration
// operands, zsh's counts and widths. Each case first runs in the real shells it names, as root and
// as the unprivileged test account, to prove that the shell really runs the hidden command (it
// creates a marker); then the gate must deny it in deny-all, let a command deny rule stop it, and
// ask for it even inside the sandbox (a dynamic-command warning). Harmless look-alikes stay harmless.
import { spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideCommand, type DecideContext } from "./decide.js";
import { parseRule } from "./rules.js";
import { loadSyntax, type SyntaxLibraries } from "../util/bashSyntax.js";
import { testAccounts, type TestAccount } from "../../test/support/testUser.js";

type Shell = "bash" | "zsh";
const SHELL_PATH: Record<Shell, string> = { bash: "/bin/bash", zsh: "/usr/bin/zsh" };

let lib: SyntaxLibraries;
const dirs: string[] = [];
beforeAll(async () => {
  lib = await loadSyntax();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A directory the account owns, with a workspace and a home in it. */
function lab(account: TestAccount): { ws: string; home: string; mark: string } {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-subscript-")));
  dirs.push(base);
  const ws = path.join(base, "ws");
  const home = path.join(base, "home");
  for (const d of [ws, home]) mkdirSync(d);
  for (const d of [base, ws, home]) chownSync(d, account.uid, account.gid);
  return { ws, home, mark: path.join(base, "MARK") };
}

function run(account: TestAccount, shell: Shell, command: string, where: { ws: string; home: string }): Promise<void> {
  const [file, ...args] = account.wrap([SHELL_PATH[shell], "-c", command]);
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, { cwd: where.ws, env: { PATH: "/usr/bin:/bin", HOME: where.home }, stdio: "ignore", timeout: 15_000 });
    child.on("error", reject);
    child.on("exit", () => resolve());
  });
}

const context = (l: { ws: string; home: string }): DecideContext => ({
  cwd: l.ws,
  root: l.ws,
  allowedDirectories: [l.ws],
  home: l.home,
  tempDir: os.tmpdir(),
  searchPath: ["/usr/bin", "/bin"],
});

/** The hidden command: a marker file. */
const P = "a[$(touch MARK)]";
const fill = (command: string, mark: string) => command.replace(/MARK/g, mark);

interface Case {
  command: string;
  /** The shells that really run the hidden command (proved first). */
  shells: Shell[];
}

const cases: Case[] = [
  // The list: assignments with a subscript…
  { command: `a['$(touch MARK)']=1`, shells: ["bash", "zsh"] },
  { command: `a['$(touch MARK)']+=1`, shells: ["bash", "zsh"] },
  { command: `a=(['$(touch MARK)']=1)`, shells: ["bash"] },
  { command: `a+=(['$(touch MARK)']=1)`, shells: ["bash"] },
  { command: `b=1 a['$(touch MARK)']=1`, shells: ["bash", "zsh"] },
  // … declarations with subscripts or -i …
  { command: `declare a['$(touch MARK)']=1`, shells: ["bash", "zsh"] },
  { command: `typeset a['$(touch MARK)']=1`, shells: ["bash", "zsh"] },
  { command: `f() { local a['$(touch MARK)']=1; }; f`, shells: ["bash"] },
  { command: `a=(1); export a['$(touch MARK)']=1`, shells: ["zsh"] },
  { command: `a=(1); declare -i x='${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); typeset -i x='${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); declare -i x; x='${P}'`, shells: ["bash"] },
  { command: `a=(1); declare -ai v=('${P}')`, shells: ["bash"] },
  // … read, mapfile, unset, let …
  { command: `a=(1); declare -i x; read x <<< '${P}'`, shells: ["bash"] },
  { command: `a=(1); read -A '${P}' <<< x`, shells: ["zsh"] },
  { command: `mapfile -C 'touch MARK #' -c 1 v <<< x`, shells: ["bash"] },
  { command: `a=(1); unset '${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); unset -v '${P}'`, shells: ["bash", "zsh"] },
  { command: `let '${P}=1'`, shells: ["bash", "zsh"] },
  // … and the zsh forms.
  { command: `a=(1); integer x='${P}'`, shells: ["zsh"] },
  { command: `a=(1); float x='${P}'`, shells: ["zsh"] },
  { command: `a=(1); local -i x='${P}'`, shells: ["zsh"] },
  { command: `a=(1); integer x; x='${P}'`, shells: ["zsh"] },
  { command: `a=(1); integer x; read x <<< '${P}'`, shells: ["zsh"] },
  { command: `a['$(touch MARK)']=1 true`, shells: ["zsh"] },
  { command: `typeset -A m; m['$(touch MARK)']=1`, shells: ["zsh"] },
  // Variants beyond the list, each found by reading the manuals and proved here.
  { command: `a=(1); for OPTIND in '${P}'; do :; done`, shells: ["bash", "zsh"] },
  { command: `a=(1); select OPTIND in '${P}'; do break; done <<< 1`, shells: ["bash", "zsh"] },
  { command: `a=(1); read OPTIND <<< '${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); read RANDOM <<< '${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); printf -v OPTIND %s '${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); RANDOM+='${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); SAVEHIST='${P}'`, shells: ["zsh"] },
  { command: `a=(1); ERRNO='${P}'`, shells: ["zsh"] },
  { command: `a=(1); SRANDOM='${P}'`, shells: ["bash"] },
  { command: `a=(1); HISTCMD='${P}'`, shells: ["bash"] },
  { command: `a=(1); declare -ir y='${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); typeset -i x=1; x[1]='${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); typeset -i 16 x='${P}'`, shells: ["bash", "zsh"] },
  { command: `a=(1); typeset -Z '${P}' x=1`, shells: ["zsh"] },
  { command: `a=(1); local -L '${P}' x`, shells: ["zsh"] },
  { command: `a=(1); declare -n r='${P}'; r=1`, shells: ["bash"] },
  { command: `a=(1); repeat '${P}' echo`, shells: ["zsh"] },
  { command: `a=(1); print -f '%d' '${P}'`, shells: ["zsh"] },
  { command: `a[$'\\x24(touch MARK)']=1`, shells: ["bash"] },
  { command: `a=(1); echo -n \${a[@]:'${P}'}`, shells: ["bash", "zsh"] },
];

describe("issue 23 §1: subscripts, integer variables and declaration operands are code (real bash and zsh)", () => {
  for (const account of testAccounts()) {
    it.each(cases.map((c) => [c.command, c] as const))(`${account.label}: %s`, async (_name, c) => {
      for (const shell of c.shells) {
        const l = lab(account);
        await run(account, shell, fill(c.command, l.mark), l);
        expect(existsSync(l.mark), `${shell} as ${account.label} really runs the hidden command: ${c.command}`).toBe(true);
      }
      const l = lab(account);
      const command = fill(c.command, l.mark);
      const ctx = context(l);
      const denyAll = decideCommand(command, ctx, { allow: [], deny: [] }, "deny-all", lib, { sandboxed: false });
      expect(denyAll.outcome, denyAll.reason).toBe("deny");
      const denied = decideCommand(command, ctx, { allow: [], deny: [parseRule("touch:*", lib)] }, "ask", lib, { sandboxed: false });
      expect(denied.outcome, `a deny rule for touch stops it: ${denied.reason}`).toBe("deny");
      const sandboxed = decideCommand(command, ctx, { allow: [], deny: [] }, "ask", lib, { sandboxed: true });
      if (!c.command.startsWith("mapfile")) {
        // Code hidden in a word: a warning, so even a sandboxed run is asked.
        expect(sandboxed.outcome, sandboxed.reason).toBe("ask");
        expect(sandboxed.warnings.map((w) => w.id)).toContain("dynamic-command");
      } else {
        // mapfile's callback is read as the command it is: `touch` is a part of its own.
        expect(sandboxed.parts.map((p) => p.via?.[0])).toContain("mapfile -C");
      }
    });
  }

  it("the forms neither shell evaluates here are not harmless built-ins either (readonly, read -a, mapfile NAME)", () => {
    const ctx = context({ ws: os.tmpdir(), home: os.tmpdir() });
    for (const command of [`readonly a['$(touch MARK)']=1`, `read -a '${P}' <<< x`, `mapfile '${P}' <<< x`, `a[i]=1`, `m[key]=1`, `a=([k]=v)`]) {
      const d = decideCommand(command, ctx, { allow: [], deny: [] }, "deny-all", lib, { sandboxed: false });
      expect(d.outcome, `${command}: ${d.reason}`).toBe("deny");
    }
  });

  it("plain assignments, literal-number subscripts and integers given literal numbers stay harmless or warning-free", () => {
    const ctx = context({ ws: os.tmpdir(), home: os.tmpdir() });
    for (const command of ["a=(1 2 3)", "a[0]=x", "a[ 1 ]+=y", "a=([0]=x [1]=y)", "x=1; y=$x", "SECONDS=0", "OPTIND=1", "for i in 1 2; do echo $i; done", "set -euo pipefail"]) {
      const d = decideCommand(command, ctx, { allow: [], deny: [] }, "deny-all", lib, { sandboxed: false });
      expect(d.outcome, `${command}: ${d.reason}`).toBe("allow");
    }
    for (const command of ["declare -i n=5", "declare -i n; n=5", "typeset -A m; m[key]=1", 'while read -r LINE; do echo "$LINE"; done < f', "integer n; for n in 1 2; do echo $n; done"]) {
      const d = decideCommand(command, ctx, { allow: [], deny: [] }, "ask", lib, { sandboxed: true });
      expect(d.warnings, command).toEqual([]);
      expect(d.outcome, `${command}: ${d.reason}`).toBe("allow");
    }
  });
});
