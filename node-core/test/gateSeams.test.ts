// Issue 23 and 26, the gate's seams: where no sandbox runs (or a call sets
// dangerouslyDisableSandbox), ask mode lets the read-only list run without a question, and the
// file tools read without one. Neither may hand out a credential or run code that a file in the
// workspace names. Attacked through the bundled core, as root and as the unprivileged test
// account, with a host that cannot be asked: whatever needs a question is denied, so anything
// that runs (or reads) here ran without one.
//  - git's configuration runs programs (core.fsmonitor on `git status`, core.pager, textconv):
//    a repository carried inside the workspace — a nested clone, a bare repository, a `.git` file
//    leading elsewhere — is not the user's, and `git status` there is not a quick read;
//  - a hard link is the file it links to: `ln ~/.ssh/id_ed25519 notes.txt` makes `notes.txt` the
//    key, for Read, Grep and `cat` alike, and a link renamed into place after the check is caught
//    when the file is opened.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledCoreLab, CoreProcess } from "./support/coreProcess.js";
import { testAccounts, type TestAccount } from "./support/testUser.js";

const SECRET = "TOKEN-9b2e71";
const { cores, dirs, bundle } = bundledCoreLab();

interface Lab {
  base: string;
  ws: string;
  home: string;
  marker: string;
}

