// The sandbox options of the command line (`--sandbox`, `--sandbox-network`). The host's
// `settings.sandbox` is read in base/settings.ts with every other setting.
import { SANDBOX_MODES, SANDBOX_NETWORKS, type SandboxMode, type SandboxNetwork } from "../../base/settings.js";

/** The sandbox options given on the command line (`--sandbox`, `--sandbox-network`). */
export interface SandboxCliOptions {
  mode?: SandboxMode;
  network?: SandboxNetwork;
}

export class SandboxOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxOptionError";
  }
}

/** Parses `--sandbox` and `--sandbox-network`; throws SandboxOptionError saying what is accepted. */
export function parseSandboxCli(opts: { mode?: string; network?: string }): SandboxCliOptions {
  const out: SandboxCliOptions = {};
  if (opts.mode !== undefined) {
    if (!(SANDBOX_MODES as readonly string[]).includes(opts.mode)) {
      throw new SandboxOptionError(`Unknown sandbox mode ${JSON.stringify(opts.mode)}; use --sandbox ${SANDBOX_MODES.join("|")}.`);
    }
    out.mode = opts.mode as SandboxMode;
  }
  if (opts.network !== undefined) {
    if (!(SANDBOX_NETWORKS as readonly string[]).includes(opts.network)) {
      throw new SandboxOptionError(`Unknown sandbox network setting ${JSON.stringify(opts.network)}; use --sandbox-network ${SANDBOX_NETWORKS.join("|")}.`);
    }
    out.network = opts.network as SandboxNetwork;
  }
  return out;
}
