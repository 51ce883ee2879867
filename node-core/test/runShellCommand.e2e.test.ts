// run_shell_command through the bundled core: live progress over the host protocol, and a
// directory the user may not enter, with a real unprivileged user where the tests run as root.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE, bundleForAnyUser, CoreProcess } from "./support/coreProcess.js";
import { tempDir } from "./support/processes.js";

const cores: CoreProcess[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.kill();
});

describe("run_shell_command over the host protocol", () => {
  it("RSC progress: tool/progress carries the output tail, at most once per second of run time", async () => {
    const core = new CoreProcess(["serve", "--root", tempDir("wave-rsc-e2e-"), "--permission-mode", "allow-all"]);
    cores.push(core);
    await core.request("initialize", {});
    const res = await core.request("tools/call", {
      name: "run_shell_command",
      arguments: { command: "for i in $(seq 1 40); do echo step$i; echo note$i >&2; sleep 0.05; done" },
      callId: "rsc-1",
    });
    const s = res.result.structuredContent;
    expect(s.exitCode).toBe(0);
    const updates = core.notifications("tool/progress").filter((n) => n.params.callId === "rsc-1");
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(Math.floor(s.durationMs / 1000) + 1);
    for (const u of updates) {
      expect(u.params).toMatchObject({ sessionId: "main", progress: expect.any(Number) });
      expect(u.params.message).toMatch(/step\d+\n\[stderr\]\n(.*\n)*note\d+$/);
    }
    // Progress comes before the answer, never after it.
    const answeredAt = core.received.findIndex((m) => m.id === res.id);
    for (const u of updates) expect(core.received.indexOf(u)).toBeLessThan(answeredAt);
  });
});

describe("RSC-4 a directory the user may not enter", () => {
  it("RSC-4 is refused with a permission error before anything runs", () => {
    const root = tempDir("wave-rsc-perm-");
    chmodSync(root, 0o755);
    mkdirSync(path.join(root, "locked"));
    chmodSync(path.join(root, "locked"), 0o000);
    // root may enter any directory: run the core as an unprivileged user to meet the refusal for real.
    const asRoot = process.getuid?.() === 0;
    const r = spawnSync(process.execPath, [asRoot ? bundleForAnyUser() : BUNDLE, "call", "run_shell_command", JSON.stringify({ command: "touch ../made", directory: "locked" }), "--root", root], {
      encoding: "utf8",
      timeout: 30_000,
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      env: { ...process.env, HOME: root, WAVE_OUTPUT_DIR: path.join(root, "out") },
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain(`Error: No permission to enter directory "locked" (${path.join(root, "locked")}, EACCES). Check its permissions (ls -ld locked) or choose another directory.`);
    expect(r.stdout).toContain("Process Group PGID: (none)");
    chmodSync(path.join(root, "locked"), 0o755);
  });
});
