// The core's start-up hook for the login environment: start the probe without waiting for it,
// tell the host when its state changes, and let go of it when the core shuts down.
import type { WaveCore } from "../core/runtime.js";
import { holdLoginEnvironmentProbe, startLoginEnvironmentProbe } from "./index.js";

export function startLoginEnvironment(core: WaveCore): void {
  const probe = startLoginEnvironmentProbe();
  const release = holdLoginEnvironmentProbe();
  const unsubscribe = probe.onStatusChanged((status) => core.events.emit("env/statusChanged", { ...status, sandbox: core.sandbox.statusForNotification() }));
  core.onShutdown(async () => {
    // A probe still running is stopped (its process tree killed) before the core is done; the
    // host hears how it ended.
    await release();
    unsubscribe();
  });
}