function sh(account: TestAccount, script: string, cwd?: string): string {
  const [file, ...args] = account.wrap(["sh", "-c", script]);
  const r = spawnSync(file!, args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
  if (r.status !== 0) throw new Error(`${script}: ${r.stderr}`);
  return r.stdout;
}

function lab(account: TestAccount): Lab {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-gateseams-")));
  dirs.push(base);
  const ws = path.join(base, "ws");
  const home = path.join(base, "home");
  for (const d of [ws, path.join(home, ".ssh"), path.join(home, ".aws")]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(home, ".ssh", "id_ed25519"), `-----BEGIN OPENSSH PRIVATE KEY----- ${SECRET}\n`);
  writeFileSync(path.join(home, ".aws", "credentials"), `aws_secret_access_key = ${SECRET}\n`);
  writeFileSync(path.join(ws, "README"), "plain\n");
  spawnSync("chown", ["-R", `${account.uid}:${account.gid}`, base]);
  return { base, ws, home, marker: path.join(base, "pwned") };
}

async function start(account: TestAccount, l: Lab, args: string[] = []): Promise<CoreProcess> {
  const core = new CoreProcess(["serve", "--root", l.ws, "--sandbox", "off", "--permission-mode", "ask", ...args], {
    bundle,
    wrap: account.wrap,
    cwd: l.ws,
    env: { HOME: l.home, WAVE_STATE_DIR: undefined, WAVE_LOGIN_ENV: "0", GIT_CONFIG_NOSYSTEM: "1" },
  });
  cores.push(core);
  const init = await core.request("initialize", {});
  expect(init.error).toBeUndefined();
  return core;
}

const call = async (core: CoreProcess, name: string, args: object) => (await core.request("tools/call", { name, arguments: args })).result;
const text = (r: { content: Array<{ text?: string }> }) => r.content.map((c) => c.text ?? "").join("\n");

/** A repository whose configuration runs `touch marker` on git status (fsmonitor), on a pager, and on a diff (textconv). */
function evilConfig(marker: string): string {
  return ["[core]", "\trepositoryformatversion = 0", `\tfsmonitor = "touch ${marker}; false"`, `\tpager = "touch ${marker}; cat"`, '[diff "x"]', `\ttextconv = "touch ${marker}; cat"`, ""].join("\n");
}

/** fixtures/evil.git: a bare repository (what an archive or a checked-in fixture can carry) whose work tree is its parent, so git status there runs its fsmonitor. */
function bareRepository(account: TestAccount, l: Lab): void {
  const g = "git -C fixtures/evil.git config";
  sh(account, `git init -q --bare fixtures/evil.git && ${g} core.bare false && ${g} core.worktree .. && ${g} core.fsmonitor "touch ${l.marker}; false"`, l.ws);
}

describe("issue 26: git run in a repository the workspace carries is not a quick read (no sandbox)", () => {
  for (const account of testAccounts()) {
    it(`${account.label}: a nested clone, a bare repository with a work tree, a .git file leading elsewhere: asked, and nothing runs`, async () => {
      const l = lab(account);
      // The workspace's own repository, plain: git status there stays a read.
      sh(account, "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init", l.ws);
      // vendor/x: a nested clone whose config runs a program on every git status.
      sh(account, "mkdir -p vendor/x && cd vendor/x && git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x", l.ws);
      writeFileSync(path.join(l.ws, "vendor/x/.git/config"), evilConfig(l.marker));
      bareRepository(account, l);
      // linked/: a .git file leading to a git directory outside the workspace's repository.
      sh(
        account,
        `mkdir -p linked ../elsewhere && git init -q --bare ../elsewhere/g.git && git -C ../elsewhere/g.git config core.bare false && git -C ../elsewhere/g.git config core.fsmonitor "touch ${l.marker}; false" && printf 'gitdir: ../../elsewhere/g.git\\n' > linked/.git`,
        l.ws,
      );
      spawnSync("chown", ["-R", `${account.uid}:${account.gid}`, l.base]);
      const core = await start(account, l);
      // Sanity: the workspace's own repository is read without a question.
      const own = await call(core, "Bash", { command: "git status --short" });
      expect(own.isError, text(own)).toBe(false);
      expect(existsSync(l.marker)).toBe(false);
      const attacks = [
        "cd vendor/x && git status",
        "cd vendor/x && git log -1",
        "cd vendor/x/src 2>/dev/null || cd vendor/x && git diff",
        "cd fixtures/evil.git && git status",
        "cd fixtures/evil.git/refs && git status",
        "cd linked && git status",
      ];
      for (const command of attacks) {
        const r = await call(core, "Bash", { command });
        expect(existsSync(l.marker), `${command} ran the repository's fsmonitor: ${text(r)}`).toBe(false);
        expect(r.isError, `${command}: ${text(r)}`).toBe(true);
        expect(r.structuredContent.errorKind, command).toBe("denied_by_policy");
      }
      // The session's directory moved into the nested clone by an earlier (harmless) cd.
      const cd = await call(core, "Bash", { command: "cd vendor/x" });
      expect(cd.isError, text(cd)).toBe(false);
      const r = await call(core, "Bash", { command: "git status" });
      expect(existsSync(l.marker), text(r)).toBe(false);
      expect(r.structuredContent.errorKind).toBe("denied_by_policy");
    });

    it(`${account.label}: dangerouslyDisableSandbox does not make such a git run a read either`, async () => {
      const l = lab(account);
      bareRepository(account, l);
      const core = await start(account, l, ["--sandbox", "auto"]);
      const r = await call(core, "Bash", { command: "cd fixtures/evil.git && git status", dangerouslyDisableSandbox: true });
      expect(existsSync(l.marker), text(r)).toBe(false);
      expect(r.structuredContent.errorKind).toBe("denied_by_policy");
    });
  }
});

describe("issue 23: a hard link to a credential is the credential (no sandbox)", () => {
  for (const account of testAccounts()) {
    it(`${account.label}: Read, Grep and cat of a hard link to ~/.ssh/id_ed25519 or ~/.aws/credentials hand out nothing`, async () => {
      const l = lab(account);
      sh(account, `ln ${l.home}/.ssh/id_ed25519 ${l.ws}/notes.txt && mkdir -p ${l.ws}/docs && ln ${l.home}/.aws/credentials ${l.ws}/docs/setup.md`);
      const core = await start(account, l);
      const tries: Array<[string, object]> = [
        ["Read", { file_path: "notes.txt" }],
        ["Read", { file_path: "docs/setup.md" }],
        ["Grep", { pattern: "TOKEN-9b2e7.", path: "notes.txt", output_mode: "content" }],
        ["Grep", { pattern: "TOKEN-9b2e7.", path: "docs", output_mode: "content" }],
        ["Grep", { pattern: "TOKEN-9b2e7.", path: ".", output_mode: "content" }],
        ["Grep", { pattern: "TOKEN-9b2e7.", path: ".", output_mode: "files_with_matches" }],
        ["Read", { file_path: `/proc/self/root${l.ws}/notes.txt` }],
        ["Read", { file_path: `/proc/self/cwd/docs/setup.md` }],
        ["Bash", { command: "cat notes.txt" }],
        ["Bash", { command: `cat /proc/self/root${l.ws}/notes.txt` }],
        ["Bash", { command: "head -5 docs/setup.md" }],
        ["Bash", { command: "grep -r TOKEN ." }],
        ["Bash", { command: "cat docs/*.md" }],
      ];
      for (const [tool, args] of tries) {
        const r = await call(core, tool, args);
        expect(text(r), `${tool} ${JSON.stringify(args)}`).not.toMatch(new RegExp(`${SECRET}|PRIVATE KEY|aws_secret|notes\\.txt:|setup\\.md:`));
        if (tool === "Grep" && (args as { output_mode?: string }).output_mode === "files_with_matches") expect(r.structuredContent.filenames).toEqual([]);
      }
      // Each single file is refused as the store it is.
      const read = await call(core, "Read", { file_path: "notes.txt" });
      expect(read.structuredContent.errorKind).toBe("denied_by_policy");
      expect(text(read)).toMatch(/hard link/);
      // An ordinary file with several names is still read.
      sh(account, `printf 'plain text\\n' > ${l.ws}/a.txt && ln ${l.ws}/a.txt ${l.ws}/b.txt`);
      const plain = await call(core, "Read", { file_path: "b.txt" });
      expect(text(plain)).toContain("plain text");
      const cat = await call(core, "Bash", { command: "cat b.txt" });
      expect(text(cat)).toContain("plain text");
    });
  }

  for (const account of testAccounts()) {
    it(`${account.label}: a hard link renamed over an ordinary file between the check and the open is not read`, async () => {
      const l = lab(account);
      writeFileSync(path.join(l.ws, "a.txt"), "plain text\n");
      spawnSync("chown", ["-R", `${account.uid}:${account.gid}`, l.base]);
      const core = await start(account, l);
      // The account flips a.txt between a plain file and a second name of the key, by rename.
      const key = path.join(l.home, ".ssh", "id_ed25519");
      const flip = `cd ${l.ws} && end=$(($(date +%s) + 6)); while [ $(date +%s) -lt $end ]; do ln -f ${key} .k && mv -f .k a.txt; printf 'plain text\\n' > .p && mv -f .p a.txt; done`;
      const [file, ...args] = account.wrap(["sh", "-c", flip]);
      const flipper = spawn(file!, args, { stdio: "ignore" });
      const outcomes = new Map<string, number>();
      try {
        const until = Date.now() + 4000;
        while (Date.now() < until) {
          const r = await call(core, "Read", { file_path: "a.txt" });
          expect(text(r)).not.toContain(SECRET);
          const kind = r.isError ? r.structuredContent.errorKind : "read";
          outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
        }
      } finally {
        flipper.kill("SIGKILL");
      }
      // Plain reads went through; the key was refused, by the check or at the open.
      expect(outcomes.get("read") ?? 0, JSON.stringify([...outcomes])).toBeGreaterThan(0);
      expect((outcomes.get("denied_by_policy") ?? 0) + (outcomes.get("path_changed") ?? 0), JSON.stringify([...outcomes])).toBeGreaterThan(0);
    });
  }

  for (const account of testAccounts()) {
    it(`${account.label}: Grep of a folder into which a hard link to the key is renamed while it searches hands out nothing`, async () => {
      const l = lab(account);
      mkdirSync(path.join(l.ws, "docs"));
      for (let i = 0; i < 200; i++) writeFileSync(path.join(l.ws, "docs", `f${i}.md`), `plain TOKEN-9b2e7x ${i}\n`);
      spawnSync("chown", ["-R", `${account.uid}:${account.gid}`, l.base]);
      const core = await start(account, l);
      const key = path.join(l.home, ".ssh", "id_ed25519");
      const flip = `cd ${l.ws}/docs && end=$(($(date +%s) + 6)); while [ $(date +%s) -lt $end ]; do ln -f ${key} .k && mv -f .k zz.md; rm -f zz.md; done`;
      const [file, ...args] = account.wrap(["sh", "-c", flip]);
      const flipper = spawn(file!, args, { stdio: "ignore" });
      let runs = 0;
      try {
        const until = Date.now() + 4000;
        while (Date.now() < until) {
          const r = await call(core, "Grep", { pattern: "TOKEN-9b2e7.", path: "docs", output_mode: "content" });
          expect(text(r)).not.toContain(SECRET);
          runs++;
        }
      } finally {
        flipper.kill("SIGKILL");
      }
      expect(runs).toBeGreaterThan(3);
    });
  }
});
