// Issue 23 §2: what the sandbox hides from commands, the file tools do not hand the model without
// the user. The bundled core runs as root and as the unprivileged test account with a home full
// of credentials, a workspace whose innocent names lead to them, and a lock file with a token;
// Read, Grep and Glob must ask (deny in deny-all, or when nobody can be asked) unless a Read(…)
// rule names the place, and searches of a folder that holds such places go around them.
import { spawnSync } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledCoreLab, CoreProcess, type Message } from "./support/coreProcess.js";
import { isRoot, testAccounts, type TestAccount } from "./support/testUser.js";

const SECRET = "TOKEN-4f1c9e";
const { cores, dirs, bundle } = bundledCoreLab();

interface Lab {
  ws: string;
  home: string;
  lock: string;
}

function lab(account: TestAccount): Lab {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-reads-")));
  dirs.push(base);
  const ws = path.join(base, "ws");
  const home = path.join(base, "home");
  for (const d of [path.join(ws, "src"), path.join(home, ".ssh"), path.join(home, ".aws"), path.join(home, ".wave", "ide"), path.join(home, "notes")]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(home, ".ssh", "id_ed25519"), `-----BEGIN OPENSSH PRIVATE KEY----- ${SECRET}\n`);
  writeFileSync(path.join(home, ".ssh", "config"), `Host x ${SECRET}\n`);
  writeFileSync(path.join(home, ".aws", "credentials"), `aws_secret_access_key = ${SECRET}\n`);
  writeFileSync(path.join(home, "notes", "todo.txt"), `remember ${SECRET}\n`);
  const lock = path.join(home, ".wave", "ide", "4242.lock");
  writeFileSync(lock, JSON.stringify({ pid: 4242, token: SECRET }));
  writeFileSync(path.join(ws, "src", "app.ts"), `export const x = "${SECRET}";\n`);
  symlinkSync(path.join(home, ".ssh", "id_ed25519"), path.join(ws, "notes.txt"));
  symlinkSync(path.join(home, ".aws"), path.join(ws, "cloud"));
  spawnSync("chown", ["-R", `${account.uid}:${account.gid}`, base]);
  chownSync(base, account.uid, account.gid);
  return { ws, home, lock };
}

async function start(account: TestAccount, l: Lab, args: string[], initialize: object = {}): Promise<CoreProcess> {
  const core = new CoreProcess(["serve", "--root", l.ws, "--sandbox", "off", ...args], {
    bundle,
    wrap: account.wrap,
    cwd: l.ws,
    env: { HOME: l.home, WAVE_STATE_DIR: undefined, WAVE_LOGIN_ENV: "0" },
  });
  cores.push(core);
  const init = await core.request("initialize", initialize);
  expect(init.error).toBeUndefined();
  return core;
}

const call = async (core: CoreProcess, name: string, args: object) => (await core.request("tools/call", { name, arguments: args })).result;
const text = (r: { content: Array<{ text?: string }> }) => r.content.map((c) => c.text ?? "").join("\n");
const isAsk = (m: Message) => m.method === "permission/request" && m.id !== undefined;

