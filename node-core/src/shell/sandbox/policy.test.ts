// The sandbox policy for a real directory layout: a fake home with credential stores and caches,
// a workspace with git metadata, editor and agent folders. Exact lists.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/processes.js";
import { CREDENTIALS_IN_HOME } from "../../base/credentials.js";
import { hooksPathOf } from "./git.js";
import { buildPolicy, cacheDirectories, orderedMounts, type PolicyInput } from "./policy.js";

function touch(file: string, text = ""): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
function dir(p: string): string {
  mkdirSync(p, { recursive: true });
  return p;
}

function layout() {
  const base = tempDir("wave-policy-");
  const home = dir(path.join(base, "home"));
  const ws = dir(path.join(base, 'work space\'s "dir"'));
  const out = dir(path.join(base, "out"));
  const tmp = dir(path.join(out, "tmp"));
  const runFiles = [touch(path.join(out, "run.log")), touch(path.join(out, "run.cwd"))];
  return { base, home, ws, out, tmp, runFiles };
}

function input(l: ReturnType<typeof layout>, extra: Partial<PolicyInput> = {}): PolicyInput {
  return { home: l.home, env: {}, allowedDirectories: [l.ws], allowWrite: [], denyRead: [], tmpDir: l.tmp, runFiles: l.runFiles, network: "allow", systemCredentials: [], ...extra };
}

