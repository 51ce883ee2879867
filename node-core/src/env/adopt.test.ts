import { describe, expect, it } from "vitest";
import { ADOPTED_KEYS, adoptInto, isAdoptable, mergePath } from "./adopt.js";

const probed = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe("BASH-ENV-4 adoption: allow-list and no-override", () => {
  it("BASH-ENV-4 the allow-list covers PATH, the agent, Wave's shell, proxies in both spellings and trust stores", () => {
    for (const key of [
      "PATH",
      "SSH_AUTH_SOCK",
      "WAVE_SHELL",
      "WAVE_GIT_BASH_PATH",
      "HTTP_PROXY",
      "HTTPS_PROXY",
      "ALL_PROXY",
      "NO_PROXY",
      "http_proxy",
      "https_proxy",
      "all_proxy",
      "no_proxy",
      "NODE_EXTRA_CA_CERTS",
      "SSL_CERT_FILE",
      "SSL_CERT_DIR",
      "REQUESTS_CA_BUNDLE",
      "CURL_CA_BUNDLE",
      "GIT_SSL_CAINFO",
    ]) {
      expect(ADOPTED_KEYS).toContain(key);
      expect(isAdoptable(key, "linux")).toBe(true);
    }
  });

  it("BASH-ENV-4 adopts allow-listed keys that are not set and nothing else", () => {
    const env: NodeJS.ProcessEnv = { HOME: "/h" };
    const adopted = adoptInto(
      env,
      probed({
        SSH_AUTH_SOCK: "/tmp/agent",
        NODE_EXTRA_CA_CERTS: "/etc/corp.pem",
        NODE_OPTIONS: "--require /x.js",
        LD_PRELOAD: "/x.so",
        LD_LIBRARY_PATH: "/x",
        DYLD_INSERT_LIBRARIES: "/x.dylib",
        GIT_DIR: "/x/.git",
        GIT_SSH_COMMAND: "ssh -i x",
        BASH_ENV: "/x.sh",
        OPENAI_API_KEY: "sk-x",
        JAVA_HOME: "/jdk",
        HOME: "/elsewhere",
      }),
      "linux",
    );
    expect(adopted).toEqual(["NODE_EXTRA_CA_CERTS", "SSH_AUTH_SOCK"]);
    expect(env).toEqual({ HOME: "/h", SSH_AUTH_SOCK: "/tmp/agent", NODE_EXTRA_CA_CERTS: "/etc/corp.pem" });
  });

  it("BASH-ENV-4 never adopts NODE_OPTIONS, LD_*, DYLD_* or GIT_* other than GIT_SSL_CAINFO", () => {
    for (const key of ["NODE_OPTIONS", "LD_PRELOAD", "LD_AUDIT", "DYLD_LIBRARY_PATH", "GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_GLOBAL", "BASH_ENV", "ZDOTDIR"]) {
      expect(isAdoptable(key, "linux")).toBe(false);
      expect(isAdoptable(key, "darwin")).toBe(false);
    }
    expect(isAdoptable("GIT_SSL_CAINFO", "linux")).toBe(true);
  });

  it("BASH-ENV-4 never overrides a key the host set, even to an empty value", () => {
    const env: NodeJS.ProcessEnv = { SSH_AUTH_SOCK: "/host/agent", HTTP_PROXY: "" };
    const adopted = adoptInto(env, probed({ SSH_AUTH_SOCK: "/login/agent", HTTP_PROXY: "http://login" }), "linux");
    expect(adopted).toEqual([]);
    expect(env).toEqual({ SSH_AUTH_SOCK: "/host/agent", HTTP_PROXY: "" });
  });

  it("BASH-ENV-4 a proxy the host set in one spelling is not adopted in the other", () => {
    const env: NodeJS.ProcessEnv = { HTTPS_PROXY: "http://host", no_proxy: "localhost" };
    const adopted = adoptInto(env, probed({ https_proxy: "http://login", NO_PROXY: "*", ALL_PROXY: "socks5://login" }), "linux");
    expect(adopted).toEqual(["ALL_PROXY"]);
    expect(env).toEqual({ HTTPS_PROXY: "http://host", no_proxy: "localhost", ALL_PROXY: "socks5://login" });
  });

  it("BASH-ENV-4 merges PATH: probed entries first, inherited after, each once, empty entries dropped", () => {
    const env: NodeJS.ProcessEnv = { PATH: "/ide/bin:/usr/bin:/bin" };
    const adopted = adoptInto(env, probed({ PATH: "/home/u/.nvm/bin:/usr/bin::/opt/homebrew/bin:/home/u/.nvm/bin" }), "linux");
    expect(adopted).toEqual(["PATH"]);
    expect(env.PATH).toBe("/home/u/.nvm/bin:/usr/bin:/opt/homebrew/bin:/ide/bin:/bin");
  });

  it("BASH-ENV-4 PATH is not reported as adopted when the merge changes nothing", () => {
    const env: NodeJS.ProcessEnv = { PATH: "/usr/bin:/bin" };
    expect(adoptInto(env, probed({ PATH: "/usr/bin:/bin" }), "linux")).toEqual([]);
    expect(env.PATH).toBe("/usr/bin:/bin");
  });

  it("BASH-ENV-4 sets PATH when the core had none", () => {
    const env: NodeJS.ProcessEnv = {};
    expect(adoptInto(env, probed({ PATH: "/usr/bin" }), "linux")).toEqual(["PATH"]);
    expect(env.PATH).toBe("/usr/bin");
  });

  it("BASH-ENV-4 on Windows the key is case-insensitive: the existing `Path` is updated, not a second key added", () => {
    const env: NodeJS.ProcessEnv = { Path: "C:\\Windows\\system32;C:\\Users\\u\\AppData\\Local\\ide\\bin" };
    const adopted = adoptInto(env, probed({ PATH: "C:\\Users\\u\\bin;c:\\windows\\System32\\;C:\\Program Files\\Git\\usr\\bin" }), "win32");
    expect(adopted).toEqual(["PATH"]);
    expect(Object.keys(env)).toEqual(["Path"]);
    expect(env.Path).toBe("C:\\Users\\u\\bin;c:\\windows\\System32\\;C:\\Program Files\\Git\\usr\\bin;C:\\Users\\u\\AppData\\Local\\ide\\bin");
  });

  it("BASH-ENV-9 on Windows only PATH is adopted", () => {
    const env: NodeJS.ProcessEnv = { Path: "C:\\Windows" };
    expect(adoptInto(env, probed({ PATH: "C:\\Git\\bin", SSH_AUTH_SOCK: "/tmp/s", HTTPS_PROXY: "http://p" }), "win32")).toEqual(["PATH"]);
    expect(Object.keys(env)).toEqual(["Path"]);
  });

  it("BASH-ENV-4 PATH merge keeps case on macOS/Linux (two directories differing in case stay two)", () => {
    expect(mergePath("/Opt/Bin", "/opt/bin", "linux")).toBe("/Opt/Bin:/opt/bin");
    expect(mergePath("C:\\A", "c:\\a\\", "win32")).toBe("C:\\A");
  });
});
