// Is an OS sandbox usable here, and if not, why not and what to install? Checked once per core
// process and program, off the hot path (the core's start-up hook starts it): by running a trivial
// command inside the same kind of sandbox commands get — `bwrap … true` on Linux, `sandbox-exec
// -p … true` on macOS. The program found first is pinned for the core's life: a `bwrap` that
// appears later on PATH (in a directory a command could write) is never picked up. A `bwrap` that
// a sandboxed command could have put or changed (util/programTrust.ts) is passed over before it
// ever runs — the probe would run it outside the sandbox — and the next one on PATH is tried.
import { existsSync } from "node:fs";
import path from "node:path";
import { hostPlatform, type Platform } from "../../util/platform.js";
import { untrustedProgram } from "../../util/programTrust.js";
import { SANDBOX_EXEC } from "./macos.js";

export type SandboxKind = "bubblewrap" | "seatbelt" | "none";

export interface SandboxAvailability {
  kind: SandboxKind;
  available: boolean;
  /** The program that wraps commands (absolute path), when found. */
  program?: string;
  /** Why no sandbox is available. */
  reason?: string;
  /** What to install or change to get one. */
  remedy?: string;
  /** Programs passed over because they cannot be trusted, and why. */
  refused?: Array<{ program: string; reason: string }>;
  /** bwrap knows --disable-userns (0.8 and later); older ones rely on the seccomp filter's rule alone. */
  disableUserns?: boolean;
}

/** Names the bubblewrap program explicitly (absolute path); otherwise `bwrap` is looked up on PATH. */
export const BWRAP_VAR = "WAVE_BWRAP";

export const INSTALL_BUBBLEWRAP =
  "Install bubblewrap: sudo apt-get install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch), then restart the core.";

const NAMESPACES_REMEDY =
  "Allow unprivileged user namespaces: on Ubuntu 23.10 and later use the distribution's /usr/bin/bwrap (its AppArmor profile permits it) or run sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0; elsewhere check sysctl user.max_user_namespaces (must be > 0) and kernel.unprivileged_userns_clone=1. Inside a container, the container must allow creating namespaces.";

const PROBE_TIMEOUT_MS = 10_000;

/** The arguments of the start-up probe: the namespaces and options every command uses. */
export const BWRAP_PROBE_ARGS = [
  "--unshare-user",
  "--disable-userns",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-net",
  "--cap-drop",
  "ALL",
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
  "--",
  "true",
];

function findAllOnPath(name: string, env: NodeJS.ProcessEnv, platform: Platform): string[] {
  const out: string[] = [];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (platform.isExecutable(candidate) && !out.includes(candidate)) out.push(candidate);
  }
  return out;
}

function firstLine(text: string): string {
  return text.trim().split("\n").filter(Boolean).slice(-1)[0]?.trim() ?? "";
}

