import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive, processesWithEnv, waitFor } from "../../test/support/processes.js";
import { WATCHDOG_SCRIPT } from "./watchdog.js";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) {
    try {
      process.kill(-c.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

function watchdog(token: string, mode: "proc" | "groups") {
  const child = spawn("/bin/sh", ["-c", WATCHDOG_SCRIPT, "wave-core-watchdog", token, mode], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
  });
  started.push(child);
  return child;
}

function tagged(script: string, marker: string | undefined) {
  const env = { ...process.env };
  if (marker) env.WAVE_RUN_ID = marker;
  else delete env.WAVE_RUN_ID;
  const child = spawn("bash", ["-c", script], { detached: true, stdio: "ignore", env });
  started.push(child);
  return child;
}

describe("watchdog script", () => {
  it("at end of input stops every process carrying the token, TERM-ignoring ones with SIGKILL", async () => {
    const token = `${Math.floor(Math.random() * 0xffffffff)
      .toString(16)
      .padStart(8, "0")}`;
    const w = watchdog(token, "proc");
    tagged("sleep 300", `${token}.1.1`);
    tagged("trap '' TERM; setsid bash -c \"trap '' TERM; sleep 301\" & sleep 302", `other.1.1:${token}.2.7`);
    const bystander = tagged("sleep 303", `ffffffff.1.1`);
    await waitFor(() => processesWithEnv("WAVE_RUN_ID", token).length >= 4);
    w.stdin!.end();
    expect(await waitFor(() => processesWithEnv("WAVE_RUN_ID", token).length === 0, 5000)).toBe(true);
    expect(isAlive(bystander.pid!)).toBe(true);
    await waitFor(() => w.exitCode !== null, 3000);
    expect(w.exitCode).toBe(0);
  });

  it("in groups mode (no /proc markers, e.g. macOS) stops the registered groups only", async () => {
    const w = watchdog("00000000", "groups");
    const a = tagged("sleep 304 & sleep 305", undefined);
    const b = tagged("sleep 306", undefined);
    const c = tagged("sleep 307", undefined);
    w.stdin!.write(`+${a.pid}\n+${b.pid}\n+${c.pid}\n-${b.pid}\n`);
    await waitFor(() => isAlive(a.pid!) && isAlive(b.pid!));
    w.stdin!.end();
    expect(await waitFor(() => !isAlive(a.pid!) && !isAlive(c.pid!), 5000)).toBe(true);
    expect(isAlive(b.pid!)).toBe(true);
  });
});
