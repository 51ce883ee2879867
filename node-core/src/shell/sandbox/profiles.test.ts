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
    pinned: ["/ws/.git"],
    readOnly: ["/ws/.git/config", "/ws/.git/hooks", `${ODD}/.vscode`],
    denied: [
      { path: "/home/me/.gnupg", directory: true },
      { path: "/home/me/.netrc", directory: false },
    ],
    network: "allow",
    tmpDir: "/out/tmp",
    ignored: [],
    ...extra,
  };
}

const masks = { directory: "/out/sandbox/denied-directory", file: "/out/sandbox/denied-file" };

describe("bubblewrap argv", () => {
  it("isolates pids and IPC, drops capabilities, mounts the policy in order, and keeps the network unless denied", () => {
    const args = bwrapArgs(policy(), { cwd: "/ws/sub", masks });
    expect(args.slice(0, 15)).toEqual(["--unshare-pid", "--unshare-ipc", "--cap-drop", "ALL", "--info-fd", "3", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", "/ws"]);
    expect(args).not.toContain("--unshare-net");
    expect(args).not.toContain("--die-with-parent");
    const triple = (i: number) => args.slice(i, i + 3);
    const at = (flag: string, p: string) => args.findIndex((a, i) => a === flag && args[i + 2] === p);
    expect(triple(at("--bind", "/ws/.git"))).toEqual(["--bind", "/ws/.git", "/ws/.git"]);
    expect(triple(at("--ro-bind", "/ws/.git/config"))).toEqual(["--ro-bind", "/ws/.git/config", "/ws/.git/config"]);
    expect(triple(at("--ro-bind", "/home/me/.gnupg"))).toEqual(["--ro-bind", masks.directory, "/home/me/.gnupg"]);
    expect(triple(at("--ro-bind", "/home/me/.netrc"))).toEqual(["--ro-bind", masks.file, "/home/me/.netrc"]);
    // The pin comes after the workspace and before what it holds.
    expect(at("--bind", "/ws")).toBeLessThan(at("--bind", "/ws/.git"));
    expect(at("--bind", "/ws/.git")).toBeLessThan(at("--ro-bind", "/ws/.git/config"));
    // Odd paths are single argv words: nothing to escape.
    expect(triple(at("--bind", ODD))).toEqual(["--bind", ODD, ODD]);
    expect(args.slice(-2)).toEqual(["--chdir", "/ws/sub"]);
  });

  it("network deny adds a network namespace of its own", () => {
    expect(bwrapArgs(policy({ network: "deny" }), { cwd: "/ws", masks })).toContain("--unshare-net");
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
    expect(values).toEqual(["/ws", ODD, "/out/tmp", "/out/run.log", "/ws/.git", "/ws/.git/config", "/ws/.git/hooks", `${ODD}/.vscode`, "/ws/.git", "/home/me/.gnupg", "/home/me/.netrc", "/home/me/.netrc"]);
    // Keys are unique and only [A-Z0-9]: the profile's text is fixed whatever the paths are.
    const keys = params.map((p) => p.slice(0, p.indexOf("=")));
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k).toMatch(/^[A-Z][0-9]+$/);
  });

  it("orders the rules so the last match decides: writes denied, allowed places, protections, pins, denied reads, network", () => {
    const { profile } = seatbeltProfile(policy({ network: "deny" }));
    expect(profile.split("\n").filter(Boolean)).toEqual([
      "(version 1)",
      "(allow default)",
      "(deny file-write*)",
      '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (literal "/dev/stdout") (literal "/dev/stderr") (subpath "/dev/fd"))',
      '(allow file-write* (subpath (param "W0")) (subpath (param "W1")) (subpath (param "W2")) (subpath (param "W3")) (subpath (param "W4")))',
      '(deny file-write* (subpath (param "R5")) (subpath (param "R6")) (subpath (param "R7")))',
      '(deny file-write-unlink (literal (param "P8")))',
      '(deny file-read* file-write* (subpath (param "D9")) (subpath (param "D10")))',
      '(deny network-outbound (remote unix-socket (path-literal (param "S11"))))',
      "(deny network-outbound (remote ip))",
      "(deny network-inbound (local ip))",
    ]);
    expect(seatbeltProfile(policy()).profile).not.toContain("remote ip");
  });

  it("sandbox-exec gets the profile, the parameters, then the command", () => {
    const args = sandboxExecArgs(policy(), ["/bin/zsh", "-c", "echo hi"]);
    expect(args[0]).toBe("-p");
    expect(args[1]).toBe(seatbeltProfile(policy()).profile);
    expect(args.slice(2, 4)).toEqual(["-D", "W0=/ws"]);
    expect(args.slice(-3)).toEqual(["/bin/zsh", "-c", "echo hi"]);
  });
});
