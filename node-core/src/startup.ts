// Builds the core for a command: the tools, the workspace, and the start-up work each concern
// needs (started asynchronously; nothing here may block answering `initialize`).
import { WaveCore } from "./core/runtime.js";
import { allTools } from "./tools/index.js";
import { startLoginEnvironment } from "./env/startupHook.js";
import { startTaskSupport } from "./tasks/startup.js";
import { startShims } from "./shell/shims/startupHook.js";
import type { ParsedPolicy } from "./permissions/service.js";
import type { SandboxCliOptions } from "./shell/sandbox/settings.js";

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
