// A tiny /bin/sh process that outlives a core killed with SIGKILL and takes its children down.
// It reads a pipe from the core; the kernel closes that pipe however the core dies, and at end of
// input the watchdog signals every process tagged with this core process's token (Linux: found
// through the WAVE_RUN_ID marker in /proc/<pid>/environ; elsewhere: the process groups the core
// registered), SIGTERM then SIGKILL one second later. A clean shutdown has already stopped
// everything, so its final sweep finds nothing.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createLogger } from "../util/log.js";
import { PROCESS_TOKEN } from "./outputDir.js";
import { hostPlatform, type Platform } from "../util/platform.js";
import { RUN_MARKER_VAR } from "./processTable.js";

const log = createLogger("watchdog");

/** POSIX sh; `$1` = token, `$2` = `proc` (scan /proc for markers) or `groups` (registered groups). */
export const WATCHDOG_SCRIPT = `token=$1
mode=$2
groups=" "
while IFS= read -r line; do
  case $line in
    +[0-9]*) groups="$groups\${line#+} " ;;
    -[0-9]*) g=" \${line#-} "; case $groups in *"$g"*) groups="\${groups%%"$g"*} \${groups#*"$g"}" ;; esac ;;
  esac
done
marked() {
  [ "$mode" = proc ] || return 0
  for f in $(grep -lzE "^${RUN_MARKER_VAR}=([^:]*:)*$token\\\\." /proc/[0-9]*/environ 2>/dev/null); do
    p=\${f#/proc/}; echo "\${p%/environ}"
  done
}
sweep() {
  n=0
  for p in $(marked); do kill -s "$1" "$p" 2>/dev/null && n=$((n + 1)); done
  for g in $groups; do kill -s "$1" -- "-$g" 2>/dev/null && n=$((n + 1)); done
  [ "$n" -gt 0 ]
}
if sweep TERM; then
  sleep 1
  sweep KILL
  sleep 0.2
  sweep KILL
fi
exit 0
`;

export type WatchdogMode = "proc" | "groups";

function watchdogMode(platform: Platform): WatchdogMode | undefined {
  if (platform.name === "win32") return undefined;
  return platform.name === "linux" && existsSync("/proc/self/environ") ? "proc" : "groups";
}

// One per process on purpose: it watches the process die (SIGKILL takes every core in it at once)
// and sweeps every marker carrying the process token, so one watchdog covers every core.
let current: { child: ChildProcess; mode: WatchdogMode } | undefined;

/** Starts the watchdog if it is not running. Cheap to call before every spawn. */
export function ensureWatchdog(platform: Platform = hostPlatform()): void {
  if (current && current.child.exitCode === null && current.child.signalCode === null) return;
  const mode = watchdogMode(platform);
  if (!mode) return;
  try {
    const child = spawn("/bin/sh", ["-c", WATCHDOG_SCRIPT, "wave-core-watchdog", PROCESS_TOKEN, mode], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
      cwd: "/",
      env: { PATH: "/usr/bin:/bin:/usr/sbin:/sbin", LC_ALL: "C" },
    });
    child.on("error", (err) => log.warn("the watchdog could not start; a core killed with SIGKILL may leave processes behind", { error: err }));
    child.on("exit", () => {
      if (current?.child === child) current = undefined;
    });
    child.stdin?.on("error", () => {
      // The watchdog is gone; the next ensureWatchdog() starts another.
    });
    // Neither the process nor its pipe may keep the core alive.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    current = { child, mode };
  } catch (err) {
    log.warn("the watchdog could not start", { error: err });
  }
}

/** Registers a process group for the watchdog's final sweep (only where markers cannot be read). */
export function watchGroup(pgid: number): void {
  if (current?.mode === "groups") current.child.stdin?.write(`+${pgid}\n`);
}

export function unwatchGroup(pgid: number): void {
  if (current?.mode === "groups") current.child.stdin?.write(`-${pgid}\n`);
}