describe("issue 23 §2: Read, Grep and Glob ask before credential stores and Wave's state (bundled core)", () => {
  for (const account of testAccounts()) {
    it(`${account.label}: deny-all refuses each, through links and /proc, and hands out nothing`, async () => {
      const l = lab(account);
      const core = await start(account, l, ["--permission-mode", "deny-all"]);
      const refused = [
        ["Read", { file_path: "~/.ssh/id_ed25519" }],
        ["Read", { file_path: "notes.txt" }], // a workspace name linking to the key
        ["Read", { file_path: "cloud/credentials" }], // through a linked folder
        ["Read", { file_path: `/proc/self/root${l.home}/.aws/credentials` }],
        ["Read", { file_path: `/proc/self/cwd/notes.txt` }],
        ["Read", { file_path: l.lock }], // a listening core's token
        ["Read", { file_path: "~/.ssh/config" }], // readable to programs in the sandbox, still asked of the model
        ["Grep", { pattern: SECRET, path: "~/.ssh" }],
        ["Grep", { pattern: SECRET, path: "cloud" }],
        ["Grep", { pattern: "token", path: path.dirname(l.lock) }],
        ["Glob", { pattern: "*", path: "~/.wave/ide" }],
        ["Glob", { pattern: ".ssh/*", path: l.home }], // the walk starts inside the store
      ] as const;
      for (const [tool, args] of refused) {
        const r = await call(core, tool, args);
        expect(r.isError, `${tool} ${JSON.stringify(args)}: ${text(r)}`).toBe(true);
        expect(r.structuredContent.errorKind).toBe("denied_by_policy");
        expect(text(r)).toMatch(/deny-all/);
        expect(text(r)).not.toContain(SECRET);
      }
      // Ordinary files need no rule and no question, in deny-all too.
      const ok = await call(core, "Read", { file_path: "src/app.ts" });
      expect(text(ok)).toContain(SECRET);
    });

    it(`${account.label}: Grep and Glob of a folder that holds stores go around them, and say so`, async () => {
      const l = lab(account);
      const core = await start(account, l, ["--permission-mode", "deny-all"]);
      const grep = await call(core, "Grep", { pattern: SECRET, path: l.home, output_mode: "content" });
      expect(grep.isError).toBe(false);
      expect(text(grep)).toContain("notes/todo.txt");
      expect(text(grep)).not.toMatch(/id_ed25519|credentials:|4242\.lock|Host x/);
      expect(text(grep)).toMatch(/Not searched: 3 credential stores and Wave state folders/);
      expect(grep.structuredContent.notSearched).toEqual([path.join(l.home, ".aws"), path.join(l.home, ".ssh"), path.join(l.home, ".wave")]);
      // A glob of the caller's cannot bring them back.
      const globbed = await call(core, "Grep", { pattern: SECRET, path: l.home, glob: "**/.ssh/*", output_mode: "files_with_matches" });
      expect(text(globbed)).not.toMatch(/id_ed25519|config/);
      const glob = await call(core, "Glob", { pattern: "**/*", path: l.home });
      expect(glob.isError).toBe(false);
      expect(glob.structuredContent.filenames).toEqual([path.join(l.home, "notes", "todo.txt")]);
      expect(glob.structuredContent.notListed).toHaveLength(3);
    });

    it(`${account.label}: ask mode asks the host; a Read(…) rule naming the store allows it without a question`, async () => {
      const l = lab(account);
      const core = await start(account, l, ["--permission-mode", "ask", "--allow", `Read(${l.home}/.ssh/config)`], { capabilities: { permissionRequests: true } });
      const pending = call(core, "Read", { file_path: "notes.txt" });
      const ask = await core.waitFor(isAsk);
      expect(ask.params).toMatchObject({ tool: "Read", kind: "read", path: path.join(l.home, ".ssh", "id_ed25519"), suggestedRules: [`Read(${path.join(l.home, ".ssh", "id_ed25519")})`] });
      expect(ask.params.reason).toMatch(/credential store/);
      core.send({ jsonrpc: "2.0", id: ask.id, result: { decision: "deny" } });
      const denied = await pending;
      expect(denied.structuredContent.errorKind).toBe("denied_by_user");
      expect(text(denied)).not.toContain(SECRET);
      const named = await call(core, "Read", { file_path: "~/.ssh/config" });
      expect(text(named)).toContain(SECRET);
      expect(core.received.filter(isAsk)).toHaveLength(1);
    });

    it(`${account.label}: a link swapped while the question waits is not followed: nothing is read`, async () => {
      const l = lab(account);
      const core = await start(account, l, ["--permission-mode", "ask"], { capabilities: { permissionRequests: true } });
      const pending = call(core, "Read", { file_path: "notes.txt" });
      const ask = await core.waitFor(isAsk);
      // The user approves the key the question named; by then the link leads to the cloud credentials.
      const swap = account.wrap(["sh", "-c", `ln -sfn ${JSON.stringify(path.join(l.home, ".aws", "credentials"))} ${JSON.stringify(path.join(l.ws, "notes.txt"))}`]);
      expect(spawnSync(swap[0]!, swap.slice(1)).status).toBe(0);
      core.send({ jsonrpc: "2.0", id: ask.id, result: { decision: "allow-once" } });
      const r = await pending;
      expect(r.structuredContent.errorKind).toBe("path_changed");
      expect(text(r)).toMatch(/nothing was read/);
      expect(text(r)).not.toContain(SECRET);
    });
  }

  // As root only: the account is this run's own, so its home may get a store for a moment.
  it.runIf(isRoot)("the account's home counts as much as $HOME (a core started with another HOME)", async () => {
    const account = testAccounts().find((a) => a.label === "user")!;
    const l = lab(account);
    const store = path.join(account.home, ".pgpass");
    const [file, ...args] = account.wrap(["sh", "-c", `printf '%s\\n' 'db:5432:*:me:${SECRET}' > ${JSON.stringify(store)}`]);
    expect(spawnSync(file!, args).status).toBe(0);
    try {
      const core = await start(account, l, ["--permission-mode", "deny-all"]);
      const r = await call(core, "Read", { file_path: store });
      expect(r.structuredContent.errorKind).toBe("denied_by_policy");
      expect(text(r)).not.toContain(SECRET);
    } finally {
      unlinkSync(store);
    }
  });

  it("an MCP-less host that cannot be asked gets a denial that names the Read(…) rule", async () => {
    const [account] = testAccounts();
    const l = lab(account!);
    const core = await start(account!, l, ["--permission-mode", "ask"]);
    const r = await call(core, "Read", { file_path: "cloud/credentials" });
    expect(r.structuredContent.errorKind).toBe("denied_by_policy");
    expect(text(r)).toContain(`Read(${path.join(l.home, ".aws", "credentials")})`);
    expect(text(r)).toMatch(/Nothing was read/);
  });
});
