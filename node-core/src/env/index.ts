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

/** Forgets this process's probe (stopping it if it runs), so a test can start another. */
export function resetLoginEnvironmentProbeForTests(): void {
  processProbe?.abort();
  processProbe = undefined;
  holders = 0;
}
