import { describe, expect, it } from "vitest";
import type { Platform, PlatformName } from "../util/platform.js";
import { platformWith } from "../../test/support/platform.js";
import { resolveShell, resolveShellCached, shellKindOf, ShellNotFound } from "./resolve.js";

/** A platform whose file system holds exactly `files` (all executable). */
function fakePlatform(name: PlatformName, files: string[]): Platform {
  const set = new Set(files);
  return platformWith({ name, isFile: (f) => set.has(f), isExecutable: (f) => set.has(f) });
}

function fails(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ShellNotFound);
    return (err as Error).message;
  }
  throw new Error("expected ShellNotFound");
}

describe("shell resolution on macOS/Linux", () => {
  it("BASH-SH-1 resolves an explicit bash or zsh, never /bin/sh", () => {
    const p = fakePlatform("linux", ["/bin/sh", "/usr/bin/bash"]);
    expect(resolveShell({ PATH: "/usr/bin:/bin", SHELL: "/bin/sh" }, p)).toEqual({ kind: "bash", path: "/usr/bin/bash", platform: "linux" });
    const real = resolveShell(process.env);
    expect(["bash", "zsh"]).toContain(real.kind);
    expect(real.path).not.toMatch(/\/sh$/);
  });

  it("BASH-SH-2 uses WAVE_SHELL when it points to an executable bash or zsh", () => {
    const p = fakePlatform("darwin", ["/opt/zsh/bin/zsh", "/bin/bash"]);
    expect(resolveShell({ WAVE_SHELL: "/opt/zsh/bin/zsh", SHELL: "/bin/bash", PATH: "/bin" }, p).path).toBe("/opt/zsh/bin/zsh");
    // Real zsh on this machine.
    expect(resolveShell({ ...process.env, WAVE_SHELL: "/usr/bin/zsh" })).toEqual({ kind: "zsh", path: "/usr/bin/zsh", platform: "linux" });
  });

  it("BASH-SH-2 refuses a WAVE_SHELL that is not bash/zsh or not executable, saying what to set", () => {
    const p = fakePlatform("linux", ["/usr/bin/fish", "/bin/bash"]);
    expect(fails(() => resolveShell({ WAVE_SHELL: "/usr/bin/fish", PATH: "/bin" }, p))).toMatch(/WAVE_SHELL is set to "\/usr\/bin\/fish", which is not bash or zsh.*absolute path of a bash or zsh/);
    expect(fails(() => resolveShell({ WAVE_SHELL: "/nowhere/bash", PATH: "/bin" }, p))).toMatch(/not an executable file/);
    expect(fails(() => resolveShell({ WAVE_SHELL: "bash", PATH: "/bin" }, p))).toMatch(/must be an absolute path/);
  });

  it("BASH-SH-3 prefers zsh when $SHELL points to zsh", () => {
    const p = fakePlatform("linux", ["/usr/bin/bash", "/usr/bin/zsh", "/bin/zsh"]);
    expect(resolveShell({ SHELL: "/bin/zsh", PATH: "/usr/bin" }, p).path).toBe("/bin/zsh");
    // $SHELL not executable: the preferred kind is still zsh, found on PATH.
    expect(resolveShell({ SHELL: "/home/me/bin/zsh", PATH: "/usr/bin" }, p).path).toBe("/usr/bin/zsh");
    expect(resolveShell({ SHELL: "/bin/bash", PATH: "/usr/bin" }, p).path).toBe("/usr/bin/bash");
    // Real processes: SHELL=zsh picks the installed zsh.
    expect(resolveShell({ PATH: process.env.PATH, SHELL: "/usr/bin/zsh" }).kind).toBe("zsh");
  });

  it("BASH-SH-3 finds the other shell in the fixed directories when PATH lacks both", () => {
    const p = fakePlatform("linux", ["/opt/homebrew/bin/bash"]);
    expect(resolveShell({ SHELL: "/bin/zsh", PATH: "/nowhere" }, p).path).toBe("/opt/homebrew/bin/bash");
  });

  it("BASH-SH-4 without bash or zsh fails clearly and never falls back to /bin/sh", () => {
    const p = fakePlatform("linux", ["/bin/sh", "/usr/bin/dash", "/usr/bin/fish"]);
    const msg = fails(() => resolveShell({ SHELL: "/usr/bin/fish", PATH: "/usr/bin:/bin" }, p));
    expect(msg).toContain("No bash or zsh was found");
    expect(msg).toContain("never falls back to /bin/sh");
    expect(msg).toContain("$SHELL (/usr/bin/fish: not bash or zsh)");
    expect(msg).toContain("/usr/bin:/bin");
    expect(msg).toContain("WAVE_SHELL");
  });

  it("RSC-1 a bash-only tool runs bash even where the Bash tool would pick zsh, and says when there is none", () => {
    const p = fakePlatform("linux", ["/usr/bin/zsh", "/bin/zsh", "/usr/bin/bash", "/opt/bash"]);
    expect(resolveShell({ SHELL: "/bin/zsh", PATH: "/usr/bin" }, p, "bash").path).toBe("/usr/bin/bash");
    // WAVE_SHELL naming zsh chooses the Bash tool's shell; naming a bash, it is used.
    expect(resolveShell({ WAVE_SHELL: "/usr/bin/zsh", PATH: "/usr/bin" }, p, "bash").path).toBe("/usr/bin/bash");
    expect(resolveShell({ WAVE_SHELL: "/opt/bash", PATH: "/usr/bin" }, p, "bash").path).toBe("/opt/bash");
    const msg = fails(() => resolveShell({ SHELL: "/bin/zsh", PATH: "/usr/bin" }, fakePlatform("linux", ["/usr/bin/zsh"]), "bash"));
    expect(msg).toMatch(/^No bash was found to run the command \(this tool runs `bash -c` and never another shell\)\. .*Install bash/);
    // Real processes: SHELL=zsh, yet the installed bash; the cache keeps the two answers apart.
    const env = { PATH: process.env.PATH, SHELL: "/usr/bin/zsh" };
    expect(resolveShellCached(env, undefined, "bash").kind).toBe("bash");
    expect(resolveShellCached(env).kind).toBe("zsh");
  });

  it("recognises shell names", () => {
    expect(shellKindOf("/usr/local/bin/bash5.2")).toBe("bash");
    expect(shellKindOf("/bin/zsh-5.9")).toBe("zsh");
    expect(shellKindOf("/bin/sh")).toBeUndefined();
    expect(shellKindOf("/opt/bashful/fish")).toBeUndefined();
  });

  it("caches by the deciding variables and re-resolves when they change", () => {
    const a = resolveShellCached({ PATH: process.env.PATH, SHELL: "/usr/bin/zsh" });
    const b = resolveShellCached({ PATH: process.env.PATH, SHELL: "/bin/bash" });
    expect(a.kind).toBe("zsh");
    expect(b.kind).toBe("bash");
  });
});

