import { describe, expect, it } from "vitest";
import { fromGitBashPath, gitInstallRoot, toGitBashPath } from "./winpath.js";

describe("Git Bash path conversion", () => {
  it("BASH-WIN-4 hands native paths to Git Bash with forward slashes", () => {
    expect(toGitBashPath("C:\\Users\\me\\AppData\\Local\\Temp\\wave\\r.cwd")).toBe("C:/Users/me/AppData/Local/Temp/wave/r.cwd");
    expect(toGitBashPath("\\\\server\\share\\x")).toBe("//server/share/x");
  });

  it("BASH-WIN-5 converts pwd -P output to native paths", () => {
    expect(fromGitBashPath("/c/Users/me/github/wave-agent")).toBe("C:\\Users\\me\\github\\wave-agent");
    expect(fromGitBashPath("/cygdrive/d/work/x")).toBe("D:\\work\\x");
    expect(fromGitBashPath("/c")).toBe("C:\\");
    expect(fromGitBashPath("/c/")).toBe("C:\\");
    expect(fromGitBashPath("//server/share/dir/sub")).toBe("\\\\server\\share\\dir\\sub");
    expect(fromGitBashPath("C:/Users/me")).toBe("C:\\Users\\me");
    expect(fromGitBashPath("C:\\Users\\me")).toBe("C:\\Users\\me");
    expect(fromGitBashPath("/c/Program Files/My 'quoted' dir")).toBe("C:\\Program Files\\My 'quoted' dir");
  });

  it("BASH-WIN-5 maps MSYS mount paths through the install root and TEMP", () => {
    const mounts = { root: "C:\\Program Files\\Git", tmp: "C:\\Users\\me\\AppData\\Local\\Temp" };
    expect(fromGitBashPath("/usr/bin", mounts)).toBe("C:\\Program Files\\Git\\usr\\bin");
    expect(fromGitBashPath("/tmp/build", mounts)).toBe("C:\\Users\\me\\AppData\\Local\\Temp\\build");
    expect(fromGitBashPath("/tmp", mounts)).toBe("C:\\Users\\me\\AppData\\Local\\Temp");
    expect(fromGitBashPath("/usr/bin")).toBeUndefined();
    expect(fromGitBashPath("")).toBeUndefined();
  });

  it("finds the Git install root from bash.exe", () => {
    expect(gitInstallRoot("C:\\Program Files\\Git\\bin\\bash.exe")).toBe("C:\\Program Files\\Git");
    expect(gitInstallRoot("C:\\Program Files\\Git\\usr\\bin\\bash.exe")).toBe("C:\\Program Files\\Git");
  });
});
