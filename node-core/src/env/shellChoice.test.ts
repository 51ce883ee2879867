import { afterEach, describe, expect, it } from "vitest";
import { chooseProbeShell, choosePosixProbeShell, findGitBash, realProbeFileSystem, type ProbeFileSystem } from "./shellChoice.js";
import { makeFakeHome, type FakeHome } from "../../test/support/loginEnv.js";

/** A file-system view with the given files; `executables` are also executable. */
function fsWith(files: string[], executables: string[] = []): ProbeFileSystem {
  const all = new Set([...files, ...executables]);
  return {
    exists: (f) => all.has(f),
    isExecutable: (f) => executables.includes(f),
    isDirectory: () => true,
  };
}

const SHELLS = ["/bin/zsh", "/bin/bash", "/bin/sh"];

describe("BASH-ENV-3 probe shell choice on macOS/Linux", () => {
  const home = "/home/u";

  it("BASH-ENV-3 takes $SHELL when it is absolute and executable, whatever rc files exist", () => {
    const fs = fsWith([`${home}/.zshrc`, `${home}/.bashrc`], [...SHELLS, "/usr/local/bin/fish"]);
    expect(choosePosixProbeShell({ SHELL: "/usr/local/bin/fish" }, fs, home)).toBe("/usr/local/bin/fish");
    expect(choosePosixProbeShell({ SHELL: "/bin/bash" }, fs, home)).toBe("/bin/bash");
  });

  it("BASH-ENV-3 ignores a relative, missing or non-executable $SHELL", () => {
    const fs = fsWith([`${home}/.bashrc`, "/opt/zsh-not-executable"], ["/bin/bash", "/bin/zsh", "bash"]);
    expect(choosePosixProbeShell({ SHELL: "bash" }, fs, home)).toBe("/bin/bash");
    expect(choosePosixProbeShell({ SHELL: "/nope/zsh" }, fs, home)).toBe("/bin/bash");
    expect(choosePosixProbeShell({ SHELL: "/opt/zsh-not-executable" }, fs, home)).toBe("/bin/bash");
  });

  it("BASH-ENV-3 without $SHELL prefers /bin/zsh when ~/.zshrc exists", () => {
    expect(choosePosixProbeShell({}, fsWith([`${home}/.zshrc`, `${home}/.bashrc`], SHELLS), home)).toBe("/bin/zsh");
  });

  it("BASH-ENV-3 then /bin/bash when ~/.bashrc exists (a Linux user with only bash still gets a probe)", () => {
    expect(choosePosixProbeShell({}, fsWith([`${home}/.bashrc`], SHELLS), home)).toBe("/bin/bash");
    // ~/.zshrc without /bin/zsh does not pick zsh.
    expect(choosePosixProbeShell({}, fsWith([`${home}/.zshrc`, `${home}/.bashrc`], ["/bin/bash", "/bin/sh"]), home)).toBe("/bin/bash");
  });

  it("BASH-ENV-3 with no rc file falls back to the first existing of /bin/zsh, /bin/bash, /bin/sh", () => {
    expect(choosePosixProbeShell({}, fsWith([], SHELLS), home)).toBe("/bin/zsh");
    expect(choosePosixProbeShell({}, fsWith([], ["/bin/bash", "/bin/sh"]), home)).toBe("/bin/bash");
    expect(choosePosixProbeShell({}, fsWith([], ["/bin/sh"]), home)).toBe("/bin/sh");
    // ~/.bashrc but no /bin/bash: the fallback order, not a missing bash.
    expect(choosePosixProbeShell({}, fsWith([`${home}/.bashrc`], ["/bin/sh"]), home)).toBe("/bin/sh");
  });

  it("BASH-ENV-3 reports a missing shell with what was looked for", () => {
    const choice = chooseProbeShell("linux", { SHELL: "/gone/zsh" }, fsWith([], []), home);
    expect(choice.shell).toBeUndefined();
    expect(choice.missing).toContain("/bin/sh");
  });

  describe("on the real file system with a fake HOME", () => {
    let fake: FakeHome;
    afterEach(() => fake.cleanup());

    it("BASH-ENV-3 picks /bin/zsh for a HOME with .zshrc and /bin/bash for one with only .bashrc", () => {
      fake = makeFakeHome({ ".zshrc": "" });
      expect(choosePosixProbeShell({}, realProbeFileSystem, fake.home)).toBe("/bin/zsh");
      fake.cleanup();
      fake = makeFakeHome({ ".bashrc": "" });
      expect(choosePosixProbeShell({}, realProbeFileSystem, fake.home)).toBe("/bin/bash");
      expect(choosePosixProbeShell({ SHELL: "/bin/zsh" }, realProbeFileSystem, fake.home)).toBe("/bin/zsh");
    });

    it("BASH-ENV-3 does not take a directory or a non-executable file as $SHELL", () => {
      fake = makeFakeHome({ ".bashrc": "", "not-a-shell": "#!/bin/sh\n" });
      expect(choosePosixProbeShell({ SHELL: fake.home }, realProbeFileSystem, fake.home)).toBe("/bin/bash");
      expect(choosePosixProbeShell({ SHELL: `${fake.home}/not-a-shell` }, realProbeFileSystem, fake.home)).toBe("/bin/bash");
    });
  });
});

describe("BASH-ENV-9 Git Bash for the Windows probe", () => {
  const standard = "C:\\Program Files\\Git\\bin\\bash.exe";

  it("BASH-ENV-9 uses WAVE_GIT_BASH_PATH (any case) when that file exists, and not when it does not", () => {
    const custom = "D:\\tools\\Git\\bin\\bash.exe";
    expect(findGitBash({ wave_git_bash_path: custom }, fsWith([custom, standard]))).toBe(custom);
    expect(findGitBash({ WAVE_GIT_BASH_PATH: "D:\\gone\\bash.exe" }, fsWith([standard]))).toBe(standard);
  });

  it("BASH-ENV-9 finds the installation that owns git.exe on PATH (cmd\\ and mingw64\\bin\\ layouts)", () => {
    const viaCmd = fsWith(["E:\\Git\\cmd\\git.exe", "E:\\Git\\bin\\bash.exe"]);
    expect(findGitBash({ Path: "C:\\Windows;E:\\Git\\cmd" }, viaCmd)).toBe("E:\\Git\\bin\\bash.exe");
    const viaMingw = fsWith(["E:\\Git\\mingw64\\bin\\git.exe", "E:\\Git\\bin\\bash.exe"]);
    expect(findGitBash({ PATH: '"E:\\Git\\mingw64\\bin";C:\\Windows' }, viaMingw)).toBe("E:\\Git\\bin\\bash.exe");
  });

  it("BASH-ENV-9 falls back to the standard locations, then LOCALAPPDATA, and reports when there is none", () => {
    expect(findGitBash({}, fsWith([standard]))).toBe(standard);
    const x86 = "C:\\Program Files (x86)\\Git\\bin\\bash.exe";
    expect(findGitBash({}, fsWith([x86]))).toBe(x86);
    const user = "C:\\Users\\me\\AppData\\Local\\Programs\\Git\\bin\\bash.exe";
    expect(findGitBash({ LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, fsWith([user]))).toBe(user);
    const none = chooseProbeShell("win32", {}, fsWith([]), undefined);
    expect(none.shell).toBeUndefined();
    expect(none.missing).toContain("WAVE_GIT_BASH_PATH");
  });
});
