// The sandbox through the bundled core: as an unprivileged user (bwrap then builds a user
// namespace too), and when the core dies with SIGKILL (the watchdog ends the sandbox's namespace,
// and with it a process that dropped every marker).
import { spawnSync } from "node:child_process";
import { chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE, bundleExists, bundleForAnyUser, CoreProcess, stopCores, type Message } from "./support/coreProcess.js";
import { isAlive, processesOfCore, tempDir, waitFor } from "./support/processes.js";

const clients: CoreProcess[] = [];
beforeAll(() => {
  if (!bundleExists()) throw new Error(`Build the bundle first (npm run build): ${BUNDLE} is missing.`);
});
afterEach(() => stopCores(clients));

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function structured(m: Message) {
  return (m.result as { structuredContent: Record<string, any> }).structuredContent;
}

/** Live processes whose command line is exactly `cmdline`. */
function processesNamed(cmdline: string): number[] {
  return readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readFileSync(`/proc/${e}/cmdline`, "utf8").replace(/\0+$/, "").replace(/\0/g, " ") === cmdline && isAlive(Number(e));
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.runIf(isRoot)("the sandbox for an unprivileged user (nobody)", () => {
  it("writes outside the workspace fail even where nobody may write; credentials are unreadable; processes are its own; tasks stop", async () => {
    const base = tempDir("wave-nobody-");
    const dirs = Object.fromEntries(["ws", "home", "out", "open"].map((d) => [d, path.join(base, d)]));
    for (const d of Object.values(dirs)) mkdirSync(d);
    mkdirSync(path.join(dirs.home!, ".ssh"));
    writeFileSync(path.join(dirs.home!, ".ssh/id_ed25519"), "PRIVATE KEY");
    writeFileSync(path.join(dirs.home!, ".ssh/id_ed25519.pub"), "ssh-ed25519 AAAA");
    for (const p of [base, ...Object.values(dirs), path.join(dirs.home!, ".ssh"), path.join(dirs.home!, ".ssh/id_ed25519"), path.join(dirs.home!, ".ssh/id_ed25519.pub")]) chownSync(p, NOBODY, NOBODY);
    const c = new CoreProcess(["serve", "--root", dirs.ws!, "--permission-mode", "allow-all"], {
      bundle: bundleForAnyUser(),
      env: { HOME: dirs.home, WAVE_OUTPUT_DIR: dirs.out, WAVE_LOGIN_ENV: "0", WAVE_SHELL: "/usr/bin/bash" },
      wrap: (argv) => ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...argv],
    });
    clients.push(c);
    await c.request("initialize", { protocolVersion: "2.0", hostInfo: { name: "e2e" } });
    const status = await c.request("env/status");
    expect(status.result!.sandbox).toEqual({ active: true, kind: "bubblewrap", network: "allow" });
    const r = await c.request("tools/call", {
      name: "Bash",
      arguments: { command: `id -u; echo in > in.txt; echo out > ${dirs.open}/x.txt; cat ~/.ssh/id_ed25519; cat ~/.ssh/id_ed25519.pub; echo; ps -e -o pid= | wc -l` },
    });
    const out = structured(r).output as string;
    expect(structured(r).sandboxed).toBe(true);
    expect(out.split("\n")[0]).toBe(String(NOBODY));
    expect(out).toContain(`${dirs.open}/x.txt: Read-only file system`);
    expect(out).toMatch(/id_ed25519: Permission denied/);
    expect(out).toContain("ssh-ed25519 AAAA");
    expect(out).not.toContain("PRIVATE KEY");
    expect(Number(out.trim().split("\n").at(-1))).toBeLessThan(8);
    expect(readFileSync(path.join(dirs.ws!, "in.txt"), "utf8")).toBe("in\n");
    expect(spawnSync("ls", [dirs.open!]).stdout.toString()).toBe("");

    // Network deny builds a network namespace as nobody too: only its own loopback.
    await c.request("settings/update", { settings: { sandbox: { network: "deny" } } });
    const net = await c.request("tools/call", { name: "Bash", arguments: { command: "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '" } });
    expect(structured(net).output).toBe("lo\n");

    const bg = await c.request("tools/call", { name: "Bash", arguments: { command: "trap '' TERM; sleep 310 & sleep 311", run_in_background: true } });
    await waitFor(() => processesNamed("sleep 310").length === 1 && processesNamed("sleep 311").length === 1);
    const stop = await c.request("tasks/stop", { taskId: structured(bg).backgroundTaskId });
    expect(stop.result).toMatchObject({ stopped: true });
    expect(await waitFor(() => processesNamed("sleep 310").length + processesNamed("sleep 311").length === 0, 5000)).toBe(true);
  });
});

describe("the core dies with SIGKILL", () => {
  it("the watchdog ends each sandbox's namespace: even a process without markers, in a session of its own, ignoring SIGTERM, is gone", async () => {
    const c = new CoreProcess(["serve", "--root", tempDir("wave-e2e-"), "--permission-mode", "allow-all"]);
    clients.push(c);
    await c.request("initialize", { protocolVersion: "2.0", hostInfo: { name: "e2e" } });
    const escapee = `env -u WAVE_RUN_ID -u WAVE_CORE_PID setsid bash -c 'trap "" TERM; exec -a wave-orphan-${c.child.pid} sleep 300' & sleep 300`;
    await c.request("tools/call", { name: "Bash", arguments: { command: escapee, run_in_background: true } });
    const name = `wave-orphan-${c.child.pid} 300`;
    expect(await waitFor(() => processesNamed(name).length === 1)).toBe(true);
    c.child.kill("SIGKILL");
    await c.exited;
    expect(await waitFor(() => processesNamed(name).length === 0 && processesOfCore(c.child.pid).length === 0, 5000, 100)).toBe(true);
  });
});