describe("the sandbox policy", () => {
  it("writable: the allowed directories, the private TMPDIR, the run's own files and the caches that exist — nothing else", () => {
    const l = layout();
    const npm = dir(path.join(l.home, ".npm/_cacache"));
    const pip = dir(path.join(l.home, ".cache/pip"));
    const cargo = dir(path.join(l.home, ".cargo/registry"));
    const m2 = dir(path.join(l.home, ".m2/repository"));
    touch(path.join(l.home, ".m2/settings.xml"));
    touch(path.join(l.home, ".npm/_npx/x/package.json"));
    dir(path.join(l.home, ".gradle/init.d"));
    const gradle = dir(path.join(l.home, ".gradle/caches"));
    const added = dir(path.join(l.base, "added"));
    const extra = dir(path.join(l.base, "extra"));
    const p = buildPolicy(input(l, { allowedDirectories: [l.ws, added], allowWrite: [extra] }));
    expect(p.writable.sort()).toEqual([l.ws, added, extra, l.tmp, ...l.runFiles, npm, pip, cargo, m2, gradle].sort());
    expect(p.network).toBe("allow");
    expect(p.tmpDir).toBe(l.tmp);
  });

  it("caches follow the variables that move them, and never a variable that names the home directory or /", () => {
    const l = layout();
    const moved = dir(path.join(l.base, "cargo-home/registry"));
    const gocache = dir(path.join(l.base, "gocache"));
    dir(path.join(l.home, ".cargo/registry"));
    const p = buildPolicy(input(l, { env: { CARGO_HOME: path.join(l.base, "cargo-home"), GOCACHE: gocache, npm_config_cache: "/", GOMODCACHE: l.home, PIP_CACHE_DIR: path.dirname(l.home) } }));
    expect(p.writable).toContain(moved);
    expect(p.writable).toContain(gocache);
    expect(p.writable).not.toContain(path.join(l.home, ".cargo/registry"));
    for (const broad of ["/", l.home, path.dirname(l.home)]) expect(p.writable).not.toContain(broad);
    expect(cacheDirectories("/h", {}).every((c) => c.startsWith("/h/"))).toBe(true);
  });

  it("SANDBOX-GIT: every git directory is read-only whole — at the top, hooksPath's folder, and the folders holding them are pinned", () => {
    const l = layout();
    const git = dir(path.join(l.ws, ".git"));
    touch(path.join(git, "config"), '[core]\n\tbare = false\n\thooksPath = "tools/my hooks" # comment\n[remote "origin"]\n\turl = x\n');
    dir(path.join(git, "hooks"));
    dir(path.join(l.ws, "tools/my hooks"));
    touch(path.join(git, "modules/lib/config"));
    for (const name of [".vscode/settings.json", ".idea/workspace.xml", ".claude/settings.json", ".envrc", ".husky/pre-commit", ".mcp.json"]) touch(path.join(l.ws, name));
    dir(path.join(l.ws, "src"));
    const p = buildPolicy(input(l));
    const ws = (rel: string) => path.join(l.ws, rel);
    // .git whole (commondir, info/, modules/ and all that git would read), not a list of its files.
    expect(p.readOnly.sort()).toEqual([".git", "tools/my hooks", ".vscode", ".idea", ".claude", ".envrc", ".husky", ".mcp.json"].map(ws).sort());
    expect(p.pinned).toEqual(["tools"].map(ws));
    expect(p.writable).toContain(l.ws);
    expect(p.gitEntries).toEqual([ws(".git")]);
  });

  it("SANDBOX-GIT: repositories at any depth — inside node_modules, behind 300 empty folders — bare ones, and .git files of submodules anywhere", () => {
    const l = layout();
    for (let i = 0; i < 300; i++) dir(path.join(l.ws, `aaa/f${String(i).padStart(3, "0")}`));
    for (const repo of ["app", "libs/core", "libs/ui/deep/deeper/deepest", "node_modules/pkg", "zzz/last"]) touch(path.join(l.ws, repo, ".git/config"));
    touch(path.join(l.ws, "vendor/bare.git/HEAD"), "ref: refs/heads/main\n");
    dir(path.join(l.ws, "vendor/bare.git/objects"));
    dir(path.join(l.ws, "vendor/bare.git/refs"));
    touch(path.join(l.ws, ".git/modules/sub/config"));
    touch(path.join(l.ws, "deps/sub/.git"), "gitdir: ../../.git/modules/sub\n");
    touch(path.join(l.ws, ".git/config"));
    const p = buildPolicy(input(l));
    const ws = (rel: string) => path.join(l.ws, rel);
    expect(p.readOnly).toEqual(
      expect.arrayContaining([".git", "app/.git", "libs/core/.git", "libs/ui/deep/deeper/deepest/.git", "node_modules/pkg/.git", "zzz/last/.git", "vendor/bare.git", "deps/sub/.git"].map(ws)),
    );
    expect(p.pinned).toEqual(expect.arrayContaining(["app", "libs/ui/deep/deeper/deepest", "zzz", "zzz/last", "deps/sub", "vendor"].map(ws)));
    expect(p.notes).toEqual([]);
  });

  it("SANDBOX-GIT: past the search limit the folders not searched are read-only (fail closed), never unprotected", () => {
    const l = layout();
    for (let i = 0; i < 40; i++) dir(path.join(l.ws, `a${String(i).padStart(2, "0")}/x`));
    touch(path.join(l.ws, "zz/repo/.git/config"));
    const p = buildPolicy(input(l, { gitSearchLimit: 30 }));
    const unsearched = p.readOnly.filter((r) => !r.endsWith(".git"));
    // The repository was not reached, yet it cannot be changed: it lies in a read-only folder.
    expect(unsearched.some((r) => path.join(l.ws, "zz/repo/.git/config").startsWith(r + path.sep))).toBe(true);
    expect(p.notes.join("\n")).toMatch(/stopped after 30 folders/);
  });

  it("SANDBOX-GIT: a worktree's .git file, the git directory it leads to and that directory's commondir are read-only when writable", () => {
    const l = layout();
    const main = dir(path.join(l.base, "main"));
    touch(path.join(main, ".git/config"));
    touch(path.join(main, ".git/worktrees/wt/commondir"), "../..\n");
    touch(path.join(main, ".git/worktrees/wt/config.worktree"));
    touch(path.join(l.ws, ".git"), `gitdir: ${path.join(main, ".git/worktrees/wt")}\n`);
    const readOnlyMain = buildPolicy(input(l));
    // The main repository is not writable: it is read-only anyway and needs no mount; the .git file is.
    expect(readOnlyMain.readOnly).toEqual([path.join(l.ws, ".git")]);
    const both = buildPolicy(input(l, { allowedDirectories: [l.ws, main] }));
    expect(both.readOnly.sort()).toEqual([path.join(l.ws, ".git"), path.join(main, ".git")].sort());
  });

  it("SANDBOX-GIT: include and includeIf targets (of a repository's config and of ~/.gitconfig) are read-only; a missing one makes its folder read-only", () => {
    const l = layout();
    touch(path.join(l.ws, ".git/config"), `[include]\n\tpath = ../shared/git.inc\n[includeIf "gitdir:${l.ws}/"]\n\tpath = ../missing/later.inc\n`);
    const inc = touch(path.join(l.ws, "shared/git.inc"), "[include]\n\tpath = nested.inc\n");
    const nested = touch(path.join(l.ws, "shared/nested.inc"));
    dir(path.join(l.ws, "missing"));
    touch(path.join(l.home, ".gitconfig"), `[includeIf "gitdir:~/"]\n\tpath = ${path.join(l.ws, "global.inc")}\n`);
    const global = touch(path.join(l.ws, "global.inc"));
    const p = buildPolicy(input(l));
    expect(p.readOnly).toEqual(expect.arrayContaining([path.join(l.ws, ".git"), inc, nested, global, path.join(l.ws, "missing")]));
    expect(p.notes.join("\n")).toMatch(/missing is read-only: git's configuration names a file or folder in it that does not exist yet/);
  });

  it("home start-up files are protected wherever they really are: a dotfiles repository in the workspace", () => {
    const l = layout();
    const real = touch(path.join(l.ws, "dotfiles/bashrc"));
    symlinkSync(real, path.join(l.home, ".bashrc"));
    touch(path.join(l.home, ".zshrc"));
    const p = buildPolicy(input(l));
    expect(p.readOnly).toContain(real);
    // ~/.zshrc is not writable in the first place: no mount needed.
    expect(p.readOnly).not.toContain(path.join(l.home, ".zshrc"));
    expect(p.pinned).toContain(path.join(l.ws, "dotfiles"));
    // A writable home gets its own start-up files protected.
    const homeWritable = buildPolicy(input(l, { allowWrite: [l.home] }));
    expect(homeWritable.readOnly).toContain(path.join(l.home, ".zshrc"));
  });

  it("denied: SSH private keys (not public keys, known_hosts or config), credential stores, daemon sockets, denyRead", () => {
    const l = layout();
    for (const f of ["id_ed25519", "id_ed25519.pub", "github-deploy", "config", "known_hosts", "known_hosts.old", "authorized_keys"]) touch(path.join(l.home, ".ssh", f));
    const aws = touch(path.join(l.home, ".aws/credentials"));
    touch(path.join(l.home, ".aws/config"));
    const gnupg = dir(path.join(l.home, ".gnupg"));
    const netrc = touch(path.join(l.home, ".netrc"));
    const kube = touch(path.join(l.home, ".kube/config"));
    const runtime = dir(path.join(l.base, "run-user"));
    const bus = touch(path.join(runtime, "bus"));
    const secret = touch(path.join(l.ws, "secrets/.env"));
    const p = buildPolicy(input(l, { env: { XDG_RUNTIME_DIR: runtime }, denyRead: [secret, path.join(l.ws, "missing")], unixSockets: { allow: [] } }));
    expect(p.denied.map((d) => d.path).sort()).toEqual([path.join(l.home, ".ssh/id_ed25519"), path.join(l.home, ".ssh/github-deploy"), aws, gnupg, netrc, path.dirname(kube), bus, secret].sort());
    expect(p.denied.find((d) => d.path === gnupg)!.directory).toBe(true);
    expect(p.denied.find((d) => d.path === netrc)!.directory).toBe(false);
    // The denied file inside the workspace cannot be renamed out from under its mask either.
    expect(p.pinned).toContain(path.join(l.ws, "secrets"));
    expect(CREDENTIALS_IN_HOME).toEqual(expect.arrayContaining([".aws/credentials", ".gnupg", ".netrc", ".kube", ".docker/config.json", ".config/gcloud", ".npmrc"]));
  });

  it("a writable place named through a symlink planted inside another writable place is ignored; a symlink elsewhere is followed", () => {
    const l = layout();
    // `rm -r build-cache && ln -s ~ build-cache` by an earlier command in the workspace:
    symlinkSync(l.home, path.join(l.ws, "build-cache"));
    const linkedElsewhere = dir(path.join(l.base, "real-cache"));
    const link = path.join(l.base, "cache-link");
    symlinkSync(linkedElsewhere, link);
    const p = buildPolicy(input(l, { allowWrite: [path.join(l.ws, "build-cache"), link], env: { GOCACHE: path.join(l.ws, "build-cache") } }));
    expect(p.writable).not.toContain(l.home);
    expect(p.writable).toContain(linkedElsewhere);
    expect(p.ignored.map((i) => i.path)).toEqual([path.join(l.ws, "build-cache"), path.join(l.ws, "build-cache")]);
    expect(p.ignored[0]!.reason).toMatch(/^it leads through a symlink \(to .*home\) inside .*work space/);
  });

  it("protection wins: a writable path inside a protected or denied one is dropped", () => {
    const l = layout();
    dir(path.join(l.ws, ".vscode/sub"));
    const gnupg = dir(path.join(l.home, ".gnupg/private-keys-v1.d"));
    const p = buildPolicy(input(l, { allowWrite: [path.join(l.ws, ".vscode/sub"), gnupg] }));
    expect(p.writable).not.toContain(path.join(l.ws, ".vscode/sub"));
    expect(p.writable).not.toContain(gnupg);
    expect(p.readOnly).toContain(path.join(l.ws, ".vscode"));
  });

  it("mounts come outermost first, so no mount hides one made below it", () => {
    const l = layout();
    touch(path.join(l.ws, ".git/config"));
    dir(path.join(l.ws, ".git/hooks"));
    touch(path.join(l.ws, "a/b/.env"));
    const p = buildPolicy(input(l, { denyRead: [path.join(l.ws, "a/b/.env")] }));
    const mounts = orderedMounts(p);
    mounts.forEach((m, i) => {
      for (const later of mounts.slice(i + 1)) expect(m.path.startsWith(later.path + "/"), `${m.path} before its ancestor ${later.path}`).toBe(false);
    });
    expect(mounts.map((m) => m.kind)).toContain("pinned");
  });

  it("the protected names are the permission gate's sensitive workspace files, whatever their case", () => {
    const l = layout();
    const names = [".npmrc", ".yarnrc.yml", "bunfig.toml", ".exrc", ".Windsurf", ".zed", ".githooks", ".lintstagedrc.json", "lefthook.yml", "mise.toml", ".gitconfig", ".zshrc"];
    for (const name of names) touch(path.join(l.ws, name));
    for (const ordinary of ["package.json", "Makefile", "src.ts", ".env"]) touch(path.join(l.ws, ordinary));
    const p = buildPolicy(input(l));
    expect(p.readOnly.sort()).toEqual(names.map((n) => path.join(l.ws, n)).sort());
  });

  it("hooksPathOf reads core.hooksPath only in [core], with quotes and comments", () => {
    expect(hooksPathOf("[core]\n\thooksPath = .husky/_\n")).toBe(".husky/_");
    expect(hooksPathOf('[CORE]\nHOOKSPATH="a b" ; x\n')).toBe("a b");
    expect(hooksPathOf("[alias]\n\thooksPath = no\n[core]\n\tbare = false\n")).toBeUndefined();
  });

  it("Wave's state directories are unreadable and unwritable; one that holds the home or a writable place gives up only its lock folder", () => {
    const l = layout();
    const state = dir(path.join(l.home, ".wave/ide"));
    const inWorkspace = dir(path.join(l.ws, ".wave-state/ide"));
    const p = buildPolicy(input(l, { stateDirectories: [path.dirname(state), path.dirname(inWorkspace), path.join(l.base, "missing")] }));
    expect(p.denied).toEqual(
      expect.arrayContaining([
        { path: path.dirname(state), directory: true },
        { path: path.dirname(inWorkspace), directory: true },
      ]),
    );
    expect(p.denied.map((d) => d.path)).not.toContain(path.join(l.base, "missing"));
    // The one inside the workspace is a mount point of its own: it cannot be renamed away and replaced.
    expect(p.writable).toContain(l.ws);

    dir(path.join(l.ws, "ide"));
    const broad = buildPolicy(input(l, { stateDirectories: [l.ws, l.base] }));
    expect(broad.denied.map((d) => d.path).sort()).toEqual([path.join(l.ws, "ide")]);
    expect(broad.writable).toContain(l.ws);
  });
});
