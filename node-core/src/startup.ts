// Builds the core for a command: the tools, the workspace, and the start-up work each concern
// needs (started asynchronously; nothing here may block answering `initialize`). This is the top
// of the house: the one place that wires the concerns (env, shell, tasks) to a WaveCore.
import { WaveCore } from "./core/runtime.js";
import { allTools } from "./tools/index.js";
import { childEnvironment, holdLoginEnvironmentProbe, probeProcessesLeftRunning, startLoginEnvironmentProbe } from "./env/index.js";
import type { ParsedPolicy } from "./permissions/service.js";
import type { SandboxCliOptions } from "./shell/sandbox/settings.js";
import { removeStaleOutput } from "./shell/outputDir.js";
import { resolveShellCached } from "./shell/resolve.js";
import { SHELL_ENGINE } from "./shell/engine.js";
import { TASKS } from "./tasks/manager.js";
import { formatTaskNotices } from "./tasks/notices.js";
import { hostPlatform } from "./util/platform.js";
import { createLogger } from "./util/log.js";
import type { ResultHook } from "./core/runtime.js";
import { amendResult } from "./core/tool.js";

export interface CoreOptions {
  root: string;
  additionalDirectories?: string[];
  /** --permission-mode, --allow and --deny. */
  permissions?: ParsedPolicy;
  /** --sandbox and --sandbox-network. */
  sandbox?: SandboxCliOptions;
}

type StartupHook = (core: WaveCore) => void;

/** Concern modules that must start with the core (environment probe, watchdog, ...). */
const startupHooks: StartupHook[] = [startLoginEnvironment, startTaskSupport, startShims];

export function createCore(opts: CoreOptions): WaveCore {
  const core = new WaveCore({ root: opts.root, additionalDirectories: opts.additionalDirectories, tools: allTools, permissions: opts.permissions, sandbox: opts.sandbox });
  for (const hook of startupHooks) hook(core);
  return core;
}

/**
 * The login environment: start the probe without waiting for it, tell the host when its state
 * changes, and let go of it when the core shuts down.
 */
function startLoginEnvironment(core: WaveCore): void {
  const probe = startLoginEnvironmentProbe();
  const release = holdLoginEnvironmentProbe();
  // The notice carries the sandbox's status too: it waits for the sandbox check (a few
  // milliseconds after start), so it says what env/status says.
  const unsubscribe = probe.onStatusChanged((status) => {
    void core.sandbox.whenChecked().then(() => core.events.emit("env/statusChanged", { ...status, sandbox: core.sandbox.statusForNotification() }));
  });
  core.onShutdown(async () => {
    // A probe still running is stopped (its shell killed; what the profile started finishes by
    // itself) before the core is done; the host hears how it ended, and what to leave running.
    await release();
    unsubscribe();
    const pids = probeProcessesLeftRunning();
    if (pids.length > 0) {
      core.events.emit("processes/leftRunning", {
        pids,
        reason: "the login-environment probe's profile is finishing by itself (a tool killed now could leave its lock behind)",
      });
    }
  });
}

const tasksLog = createLogger("tasks");
let outputCleanupStarted = false;

/**
 * Background tasks: notices on results for MCP/CLI callers, and removal of output directories
 * left by core processes that ended days ago. Nothing here blocks.
 */
function startTaskSupport(core: WaveCore): void {
  core.addResultHook(attachTaskNotices);
  // Process-wide on purpose: the sweep removes directories of other, dead processes; once per
  // process is enough however many cores it runs.
  if (!outputCleanupStarted) {
    outputCleanupStarted = true;
    const timer = setTimeout(() => {
      void removeStaleOutput()
        .then((removed) => removed.length && tasksLog.debug("removed old output directories", { removed }))
        .catch((err: unknown) => tasksLog.debug("output cleanup failed", { error: err }));
    }, 2000);
    timer.unref();
  }
}

/**
 * Appends the session's pending task notices to a result bound for an MCP client or the CLI (also
 * one the host relays to a client, `sessions/create` with `client`). Hosts get `task/finished`
 * notifications instead and decide themselves what the agent sees.
 */
const attachTaskNotices: ResultHook = (result, call) => {
  if (call.origin !== "mcp" && call.origin !== "cli" && !call.session.relayedByHost) return result;
  const notices = call.session.peekService(TASKS)?.takeNotices() ?? [];
  if (notices.length === 0) return result;
  return amendResult(result, [...result.content, { type: "text", text: formatTaskNotices(notices) }], { taskNotifications: notices });
};

const shimsLog = createLogger("shims");

/**
 * The search shims: once the environment has landed and the shell is resolved, probe the bundled
 * binaries and write the prelude in the background, so the first Bash command finds them ready
 * (the core's shell engine removes the files when the core shuts down). Nothing here delays
 * `initialize` or any call: a command that comes first simply shares the probes.
 */
function startShims(core: WaveCore): void {
  const stop = new AbortController();
  void prewarm(core, stop.signal);
  // Shutdown never waits for a probe: one still running ends by itself within its timeout, and
  // the aborted prewarm writes no files after this.
  core.onShutdown(() => stop.abort());
}

async function prewarm(core: WaveCore, signal: AbortSignal): Promise<void> {
  try {
    const env = await childEnvironment({ signal });
    // The host may have turned the shims off in `initialize`: then there is nothing to warm.
    if (signal.aborted || !core.workspace.setting("shims")) return;
    await core.services.get(SHELL_ENGINE).prewarmShims(resolveShellCached(env, hostPlatform()), signal);
  } catch (error) {
    // No shell (BASH-SH-4) or a cancelled wait: the first command reports or retries it.
    shimsLog.debug("search shims not prewarmed", { error });
  }
}
