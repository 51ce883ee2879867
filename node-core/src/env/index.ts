// Seam for the login-shell environment (BASH-ENV). Everything that starts a child process takes
// its environment from here, so the probe's result reaches every child (BASH-ENV-8).
//
// The probe runs once per core process (BASH-ENV-1): the core's start-up hook starts it, and its
// result is written into `process.env` itself, so even a child spawned without an explicit
// environment inherits it. That is why it is process-wide rather than per core: there is one
// process environment, and every core in the process runs its children with it. Each core holds
// the probe while it lives (holdLoginEnvironmentProbe).
import { LoginEnvironmentProbe, type ProbeDependencies } from "./probe.js";
import { PENDING_STATUS, type EnvStatus } from "./status.js";

export { probeProcessesLeftRunning } from "./runProbeShell.js";

export type { EnvStatus } from "./status.js";

let processProbe: LoginEnvironmentProbe | undefined;
let holders = 0;

/**
 * Starts this process's probe unless it already started, and returns it. `overrides` inject the
 * boundaries (tests); they only take effect for the call that actually starts the probe.
 */
export function startLoginEnvironmentProbe(overrides: Partial<ProbeDependencies> = {}): LoginEnvironmentProbe {
  if (!processProbe) {
    processProbe = new LoginEnvironmentProbe(overrides);
    void processProbe.start();
  }
  return processProbe;
}

/** The status of this process's probe (`pending` until one was started and has landed). */
export function loginEnvironmentStatus(): EnvStatus {
  return processProbe?.status ?? { ...PENDING_STATUS, adoptedKeys: [] };
}

/**
 * A core holds the probe while it lives; when the last holder lets go and the probe is still
 * running, its shell is stopped, so no probe process outlives the cores that needed it. The
 * returned release function resolves once that stopped probe has settled.
 */
export function holdLoginEnvironmentProbe(): () => Promise<void> {
  holders++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    holders--;
    const probe = processProbe;
    if (holders === 0 && probe?.status.state === "pending") {
      probe.abort();
      await probe.start();
    }
  };
}

/**
 * The environment for a child process: the core's own `process.env` once the login-shell probe
 * has landed (or its budget ran out, BASH-ENV-7: then the inherited environment). Returns a copy
 * the caller may extend. `signal` stops the wait early (the call that needs it was cancelled).
 */
export async function childEnvironment(opts: { signal?: AbortSignal } = {}): Promise<NodeJS.ProcessEnv> {
  if (processProbe) await processProbe.landed(opts);
  return { ...process.env };
}

/** A wait this long for the probe is one the model hears about (a healthy profile takes well under). */
export const SLOW_PROBE_WAIT_MS = 1000;

export interface ProbeWait {
  waitedMs: number;
  /** The probe's status when the wait ended: `pending` when its budget ran out first. */
  status: EnvStatus;
}

/**
 * Starts timing a call that will wait for the probe (its child processes need the environment).
 * The returned function tells, when the call has ended, how long childEnvironment() held it up:
 * from now until the result landed or the budget ran out, or the call ended, whichever came first.
 * Undefined when there is nothing to wait for (no probe, or it has landed).
 */
export function startProbeWaitClock(): (() => ProbeWait) | undefined {
  const probe = processProbe;
  if (probe?.status.state !== "pending") return undefined;
  const started = probe.now();
  return () => ({ waitedMs: Math.max(0, Math.min(probe.now(), probe.waitEnd) - started), status: probe.status });
}

/**
 * What the model is told when its call waited long for the login shell (SLOW_PROBE_WAIT_MS), so a
 * slow first call, or a PATH without the profile's tools, does not look like the command's doing.
 */
export function describeProbeWait(wait: ProbeWait | undefined): string | undefined {
  if (!wait || wait.waitedMs < SLOW_PROBE_WAIT_MS) return undefined;
  const seconds = (wait.waitedMs / 1000).toFixed(1);
  const { state, reason } = wait.status;
  if (state === "ok" || state === "degraded") {
    return `Note: this call waited ${seconds} s for the user's login shell to report its environment (PATH, proxies); their shell profile is slow. Later calls do not wait for it.`;
  }
  const why = state === "pending" ? "it had not finished" : `it failed: ${reason ?? "no reason given"}`;
  return `Note: this call waited ${seconds} s for the user's login shell to report its environment, and ${why}. Commands run with the environment the core was started with, so tools the user's profile puts on PATH (nvm, pyenv, ...) may be missing; \`wave-core env\` shows the details.`;
}

/** Forgets this process's probe (stopping it if it runs), so a test can start another. */
export function resetLoginEnvironmentProbeForTests(): void {
  processProbe?.abort();
  processProbe = undefined;
  holders = 0;
}