async function detectBubblewrap(env: NodeJS.ProcessEnv, platform: Platform, writable: readonly string[]): Promise<SandboxAvailability> {
  const refused: Array<{ program: string; reason: string }> = [];
  const none = (reason: string, remedy: string): SandboxAvailability => ({ kind: "bubblewrap", available: false, reason, remedy, ...(refused.length ? { refused } : {}) });
  const explicit = env[BWRAP_VAR];
  let candidates: string[];
  if (explicit !== undefined && explicit !== "") {
    if (!path.isAbsolute(explicit)) return none(`${BWRAP_VAR}=${explicit} is not an absolute path.`, `Set ${BWRAP_VAR} to the absolute path of bwrap, or unset it to use bwrap from PATH.`);
    if (!platform.isExecutable(explicit)) return none(`bubblewrap was not found at ${explicit} (${BWRAP_VAR}).`, INSTALL_BUBBLEWRAP);
    candidates = [explicit];
  } else {
    candidates = findAllOnPath("bwrap", env, platform);
    if (!candidates.length) return none("bubblewrap (bwrap) is not installed (not found on PATH).", INSTALL_BUBBLEWRAP);
  }
  let program: string | undefined;
  for (const c of candidates) {
    // Only a file that is really there can be judged (tests give the platform programs that are not).
    const reason = platform.name === "linux" && process.platform === "linux" && existsSync(c) ? untrustedProgram(c, writable) : undefined;
    if (!reason) {
      program = c;
      break;
    }
    refused.push({ program: c, reason });
  }
  if (!program) {
    return none(`bubblewrap was refused: ${refused.map((r) => r.reason).join("; ")}. A program that sandboxed commands (or other accounts) could have changed never runs.`, INSTALL_BUBBLEWRAP);
  }
  let r = await platform.exec(program, BWRAP_PROBE_ARGS, { timeoutMs: PROBE_TIMEOUT_MS });
  let disableUserns = true;
  if (r.exitCode !== 0 && /disable-userns/.test(r.stderr.toString("utf8"))) {
    // bwrap before 0.8 (Ubuntu 22.04's 0.6): the seccomp filter alone keeps new user namespaces out.
    disableUserns = false;
    r = await platform.exec(
      program,
      BWRAP_PROBE_ARGS.filter((a) => a !== "--disable-userns"),
      { timeoutMs: PROBE_TIMEOUT_MS },
    );
  }
  if (r.exitCode === 0) return { kind: "bubblewrap", available: true, program, disableUserns, ...(refused.length ? { refused } : {}) };
  const said = firstLine(r.stderr.toString("utf8")) || r.error?.message || `exit status ${r.exitCode}`;
  if (/namespace|uid map|Operation not permitted|Permission denied|No permissions/i.test(said)) {
    return { ...none(`bwrap (${program}) cannot create the sandbox's namespaces here: ${said}`, NAMESPACES_REMEDY), program };
  }
  return { ...none(`bwrap (${program}) failed its start-up check: ${said}`, `Check that ${program} works: ${program} --ro-bind / / true. ${INSTALL_BUBBLEWRAP}`), program };
}

async function detectSeatbelt(platform: Platform): Promise<SandboxAvailability> {
  if (!platform.isExecutable(SANDBOX_EXEC)) {
    return { kind: "seatbelt", available: false, reason: `${SANDBOX_EXEC} is missing.`, remedy: "sandbox-exec ships with macOS; restore it, or run the core on a system that has it." };
  }
  const r = await platform.exec(SANDBOX_EXEC, ["-p", "(version 1)(allow default)", "/usr/bin/true"], { timeoutMs: PROBE_TIMEOUT_MS });
  if (r.exitCode === 0) return { kind: "seatbelt", available: true, program: SANDBOX_EXEC };
  const said = firstLine(r.stderr.toString("utf8")) || r.error?.message || `exit status ${r.exitCode}`;
  return {
    kind: "seatbelt",
    available: false,
    program: SANDBOX_EXEC,
    reason: `sandbox-exec cannot apply a profile here: ${said}`,
    remedy: "The core itself probably runs inside another sandbox (macOS allows no nesting): start it outside one.",
  };
}

export function detectSandbox(platform: Platform = hostPlatform(), env: NodeJS.ProcessEnv = process.env, writable: readonly string[] = []): Promise<SandboxAvailability> {
  switch (platform.name) {
    case "linux":
      return detectBubblewrap(env, platform, writable);
    case "darwin":
      return detectSeatbelt(platform);
    default:
      return Promise.resolve({
        kind: "none",
        available: false,
        reason: "Windows has no OS sandbox the core can use: commands run with your full permissions.",
        remedy: "Run the core inside WSL 2 with bubblewrap installed (sudo apt-get install bubblewrap) to sandbox commands.",
      });
  }
}

const cache = new Map<string, Promise<SandboxAvailability>>();

/** detectSandbox, once per platform and program choice in this process. */
export function sandboxAvailability(platform: Platform = hostPlatform(), env: NodeJS.ProcessEnv = process.env, writable: readonly string[] = []): Promise<SandboxAvailability> {
  const key = `${platform.name}\0${env[BWRAP_VAR] ?? ""}\0${env[BWRAP_VAR] ? "" : (env.PATH ?? "")}\0${writable.join("\0")}`;
  let p = cache.get(key);
  if (!p) {
    p = detectSandbox(platform, env, writable);
    cache.set(key, p);
  }
  return p;
}
