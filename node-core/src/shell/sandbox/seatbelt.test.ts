// The macOS sandbox for real: sandbox-exec with the generated profile, through the Bash tool.
// Runs on macOS only (the macOS job of .github/workflows/sandbox.yml); Linux runs the same
// promises against bubblewrap in sandbox.test.ts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeCores, testCore } from "../../../test/support/core.js";
import { tempDir } from "../../../test/support/processes.js";

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeCores();
});

describe.runIf(process.platform === "darwin")("sandbox-exec (macOS)", () => {
  it("is detected and active", async () => {
    const t = testCore();
    expect(await t.core.sandbox.status()).toEqual({ active: true, kind: "seatbelt", network: "allow" });
  });

  it("writes go to the workspace and TMPDIR only; protected names and renaming their folders are refused", async () => {
    const t = testCore();
    const outside = tempDir("wave-outside-");
    spawnSync("git", ["init", "-q"], { cwd: t.root });
    const r = await t.bash({
      command: [
        "echo in > inside.txt",
        `echo out > '${outside}/x.txt'`,
        'echo tmp > "$TMPDIR/t.txt" && cat "$TMPDIR/t.txt"',
        "echo evil >> .git/config",
        "echo evil > .git/hooks/pre-commit",
        "mv .git .git-away",
        "true",
      ].join("\n"),
    });
    expect(r.s.sandboxed).toBe(true);
    expect(readFileSync(path.join(t.root, "inside.txt"), "utf8")).toBe("in\n");
    expect(r.s.output).toContain("tmp\n");
    expect(existsSync(path.join(outside, "x.txt"))).toBe(false);
    expect(readFileSync(path.join(t.root, ".git/config"), "utf8")).not.toContain("evil");
    expect(existsSync(path.join(t.root, ".git/hooks/pre-commit"))).toBe(false);
    expect(existsSync(path.join(t.root, ".git"))).toBe(true);
    expect(existsSync(path.join(t.root, ".git-away"))).toBe(false);
    expect(r.s.output).toMatch(/Operation not permitted/);
  });

  it("credential stores and denyRead paths are unreadable; public keys are not", async () => {
    const home = tempDir("wave-home-");
    mkdirSync(path.join(home, ".ssh"));
    writeFileSync(path.join(home, ".ssh/id_ed25519"), "PRIVATE KEY");
    writeFileSync(path.join(home, ".ssh/id_ed25519.pub"), "ssh-ed25519 AAAA");
    vi.stubEnv("HOME", home);
    const t = testCore();
    writeFileSync(path.join(t.root, "secret.env"), "TOKEN=1");
    t.core.workspace.updateSettings({ sandbox: { denyRead: ["secret.env"] } });
    const r = await t.bash({ command: "cat ~/.ssh/id_ed25519; cat ~/.ssh/id_ed25519.pub; echo; cat secret.env; true" });
    expect(r.s.output).toContain("ssh-ed25519 AAAA");
    expect(r.s.output).not.toContain("PRIVATE KEY");
    expect(r.s.output).not.toContain("TOKEN=1");
  });

  it("network deny blocks IP traffic, loopback included; allow does not", async () => {
    const server = net.createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const t = testCore();
      const probe = `/bin/bash -c 'echo ping > /dev/tcp/127.0.0.1/${port}' && echo connected || echo refused`;
      expect((await t.bash({ command: probe })).s.output).toContain("connected");
      t.core.workspace.updateSettings({ sandbox: { network: "deny" } });
      expect((await t.bash({ command: probe })).s.output).toContain("refused");
    } finally {
      server.close();
    }
  });

  it("dangerouslyDisableSandbox runs outside", async () => {
    const t = testCore();
    const outside = tempDir("wave-escape-");
    const r = await t.bash({ command: `echo out > '${outside}/x.txt'`, dangerouslyDisableSandbox: true });
    expect(r.s.sandboxed).toBe(false);
    expect(readFileSync(path.join(outside, "x.txt"), "utf8")).toBe("out\n");
  });
});
