// The pieces of the sandbox's seams on their own: the seccomp program (run as the kernel runs it,
// for both architectures; the sandbox tests load it into the kernel for real), the filtered copies
// of credential stores, what makes new git metadata untrusted, which programs may run outside the
// sandbox, and the sockets /proc/net/unix lists (test/sandbox.seams.e2e.test.ts attacks them all for real).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/processes.js";
import { isSshCredential } from "../../base/credentials.js";
import { untrustedProgram } from "../../util/programTrust.js";
import { filterCredentials } from "./filtered.js";
import { includePathsOf } from "./git.js";
import { untrustedGitDir } from "./guard.js";
import { AF_UNIX, AF_VSOCK, CLONE_NEWUSER, runProgram, SECCOMP_ARCHES, seccompProgram, TIOCLINUX, TIOCSTI } from "./seccomp.js";
import { listedSockets } from "./sockets.js";

describe("the seccomp program", () => {
  for (const [arch, table] of Object.entries(SECCOMP_ARCHES)) {
    const program = seccompProgram({ denyUnixSockets: true }, arch)!;
    const call = (nr: number, args: number[] = []) => runProgram(program, { arch: table.audit, nr, args });
    const EPERM = { errno: 1 };

    it(`${arch}: refuses unix and vsock sockets, io_uring, keyrings, TIOCSTI, new user namespaces; allows the rest`, () => {
      expect(call(table.nr.socket, [AF_UNIX, 1, 0])).toEqual(EPERM);
      expect(call(table.nr.socket, [AF_VSOCK, 1, 0])).toEqual(EPERM);
      expect(call(table.nr.socket, [2 /* AF_INET */, 1, 0])).toBe("allow");
      expect(call(table.nr.socket, [10 /* AF_INET6 */, 2, 0])).toBe("allow");
      for (const nr of [table.nr.io_uring_setup, table.nr.io_uring_enter, table.nr.io_uring_register, table.nr.keyctl, table.nr.add_key, table.nr.request_key]) expect(call(nr)).toEqual(EPERM);
      expect(call(table.nr.ioctl, [0, TIOCSTI])).toEqual(EPERM);
      expect(call(table.nr.ioctl, [0, TIOCLINUX])).toEqual(EPERM);
      expect(call(table.nr.ioctl, [0, 0x5401 /* TCGETS */])).toBe("allow");
      expect(call(table.nr.unshare, [CLONE_NEWUSER])).toEqual(EPERM);
      expect(call(table.nr.unshare, [0x00020000 /* CLONE_NEWNS */])).toBe("allow");
      expect(call(table.nr.clone, [CLONE_NEWUSER | 0x11])).toEqual(EPERM);
      expect(call(table.nr.clone, [0x01200011 /* fork's flags */])).toBe("allow");
      expect(call(table.nr.clone3)).toEqual({ errno: 38 });
      // socketpair (pipes between a command's own processes) and everything else go through.
      expect(call(table.nr.socket + 1, [AF_UNIX])).toBe("allow");
      expect(call(0)).toBe("allow");
    });

    it(`${arch}: a call of another architecture or ABI is refused outright`, () => {
      expect(runProgram(program, { arch: 0x40000003 /* i386 */, nr: 1 })).toEqual(EPERM);
      if (table.foreignFrom !== undefined) expect(call(table.foreignFrom + table.nr.socket, [AF_UNIX])).toEqual(EPERM);
    });

    it(`${arch}: with unix sockets allowed, only their rule goes`, () => {
      const open = seccompProgram({ denyUnixSockets: false }, arch)!;
      expect(runProgram(open, { arch: table.audit, nr: table.nr.socket, args: [AF_UNIX] })).toBe("allow");
      expect(runProgram(open, { arch: table.audit, nr: table.nr.socket, args: [AF_VSOCK] })).toEqual(EPERM);
    });
  }

  it("an architecture without a table gets no program (the sandbox then masks sockets instead)", () => {
    expect(seccompProgram({ denyUnixSockets: true }, "ia32")).toBeUndefined();
  });
});

