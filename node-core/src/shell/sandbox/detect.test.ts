// Finding a usable sandbox: the real bwrap on this machine, a missing one, a bwrap that cannot
// create namespaces (a script that fails the way bwrap does where they are refused), and the macOS
// and Windows branches through an injected platform.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/processes.js";
import { platformWith } from "../../../test/support/platform.js";
import { hostPlatform } from "../../util/platform.js";
import { BWRAP_PROBE_ARGS, detectSandbox } from "./detect.js";
import { SANDBOX_EXEC } from "./macos.js";

function script(body: string): string {
  const file = path.join(tempDir("wave-fake-bwrap-"), "bwrap");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe("detecting the sandbox", () => {
  it("Linux: the system's bwrap passes the start-up check (the options every command uses)", async () => {
    const a = await detectSandbox(hostPlatform(), process.env);
    expect(a).toEqual({ kind: "bubblewrap", available: true, program: "/usr/bin/bwrap", disableUserns: true });
    expect(BWRAP_PROBE_ARGS).toEqual(expect.arrayContaining(["--unshare-user", "--disable-userns", "--unshare-pid", "--unshare-net", "--cap-drop", "ALL", "/proc/sys"]));
  });

  it("Linux: a bwrap before 0.8 (no --disable-userns) is used without it; the seccomp filter keeps new user namespaces out", async () => {
    const old = script(`for a in "$@"; do [ "$a" = --disable-userns ] && { echo "bwrap: Unknown option --disable-userns" >&2; exit 1; }; done; exit 0`);
    expect(await detectSandbox(hostPlatform(), { WAVE_BWRAP: old })).toMatchObject({ available: true, program: old, disableUserns: false });
  });

  it("Linux: a bwrap in a place sandboxed commands may write is passed over before it runs; the next on PATH is used", async () => {
    const ws = tempDir("wave-planted-");
    const marker = path.join(ws, "ran");
    const planted = path.join(ws, "node_modules/.bin");
    mkdirSync(planted, { recursive: true });
    writeFileSync(path.join(planted, "bwrap"), `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(path.join(planted, "bwrap"), 0o755);
    const a = await detectSandbox(hostPlatform(), { PATH: `${planted}:${process.env.PATH}` }, [ws]);
    expect(a).toMatchObject({ available: true, program: "/usr/bin/bwrap", refused: [{ program: path.join(planted, "bwrap"), reason: expect.stringMatching(/which sandboxed commands may write/) }] });
    expect(existsSync(marker)).toBe(false);
    const only = await detectSandbox(hostPlatform(), { WAVE_BWRAP: path.join(planted, "bwrap") }, [ws]);
    expect(only).toMatchObject({
      available: false,
      reason: expect.stringMatching(/^bubblewrap was refused: .* A program that sandboxed commands \(or other accounts\) could have changed never runs\.$/),
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("Linux: missing from PATH, or WAVE_BWRAP naming nothing, says what to install", async () => {
    const none = await detectSandbox(hostPlatform(), { PATH: "/nonexistent:/also-not" });
    expect(none).toMatchObject({ kind: "bubblewrap", available: false, reason: "bubblewrap (bwrap) is not installed (not found on PATH)." });
    expect(none.remedy).toMatch(/^Install bubblewrap: sudo apt-get install bubblewrap \(Debian, Ubuntu\)/);
    expect(await detectSandbox(hostPlatform(), { WAVE_BWRAP: "/opt/none/bwrap", PATH: process.env.PATH })).toMatchObject({
      available: false,
      reason: "bubblewrap was not found at /opt/none/bwrap (WAVE_BWRAP).",
    });
    expect((await detectSandbox(hostPlatform(), { WAVE_BWRAP: "bwrap" })).reason).toMatch(/not an absolute path/);
  });

  it("Linux: a bwrap that may not create namespaces is reported with bwrap's own words and how to allow them", async () => {
    const refused = script(
      "echo \"bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.\" >&2; exit 1",
    );
    const a = await detectSandbox(hostPlatform(), { WAVE_BWRAP: refused });
    expect(a.available).toBe(false);
    expect(a.reason).toMatch(/^bwrap \(.*\) cannot create the sandbox's namespaces here: bwrap: No permissions to create new namespace/);
    expect(a.remedy).toMatch(/unprivileged user namespaces/);
    const broken = await detectSandbox(hostPlatform(), { WAVE_BWRAP: script('echo "bwrap: something odd" >&2; exit 1') });
    expect(broken.reason).toMatch(/failed its start-up check: bwrap: something odd$/);
  });

  it("macOS: sandbox-exec, checked by applying a profile", async () => {
    const calls: string[][] = [];
    const mac = (exitCode: number, stderr = "") =>
      platformWith({
        name: "darwin",
        isExecutable: (f) => f === SANDBOX_EXEC,
        exec: async (file, args) => {
          calls.push([file, ...args]);
          return { exitCode, stdout: Buffer.alloc(0), stderr: Buffer.from(stderr) };
        },
      });
    expect(await detectSandbox(mac(0), {})).toEqual({ kind: "seatbelt", available: true, program: SANDBOX_EXEC });
    expect(calls[0]).toEqual([SANDBOX_EXEC, "-p", "(version 1)(allow default)", "/usr/bin/true"]);
    const nested = await detectSandbox(mac(71, "sandbox-exec: sandbox_apply: Operation not permitted\n"), {});
    expect(nested).toMatchObject({ available: false, reason: "sandbox-exec cannot apply a profile here: sandbox-exec: sandbox_apply: Operation not permitted" });
    expect(nested.remedy).toMatch(/another sandbox/);
    const gone = await detectSandbox(platformWith({ name: "darwin", isExecutable: () => false }), {});
    expect(gone).toMatchObject({ kind: "seatbelt", available: false, reason: "/usr/bin/sandbox-exec is missing." });
  });

  it("Windows: no sandbox, plainly, and what would give one", async () => {
    const w = await detectSandbox(platformWith({ name: "win32" }), {});
    expect(w).toMatchObject({ kind: "none", available: false });
    expect(w.reason).toMatch(/^Windows has no OS sandbox the core can use: commands run with your full permissions\./);
    expect(w.remedy).toMatch(/WSL 2 with bubblewrap/);
  });
});
