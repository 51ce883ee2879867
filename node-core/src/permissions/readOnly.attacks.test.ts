// Issue 23 §3: the read-only list (ask mode, no sandbox) judges what a command really reads. Each
// case first runs in real bash, as root and as the unprivileged test account, and prints a
// credential it was not given by name — through a symlink, /proc/self/root, a descriptor, an
// input redirection, a glob or an option's value; then the gate must ask instead of letting the
// read-only list allow it. Ordinary reads stay allowed.
import { spawnSync } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideCommand, type DecideContext } from "./decide.js";
import { loadSyntax, type SyntaxLibraries } from "../util/bashSyntax.js";
import { testAccounts, type TestAccount } from "../../test/support/testUser.js";

const SECRET = "PRIVATE-KEY-MATERIAL";
let lib: SyntaxLibraries;
const dirs: string[] = [];
beforeAll(async () => {
  lib = await loadSyntax();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Lab {
  ws: string;
  home: string;
}

/** A home with credentials and a workspace whose innocent names lead to them, all owned by the account. */
function lab(account: TestAccount): Lab {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-readonly-")));
  dirs.push(base);
  const ws = path.join(base, "ws");
  const home = path.join(base, "home");
  for (const d of [ws, path.join(home, ".ssh"), path.join(home, ".aws"), path.join(home, ".config", "gh")]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(home, ".ssh", "id_ed25519"), SECRET);
  writeFileSync(path.join(home, ".aws", "credentials"), SECRET);
  writeFileSync(path.join(home, ".config", "gh", "hosts.yml"), SECRET);
  writeFileSync(path.join(home, ".vault-token"), SECRET);
  writeFileSync(path.join(ws, "README.md"), "hello");
  symlinkSync(path.join(home, ".ssh", "id_ed25519"), path.join(ws, "notes.txt"));
  symlinkSync(path.join(home, ".aws"), path.join(ws, "cloud"));
  symlinkSync("notes.txt", path.join(ws, "chained.txt"));
  spawnSync("chown", ["-R", `${account.uid}:${account.gid}`, base]);
  chownSync(base, account.uid, account.gid);
  return { ws, home };
}

function runBash(account: TestAccount, command: string, l: Lab): string {
  const [file, ...args] = account.wrap(["/bin/bash", "-c", command]);
  const r = spawnSync(file!, args, { cwd: l.ws, env: { PATH: "/usr/bin:/bin", HOME: l.home }, encoding: "utf8", timeout: 15_000 });
  return r.stdout;
}

const context = (l: Lab): DecideContext => ({
  cwd: l.ws,
  root: l.ws,
  allowedDirectories: [l.ws],
  home: l.home,
  homes: [l.home],
  tempDir: os.tmpdir(),
  stateDirectories: [path.join(l.home, ".wave")],
  searchPath: ["/usr/bin", "/bin"],
});

const fill = (c: string, l: Lab) => c.replace(/HOMEDIR/g, l.home).replace(/\bWS\b/g, l.ws);

/** Each prints the secret in real bash; today's main let the read-only list run them without a question. */
const leaks = [
  // The two.
  "cat notes.txt",
  "cat /proc/self/root/HOMEDIR/.ssh/id_ed25519",
  // More of the same class.
  "cat chained.txt",
  "head -c 100 ./notes.txt",
  "cat cloud/credentials",
  "cat /proc/self/cwd/notes.txt",
  "cat /proc/thread-self/root/HOMEDIR/.ssh/id_ed25519",
  "cat < HOMEDIR/.ssh/id_ed25519",
  "cat /dev/fd/3 3< notes.txt",
  "cat HOMEDIR/.s*/id_ed25519",
  "cat HOMEDIR/.ss?/*",
  "diff --from-file=HOMEDIR/.ssh/id_ed25519 README.md",
  "diff README.md --to-file=cloud/credentials",
  // Stores of the shared list (base/credentials.ts) the gate's own regexes never had.
  "cat HOMEDIR/.config/gh/hosts.yml",
  "cat HOMEDIR/.vault-token",
];

describe("issue 23 §3: the read-only list resolves what a command reads (real bash)", () => {
  for (const account of testAccounts()) {
    it.each(leaks)(`${account.label}: %s`, (command) => {
      const l = lab(account);
      const c = fill(command, l);
      expect(runBash(account, c, l), `bash as ${account.label} prints the secret: ${c}`).toContain(SECRET);
      const d = decideCommand(c, context(l), { allow: [], deny: [] }, "ask", lib, { sandboxed: false });
      expect(d.outcome, `${c}: ${d.reason}`).toBe("ask");
      expect(d.parts.some((p) => p.rule === "(read-only)")).toBe(false);
    });
  }

  it("ordinary reads stay on the list: workspace files, /proc files that are not a process's own, listing the home", () => {
    const [account] = testAccounts();
    const l = lab(account!);
    for (const command of ["cat README.md", "head -n 1 WS/README.md", "cat /proc/cpuinfo", "ls HOMEDIR", "wc -l ./*.md", "grep -r hello ."]) {
      const d = decideCommand(fill(command, l), context(l), { allow: [], deny: [] }, "ask", lib, { sandboxed: false });
      expect(d.outcome, `${command}: ${d.reason}`).toBe("allow");
    }
  });
});
