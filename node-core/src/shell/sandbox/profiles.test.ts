// The two renderings of a policy: bubblewrap's argv (Linux) and the Seatbelt profile with its
// parameters (macOS; run for real by the macOS job of .github/workflows/build.yml). Pure.
import { describe, expect, it } from "vitest";
import { bwrapArgs } from "./linux.js";
import { sandboxExecArgs, seatbeltProfile } from "./macos.js";
import type { SandboxPolicy } from "./policy.js";

const ODD = '/Users/me/proj "quoted" (paren) \\back\nline\t$(rm -rf ~);`x`';

function policy(extra: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    writable: ["/ws", ODD, "/out/tmp", "/out/run.log"],
    pinned: ["/ws/app"],
    readOnly: ["/ws/.git", "/ws/app/.git", `${ODD}/.vscode`],
    denied: [
      { path: "/home/me/.gnupg", directory: true },
      { path: "/home/me/.netrc", directory: false },
    ],
    filtered: [{ path: "/home/me/.npmrc", copy: "/out/sandbox/filtered/x-.npmrc" }],
    network: "allow",
    unixSockets: "blocked",
    unixSocketsAllowed: [],
    tmpDir: "/out/tmp",
    ignored: [],
    notes: [],
    gitEntries: ["/ws/.git", "/ws/app/.git"],
    gitRoots: ["/ws", ODD],
    fileLevel: ["/home/me/.netrc", "/home/me/.npmrc"],
    ...extra,
  };
}

const masks = { directory: "/out/sandbox/denied-directory", file: "/out/sandbox/denied-file" };

describe("bubblewrap argv", () => {
  it("isolates users, pids and IPC, drops capabilities, filters syscalls, keeps the kernel's settings read-only, mounts the policy in order, and keeps the network unless denied", () => {
    const args = bwrapArgs(policy(), { cwd: "/ws/sub", masks, seccomp: true });
    expect(args.slice(0, 29)).toEqual([
      "--unshare-user",
      "--disable-userns",
      "--unshare-pid",
      "--unshare-ipc",
      "--cap-drop",
      "ALL",
      "--info-fd",
      "3",
      "--seccomp",
      "5",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--ro-bind",
      "/proc/sys",
      "/proc/sys",
      "--ro-bind-try",
      "/proc/acpi",
      "/proc/acpi",
      "--bind",
      "/ws",
      "/ws",
      "--bind",
      "/out/run.log",
      "/out/run.log",
    ]);
    expect(bwrapArgs(policy(), { cwd: "/ws", masks, seccomp: false })).not.toContain("--seccomp");
    expect(args).not.toContain("--unshare-net");
    expect(args).not.toContain("--die-with-parent");
    const triple = (i: number) => args.slice(i, i + 3);
    const at = (flag: string, p: string) => args.findIndex((a, i) => a === flag && args[i + 2] === p);
    expect(triple(at("--bind", "/ws/app"))).toEqual(["--bind", "/ws/app", "/ws/app"]);
    expect(triple(at("--ro-bind", "/ws/.git"))).toEqual(["--ro-bind", "/ws/.git", "/ws/.git"]);
    expect(triple(at("--ro-bind", "/home/me/.gnupg"))).toEqual(["--ro-bind", masks.directory, "/home/me/.gnupg"]);
    expect(triple(at("--ro-bind", "/home/me/.netrc"))).toEqual(["--ro-bind", masks.file, "/home/me/.netrc"]);
    // A filtered credential store shows its copy without secrets, read-only, in its place.
    expect(triple(at("--ro-bind", "/home/me/.npmrc"))).toEqual(["--ro-bind", "/out/sandbox/filtered/x-.npmrc", "/home/me/.npmrc"]);
    // The pin comes after the workspace and before what it holds.
    expect(at("--bind", "/ws")).toBeLessThan(at("--bind", "/ws/app"));
    expect(at("--bind", "/ws/app")).toBeLessThan(at("--ro-bind", "/ws/app/.git"));
    // Odd paths are single argv words: nothing to escape.
    expect(triple(at("--bind", ODD))).toEqual(["--bind", ODD, ODD]);
    expect(args.slice(-2)).toEqual(["--chdir", "/ws/sub"]);
  });

  it("network deny adds a network namespace of its own", () => {
    expect(bwrapArgs(policy({ network: "deny" }), { cwd: "/ws", masks, seccomp: true })).toContain("--unshare-net");
  });
});