describe("copies of credential stores without their secrets", () => {
  it("~/.npmrc keeps registry, scopes, proxy and cafile; loses _authToken, _auth, _password and user:password in URLs", () => {
    const npmrc = [
      "registry=https://npm.example.com/",
      "@corp:registry=https://corp.example.com/npm/",
      "//npm.example.com/:_authToken=npm_SECRET",
      "//corp.example.com/npm/:_auth=c2VjcmV0",
      "//corp.example.com/npm/:_password=SECRET",
      "//corp.example.com/npm/:username=me",
      "proxy=http://proxy.example.com:3128/",
      "https-proxy=http://u:SECRET@proxy.example.com:3128/",
      "cafile=/etc/ssl/corp.pem",
      "; a comment",
    ].join("\n");
    expect(filterCredentials(npmrc, "ini")).toBe(
      [
        "registry=https://npm.example.com/",
        "@corp:registry=https://corp.example.com/npm/",
        "proxy=http://proxy.example.com:3128/",
        "https-proxy=http://proxy.example.com:3128/",
        "cafile=/etc/ssl/corp.pem",
        "; a comment",
      ].join("\n"),
    );
  });

  it("Docker keeps its registries, proxies and helpers without the logins; Maven its mirrors without passwords; Gradle its proxy without credentials", () => {
    const docker = JSON.parse(
      filterCredentials(JSON.stringify({ auths: { "ghcr.io": { auth: "SECRET" } }, credsStore: "desktop", proxies: { default: { httpProxy: "http://p:3128" } } }), "json-auths")!,
    );
    expect(docker).toEqual({ auths: { "ghcr.io": {} }, credsStore: "desktop", proxies: { default: { httpProxy: "http://p:3128" } } });
    expect(filterCredentials("<servers><server><id>x</id><username>u</username><password>SECRET</password></server></servers><mirrors><mirror><url>https://m</url></mirror></mirrors>", "xml")).toBe(
      "<servers><server><id>x</id><username>u</username><password></password></server></servers><mirrors><mirror><url>https://m</url></mirror></mirrors>",
    );
    expect(filterCredentials("systemProp.https.proxyHost=p\nsystemProp.https.proxyPassword=SECRET\nmavenPassword=SECRET\norg.gradle.jvmargs=-Xmx2g\nsigning.secretKeyRingFile=/k", "properties")).toBe(
      "systemProp.https.proxyHost=p\norg.gradle.jvmargs=-Xmx2g",
    );
    expect(filterCredentials('npmRegistryServer: "https://r"\nnpmAuthToken: SECRET\nnpmScopes:\n  corp:\n    npmAuthToken: SECRET\n', "yaml")).toBe(
      'npmRegistryServer: "https://r"\nnpmScopes:\n  corp:\n',
    );
    expect(filterCredentials(JSON.stringify({ primaryApiKey: "SECRET", oauthAccount: { email: "e" }, theme: "dark" }), "json-keys")).toBe('{\n  "theme": "dark"\n}\n');
    expect(filterCredentials("not json", "json-keys")).toBeUndefined();
  });
});

