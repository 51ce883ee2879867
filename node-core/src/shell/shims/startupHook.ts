// The core's start-up hook for the search shims: once the environment has landed and the shell
// is resolved, probe the bundled binaries and write the prelude in the background, so the first
// Bash command finds them ready; when the core shuts down, let go of the files written for shells.
// Nothing here delays `initialize` or any call: a command that comes first simply shares the probes.
import type { WaveCore } from "../../core/runtime.js";
import { childEnvironment } from "../../env/index.js";
import { createLogger } from "../../util/log.js";
import { hostPlatform } from "../platform.js";
import { resolveShellCached } from "../resolve.js";
import { holdShims, prewarmShims, shimsEnabled } from "./index.js";

const log = createLogger("shims");

export function startShims(core: WaveCore): void {
  const release = holdShims();
  const stop = new AbortController();
  void prewarm(core, stop.signal);
  core.onShutdown(() => {
    // Shutdown never waits for a probe: one still running ends by itself within its timeout,
    // and the aborted prewarm writes no files after this.
    stop.abort();
    release();
  });
}

async function prewarm(core: WaveCore, signal: AbortSignal): Promise<void> {
  try {
    const env = await childEnvironment({ signal });
    // The host may have turned the shims off in `initialize`: then there is nothing to warm.
    if (signal.aborted || !shimsEnabled(core.workspace)) return;
    await prewarmShims(resolveShellCached(env, hostPlatform()), signal);
  } catch (error) {
    // No shell (BASH-SH-4) or a cancelled wait: the first command reports or retries it.
    log.debug("search shims not prewarmed", { error });
  }
}