describe("Seatbelt profile", () => {
  it("has no path in its text: every path is a -D parameter, however odd", () => {
    const { profile, params } = seatbeltProfile(policy());
    expect(profile).not.toContain("/ws");
    expect(profile).not.toContain("quoted");
    expect(profile).not.toContain("rm -rf");
    expect(params).toContain(`W1=${ODD}`);
    const values = params.map((p) => p.slice(p.indexOf("=") + 1));
    expect(values).toEqual([
      "/ws",
      ODD,
      "/out/tmp",
      "/out/run.log",
      "/ws/app",
      "/ws/.git",
      "/ws/app/.git",
      `${ODD}/.vscode`,
      "/ws/app",
      "/ws",
      ODD,
      "/out/tmp",
      "/out/run.log",
      "/home/me/.gnupg",
      "/home/me/.netrc",
      "/home/me/.npmrc",
      "/home/me/.netrc",
      "/home/me/.npmrc",
    ]);
    // Keys are unique and only [A-Z0-9]: the profile's text is fixed whatever the paths are.
    const keys = params.map((p) => p.slice(0, p.indexOf("=")));
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k).toMatch(/^[A-Z][0-9]+$/);
  });

  it("orders the rules so the last match decides: writes denied, allowed places, protections (every .git whole), pins, sysctl, unix sockets, denied reads, network", () => {
    const { profile } = seatbeltProfile(policy({ network: "deny" }));
    expect(profile.split("\n").filter(Boolean)).toEqual([
      "(version 1)",
      "(allow default)",
      "(deny file-write*)",
      '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (literal "/dev/stdout") (literal "/dev/stderr") (subpath "/dev/fd"))',
      "(deny sysctl-write)",
      '(allow file-write* (subpath (param "W0")) (subpath (param "W1")) (subpath (param "W2")) (subpath (param "W3")) (subpath (param "W4")))',
      '(deny file-write* (subpath (param "R5")) (subpath (param "R6")) (subpath (param "R7")))',
      '(deny file-write-unlink (literal (param "P8")))',
      "(deny network-outbound (remote unix-socket))",
      '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
      '(allow network-outbound (subpath (param "U9")) (subpath (param "U10")) (subpath (param "U11")) (subpath (param "U12")))',
      '(deny file-read* file-write* (subpath (param "D13")) (subpath (param "D14")) (subpath (param "D15")))',
      '(deny network-outbound (remote unix-socket (path-literal (param "S16"))) (remote unix-socket (path-literal (param "S17"))))',
      "(deny network-outbound (remote ip))",
      "(deny network-inbound (local ip))",
    ]);
    expect(seatbeltProfile(policy()).profile).not.toContain("remote ip");
  });

  it("an allowed unix socket is the one socket outside the writable places a command may connect to", () => {
    const { params, profile } = seatbeltProfile(policy({ unixSocketsAllowed: ["/Users/me/.ssh/agent.sock"] }));
    const key = params.find((p) => p.endsWith("=/Users/me/.ssh/agent.sock"))!.split("=")[0]!;
    expect(profile).toMatch(new RegExp(`\\(allow network-outbound [^\n]*\\(subpath \\(param "${key}"\\)\\)\\)`));
    expect(profile.indexOf("(deny network-outbound (remote unix-socket))")).toBeLessThan(profile.indexOf(`(param "${key}")`));
  });

  it("sandbox-exec gets the profile, the parameters, then the command", () => {
    const args = sandboxExecArgs(policy(), ["/bin/zsh", "-c", "echo hi"]);
    expect(args[0]).toBe("-p");
    expect(args[1]).toBe(seatbeltProfile(policy()).profile);
    expect(args.slice(2, 4)).toEqual(["-D", "W0=/ws"]);
    expect(args.slice(-3)).toEqual(["/bin/zsh", "-c", "echo hi"]);
  });
});