describe("keys in ~/.ssh", () => {
  it("everything at the top but the readable names; inside a readable folder, what is named or looks like a key", () => {
    expect(isSshCredential("id_ed25519")).toBe(true);
    expect(isSshCredential("work")).toBe(true);
    expect(isSshCredential("work/id_rsa.pub")).toBe(true);
    expect(isSshCredential("config")).toBe(false);
    expect(isSshCredential("config.d/hosts.conf")).toBe(false);
    expect(isSshCredential("config.d/deploy_key")).toBe(true);
    expect(isSshCredential("config.d/github.pem")).toBe(true);
    expect(isSshCredential("config.d/x", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl")).toBe(true);
    expect(isSshCredential("known_hosts.d/hosts", "github.com ssh-ed25519 AAAA")).toBe(false);
  });
});

describe("new git metadata", () => {
  const repo = (config: string, hooks: string[] = []) => {
    const dir = path.join(tempDir("wave-newgit-"), ".git");
    mkdirSync(path.join(dir, "hooks"), { recursive: true });
    writeFileSync(path.join(dir, "config"), config);
    for (const h of hooks) writeFileSync(path.join(dir, "hooks", h), "#!/bin/sh\n");
    return dir;
  };

  it("what git init and git clone write is plain; anything else, a commondir, a real hook or a .git file is not", () => {
    const init = spawnSync("git", ["init", "-q", tempDir("wave-newgit-init-")], { encoding: "utf8" });
    expect(init.status).toBe(0);
    const made = /Initialized empty Git repository in (.*)\n/.exec(spawnSync("git", ["init", tempDir("wave-newgit-init-")], { encoding: "utf8" }).stdout)?.[1]?.replace(/\/$/, "");
    expect(untrustedGitDir(made!)).toBeUndefined();
    expect(
      untrustedGitDir(
        repo(
          '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = https://x\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n',
          ["pre-commit.sample"],
        ),
      ),
    ).toBeUndefined();
    expect(untrustedGitDir(repo("[core]\n\tfsmonitor = touch /tmp/x\n"))).toMatch(/core\.fsmonitor/);
    expect(untrustedGitDir(repo("[alias]\n\tst = !touch x\n"))).toMatch(/alias\.st/);
    expect(untrustedGitDir(repo("[include]\n\tpath = ../x\n"))).toMatch(/include\.path/);
    expect(untrustedGitDir(repo("[core]\n", ["post-checkout"]))).toMatch(/hooks \(post-checkout\)/);
    const withCommon = repo("[core]\n");
    writeFileSync(path.join(withCommon, "commondir"), "../../elsewhere\n");
    expect(untrustedGitDir(withCommon)).toMatch(/commondir/);
    const file = path.join(tempDir("wave-newgit-file-"), ".git");
    writeFileSync(file, "gitdir: /tmp/evil\n");
    expect(untrustedGitDir(file)).toMatch(/another git directory/);
  });

  it("include.path and includeIf paths are read from every section form, :(optional) included", () => {
    expect(includePathsOf('[include]\n\tpath = a.inc\n[includeIf "gitdir:~/w/"]\n\tpath = ":(optional)b.inc"\n[INCLUDE] PATH = c.inc ; comment\n')).toEqual(["a.inc", "b.inc", "c.inc"]);
  });
});

describe("programs the core runs outside the sandbox", () => {
  it("one in a writable place, one others may change, and one below a folder others may change are refused; a sticky /tmp is fine", () => {
    const base = tempDir("wave-trust-");
    const prog = (rel: string, mode = 0o755) => {
      const f = path.join(base, rel);
      mkdirSync(path.dirname(f), { recursive: true });
      writeFileSync(f, "#!/bin/sh\n");
      chmodSync(f, mode);
      return f;
    };
    expect(untrustedProgram(prog("ok/rg"), [])).toBeUndefined();
    expect(untrustedProgram(prog("ws/node_modules/.bin/rg"), [path.join(base, "ws")])).toMatch(/lies inside .*ws, which sandboxed commands may write/);
    expect(untrustedProgram(prog("loose/rg", 0o777), [])).toMatch(/may be changed by other accounts \(mode 777\)/);
    const open = prog("open/sub/rg");
    chmodSync(path.dirname(path.dirname(open)), 0o777);
    expect(untrustedProgram(open, [])).toMatch(/open may be changed by other accounts/);
  });
});

describe("sockets /proc/net/unix lists", () => {
  it("filesystem sockets by path; abstract ones (@) and unbound ones are not paths", () => {
    const text = [
      "Num       RefCount Protocol Flags    Type St Inode Path",
      "0000000000000000: 00000002 00000000 00010000 0001 01 12345 /tmp/tmux-0/default",
      "0000000000000000: 00000002 00000000 00010000 0001 01 12346 @/tmp/.X11-unix/X0",
      "0000000000000000: 00000003 00000000 00000000 0001 03 12347",
      "0000000000000000: 00000002 00000000 00010000 0001 01 12348 /run/user/1000/my socket",
    ].join("\n");
    expect(listedSockets(text)).toEqual(["/tmp/tmux-0/default", "/run/user/1000/my socket"]);
  });
});
