// Who made a file: a process id alone does not say, because ids are reused. A process is its id
// and its start time, and names of what a core leaves in shared places (its output folder, its
// shims folder, a temporary file beside a file it writes) carry both, so a sweep removes only
// what belongs to a process that is gone, never what a new process with the same id made.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { processExists } from "./processes.js";

/**
 * When process `pid` started, as a string of digits, or undefined when it cannot be told (no such
 * process, or a platform without /proc and ps). Linux: the start time in clock ticks since boot
 * (/proc/<pid>/stat, field 22); macOS and other Unixes: seconds since the epoch from `ps`.
 */
export function processStartTime(pid: number, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === "linux") {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
      return start && /^\d+$/.test(start) ? start : undefined;
    } catch {
      return undefined;
    }
  }
  if (platform === "win32") return undefined;
  // In UTC, read as UTC: the same answer whatever time zone the asking process has.
  const r = spawnSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8", timeout: 2000, env: { PATH: "/bin:/usr/bin", LC_ALL: "C", TZ: "UTC" } });
  const text = r.stdout?.trim();
  const when = text ? Date.parse(`${text} GMT`) : NaN;
  return Number.isFinite(when) ? String(Math.floor(when / 1000)) : undefined;
}

let own: string | undefined;

/** This process's identity, as names carry it: `<pid>-<start time>` (`0` when the start time cannot be told). */
export function ownIdentity(): string {
  return (own ??= `${process.pid}-${processStartTime(process.pid) ?? "0"}`);
}

/**
 * Whether the process a name was made by still runs: its pid exists and, when the name carries a
 * start time, that process started then. `start` "0" (not known when the name was made) falls
 * back to the pid alone.
 */
export function identityAlive(pid: number, start: string): boolean {
  if (pid === process.pid) return start === "0" || ownIdentity() === `${pid}-${start}`;
  if (!processExists(pid)) return false;
  if (start === "0") return true;
  const now = processStartTime(pid);
  // A process we may not inspect (another user's, no ps) is taken to be the one that made it.
  return now === undefined || now === start;
}