describe("Git Bash resolution on Windows (injected platform)", () => {
  const gitBash = "C:\\Program Files\\Git\\bin\\bash.exe";

  it("BASH-WIN-1 runs commands in Git Bash, never cmd.exe", () => {
    const p = fakePlatform("win32", [gitBash, "C:\\Windows\\System32\\cmd.exe", "C:\\Windows\\System32\\bash.exe"]);
    const shell = resolveShell({ PATH: "C:\\Windows\\System32", ComSpec: "C:\\Windows\\System32\\cmd.exe" }, p);
    expect(shell).toEqual({ kind: "bash", path: gitBash, platform: "win32" });
  });

  it("BASH-WIN-2 without Git Bash tells the user to install Git for Windows", () => {
    const p = fakePlatform("win32", ["C:\\Windows\\System32\\cmd.exe"]);
    const msg = fails(() => resolveShell({ PATH: "C:\\Windows\\System32", LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, p));
    expect(msg).toContain("Install Git for Windows");
    expect(msg).toContain("WAVE_GIT_BASH_PATH");
    expect(msg).toContain("C:\\Users\\me\\AppData\\Local\\Programs\\Git\\bin\\bash.exe");
  });

  it("BASH-WIN-3 order: WAVE_GIT_BASH_PATH, then derived from git on PATH, then common locations", () => {
    const custom = "D:\\tools\\PortableGit\\bin\\bash.exe";
    const derived = "E:\\custom\\Git\\bin\\bash.exe";
    const all = fakePlatform("win32", [custom, derived, "E:\\custom\\Git\\cmd\\git.exe", gitBash]);
    const env = { Path: "C:\\Windows;E:\\custom\\Git\\cmd", PATHEXT: ".COM;.EXE;.BAT;.CMD" };
    expect(resolveShell({ ...env, WAVE_GIT_BASH_PATH: custom }, all).path).toBe(custom);
    expect(resolveShell(env, all).path).toBe(derived);
    const noGit = fakePlatform("win32", [gitBash]);
    expect(resolveShell(env, noGit).path).toBe(gitBash);
  });

  it("BASH-WIN-3 derives Git Bash from git in mingw64\\bin and from a quoted PATH entry", () => {
    const p = fakePlatform("win32", ["F:\\Git\\mingw64\\bin\\git.exe", "F:\\Git\\bin\\bash.exe"]);
    expect(resolveShell({ PATH: '"F:\\Git\\mingw64\\bin"' }, p).path).toBe("F:\\Git\\bin\\bash.exe");
  });

  it("BASH-WIN-3 refuses a WAVE_GIT_BASH_PATH that does not exist", () => {
    const p = fakePlatform("win32", [gitBash]);
    expect(fails(() => resolveShell({ WAVE_GIT_BASH_PATH: "C:\\nope\\bash.exe" }, p))).toContain('WAVE_GIT_BASH_PATH is set to "C:\\nope\\bash.exe", but there is no file there');
  });
});
