// The sandbox policy for a real directory layout: a fake home with credential stores and caches,
// a workspace with git metadata, editor and agent folders. Exact lists.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/processes.js";
import { CREDENTIALS_IN_HOME } from "../../base/credentials.js";
import { buildPolicy, cacheDirectories, hooksPathOf, orderedMounts, type PolicyInput } from "./policy.js";

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
  const ws = dir(path.join(base, "work space's \"dir\""));
  const out = dir(path.join(base, "out"));
  const tmp = dir(path.join(out, "tmp"));
  const runFiles = [touch(path.join(out, "run.log")), touch(path.join(out, "run.cwd"))];
  return { base, home, ws, out, tmp, runFiles };
}

function input(l: ReturnType<typeof layout>, extra: Partial<PolicyInput> = {}): PolicyInput {
  return { home: l.home, env: {}, allowedDirectories: [l.ws], allowWrite: [], denyRead: [], tmpDir: l.tmp, runFiles: l.runFiles, network: "allow", ...extra };
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

  it("protected paths inside writable directories stay read-only, and the directories holding them are pinned", () => {
    const l = layout();
    const git = dir(path.join(l.ws, ".git"));
    touch(path.join(git, "config"), '[core]\n\tbare = false\n\thooksPath = "tools/my hooks" # comment\n[remote "origin"]\n\turl = x\n');
    dir(path.join(git, "hooks"));
    dir(path.join(l.ws, "tools/my hooks"));
    touch(path.join(git, "modules/lib/config"));
    dir(path.join(git, "modules/lib/hooks"));
    touch(path.join(git, "modules/lib/modules/inner/config"));
    for (const name of [".vscode/settings.json", ".idea/workspace.xml", ".claude/settings.json", ".envrc", ".husky/pre-commit", ".mcp.json"]) touch(path.join(l.ws, name));
    dir(path.join(l.ws, "src"));
    const p = buildPolicy(input(l));
    const ws = (rel: string) => path.join(l.ws, rel);
    expect(p.readOnly.sort()).toEqual(
      [".git/config", ".git/hooks", "tools/my hooks", ".git/modules/lib/config", ".git/modules/lib/hooks", ".git/modules/lib/modules/inner/config", ".vscode", ".idea", ".claude", ".envrc", ".husky", ".mcp.json"].map(ws).sort(),
    );
    // `mv .git x && mkdir .git` must not leave a writable .git/config: every directory on the way is a mount point.
    expect(p.pinned).toEqual([".git", "tools", ".git/modules", ".git/modules/lib", ".git/modules/lib/modules", ".git/modules/lib/modules/inner"].map(ws));
    expect(p.writable).toContain(l.ws);
  });

  it("repositories a little below a writable directory have their git metadata protected too", () => {
    const l = layout();
    for (const repo of ["app", "libs/core", "libs/ui/deep/too-deep"]) {
      touch(path.join(l.ws, repo, ".git/config"));
      dir(path.join(l.ws, repo, ".git/hooks"));
    }
    touch(path.join(l.ws, "node_modules/pkg/.git/config"));
    const p = buildPolicy(input(l));
    const ws = (rel: string) => path.join(l.ws, rel);
    expect(p.readOnly).toEqual(expect.arrayContaining([ws("app/.git/config"), ws("app/.git/hooks"), ws("libs/core/.git/config"), ws("libs/core/.git/hooks")]));
    expect(p.readOnly.filter((r) => r.includes("too-deep") || r.includes("node_modules"))).toEqual([]);
    expect(p.pinned).toEqual(expect.arrayContaining([ws("app"), ws("app/.git"), ws("libs"), ws("libs/core"), ws("libs/core/.git")]));
  });

  it("a work tree whose .git is a file protects the git directory it points at, when that is writable", () => {
    const l = layout();
    const main = dir(path.join(l.base, "main"));
    touch(path.join(main, ".git/config"));
    dir(path.join(main, ".git/hooks"));
    touch(path.join(main, ".git/worktrees/wt/commondir"), "../..\n");
    touch(path.join(main, ".git/worktrees/wt/config.worktree"));
    touch(path.join(l.ws, ".git"), `gitdir: ${path.join(main, ".git/worktrees/wt")}\n`);
    const readOnlyMain = buildPolicy(input(l));
    // The main repository is not writable: it is read-only anyway and needs no mount.
    expect(readOnlyMain.readOnly).toEqual([]);
    const both = buildPolicy(input(l, { allowedDirectories: [l.ws, main] }));
    expect(both.readOnly.sort()).toEqual([path.join(main, ".git/config"), path.join(main, ".git/hooks"), path.join(main, ".git/worktrees/wt/config.worktree")].sort());
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
    const p = buildPolicy(input(l, { env: { XDG_RUNTIME_DIR: runtime }, denyRead: [secret, path.join(l.ws, "missing")] }));
    expect(p.denied.map((d) => d.path).sort()).toEqual([path.join(l.home, ".ssh/id_ed25519"), path.join(l.home, ".ssh/github-deploy"), aws, gnupg, netrc, kube, bus, secret].sort());
    expect(p.denied.find((d) => d.path === gnupg)!.directory).toBe(true);
    expect(p.denied.find((d) => d.path === netrc)!.directory).toBe(false);
    // The denied file inside the workspace cannot be renamed out from under its mask either.
    expect(p.pinned).toContain(path.join(l.ws, "secrets"));
    expect(CREDENTIALS_IN_HOME).toEqual(expect.arrayContaining([".aws/credentials", ".gnupg", ".netrc", ".kube/config", ".docker/config.json", ".config/gcloud", ".npmrc"]));
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
    expect(hooksPathOf('[alias]\n\thooksPath = no\n[core]\n\tbare = false\n')).toBeUndefined();
  });

  it("Wave's state directories are unreadable and unwritable; one that holds the home or a writable place gives up only its lock folder", () => {
    const l = layout();
    const state = dir(path.join(l.home, ".wave/ide"));
    const inWorkspace = dir(path.join(l.ws, ".wave-state/ide"));
    const p = buildPolicy(input(l, { stateDirectories: [path.dirname(state), path.dirname(inWorkspace), path.join(l.base, "missing")] }));
    expect(p.denied).toEqual(expect.arrayContaining([{ path: path.dirname(state), directory: true }, { path: path.dirname(inWorkspace), directory: true }]));
    expect(p.denied.map((d) => d.path)).not.toContain(path.join(l.base, "missing"));
    // The one inside the workspace is a mount point of its own: it cannot be renamed away and replaced.
    expect(p.writable).toContain(l.ws);

    dir(path.join(l.ws, "ide"));
    const broad = buildPolicy(input(l, { stateDirectories: [l.ws, l.base] }));
    expect(broad.denied.map((d) => d.path).sort()).toEqual([path.join(l.ws, "ide")]);
    expect(broad.writable).toContain(l.ws);
  });
});
