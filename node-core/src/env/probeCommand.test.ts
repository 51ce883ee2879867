import { describe, expect, it } from "vitest";
import { ANTI_NOISE_VARIABLES, newMarkers, posixProbeScript, probeEnvironment, probeInvocation } from "./probeCommand.js";

describe("BASH-ENV-2 the probe command", () => {
  it("BASH-ENV-2 runs `<shell> -l -i -c` with the start marker, `env -0 && end marker || env`", () => {
    const markers = newMarkers("abc123");
    const inv = probeInvocation("linux", "/bin/zsh", markers);
    expect(inv.file).toBe("/bin/zsh");
    expect(inv.args.slice(0, 3)).toEqual(["-l", "-i", "-c"]);
    expect(inv.args[3]).toBe('command echo "__WAVE_LOGIN_ENV_abc123_START__"; command env -0 && command echo "__WAVE_LOGIN_ENV_abc123_END__" || command env');
    expect(probeInvocation("darwin", "/bin/bash", markers).args.slice(0, 3)).toEqual(["-l", "-i", "-c"]);
  });

  it("BASH-ENV-2 uses fresh markers for every attempt", () => {
    const a = newMarkers();
    const b = newMarkers();
    expect(a.start).not.toBe(b.start);
    expect(a.start).toMatch(/^__WAVE_LOGIN_ENV_[0-9a-f]{16}_START__$/);
  });

  it("BASH-ENV-7 the PATH-only form uses shell built-ins only", () => {
    expect(posixProbeScript(newMarkers("n"), "path-only")).toBe(`command echo "__WAVE_LOGIN_ENV_n_START__"; command printf '%s\\n' "$PATH"; command echo "__WAVE_LOGIN_ENV_n_END__"`);
  });

  it('BASH-ENV-9 on Windows runs Git Bash `-lic` with `cygpath -pw "$PATH"` between markers', () => {
    const inv = probeInvocation("win32", "C:\\Program Files\\Git\\bin\\bash.exe", newMarkers("w"));
    expect(inv.args).toEqual(["-lic", 'echo "__WAVE_LOGIN_ENV_w_START__"; cygpath -pw "$PATH" && echo "__WAVE_LOGIN_ENV_w_END__"']);
  });
});

describe("BASH-ENV-5 the probe shell's environment", () => {
  const inherited = {
    HOME: "/home/u",
    PATH: "/usr/bin:/bin",
    SHELL: "/usr/bin/fish",
    USER: "u",
    LOGNAME: "u",
    SSH_AUTH_SOCK: "/tmp/agent.sock",
    LANG: "de_DE.UTF-8",
    LC_ALL: "C.UTF-8",
    LC_CTYPE: "UTF-8",
    DISPLAY: ":0",
    WAYLAND_DISPLAY: "wayland-0",
    XDG_RUNTIME_DIR: "/run/user/1000",
    NODE_OPTIONS: "--require /evil.js",
    LD_PRELOAD: "/evil.so",
    ELECTRON_RUN_AS_NODE: "1",
    GIT_DIR: "/elsewhere/.git",
    IDEA_INITIAL_DIRECTORY: "/",
    HTTPS_PROXY: "http://host-proxy",
  };

  it("BASH-ENV-5 passes only HOME, PATH, SHELL, USER, SSH_AUTH_SOCK, locale and display variables, plus the anti-noise ones", () => {
    const env = probeEnvironment("linux", inherited, "/bin/zsh", "/home/u");
    expect(env).toEqual({
      HOME: "/home/u",
      PATH: "/usr/bin:/bin",
      SHELL: "/bin/zsh",
      USER: "u",
      LOGNAME: "u",
      SSH_AUTH_SOCK: "/tmp/agent.sock",
      LANG: "de_DE.UTF-8",
      LC_ALL: "C.UTF-8",
      LC_CTYPE: "UTF-8",
      DISPLAY: ":0",
      WAYLAND_DISPLAY: "wayland-0",
      XDG_RUNTIME_DIR: "/run/user/1000",
      DISABLE_AUTO_UPDATE: "true",
      ZSH_DISABLE_COMPFIX: "true",
      SSH_ASKPASS_REQUIRE: "never",
      DBUS_SESSION_BUS_ADDRESS: "disabled:",
    });
  });

  it("BASH-ENV-5 the anti-noise variables win over inherited ones of the same name", () => {
    const env = probeEnvironment("darwin", { HOME: "/Users/u", DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/bus", SSH_ASKPASS_REQUIRE: "force" }, "/bin/zsh", "/Users/u");
    expect(env.DBUS_SESSION_BUS_ADDRESS).toBe("disabled:");
    expect(env.SSH_ASKPASS_REQUIRE).toBe("never");
    expect(ANTI_NOISE_VARIABLES).toEqual({
      DISABLE_AUTO_UPDATE: "true",
      ZSH_DISABLE_COMPFIX: "true",
      SSH_ASKPASS_REQUIRE: "never",
      DBUS_SESSION_BUS_ADDRESS: "disabled:",
    });
  });

  it("BASH-ENV-5 HOME comes from the resolved home directory when the inherited environment lacks it", () => {
    expect(probeEnvironment("linux", { PATH: "/bin" }, "/bin/bash", "/home/from-os").HOME).toBe("/home/from-os");
  });

  it("BASH-ENV-9 Git Bash keeps the Windows system variables it needs to start", () => {
    const env = probeEnvironment("win32", { SystemRoot: "C:\\Windows", Path: "C:\\Windows", USERPROFILE: "C:\\Users\\u" }, "C:\\Git\\bin\\bash.exe", "C:\\Users\\u");
    expect(env.SystemRoot).toBe("C:\\Windows");
    expect(env.Path).toBe("C:\\Windows");
    expect(env.DISABLE_AUTO_UPDATE).toBe("true");
  });
});
