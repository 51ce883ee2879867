// `settings.sandbox` and the `--sandbox`/`--sandbox-network` options: what the user asked of the
// OS sandbox. Read field by field: a field that is not valid falls back to its safe value (mode
// `on`, network `deny`) and says so, because a typo in a security setting must not open it up.
import { z } from "zod";

export const SANDBOX_MODES = ["auto", "on", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
export const SANDBOX_NETWORKS = ["allow", "deny"] as const;
export type SandboxNetwork = (typeof SANDBOX_NETWORKS)[number];

/** The sandbox options given on the command line (`--sandbox`, `--sandbox-network`). */
export interface SandboxCliOptions {
  mode?: SandboxMode;
  network?: SandboxNetwork;
}

export interface SandboxSettings {
  /** Where a field came from the host's settings, it wins over the command line. */
  mode?: SandboxMode;
  network?: SandboxNetwork;
  /** More paths commands may write (absolute, `~/…`, or relative to the workspace root). */
  allowWrite: string[];
  /** More paths commands may not read (same forms). */
  denyRead: string[];
  /** Fields that were not valid, each with the value used instead. */
  problems: string[];
}

const pathList = z.array(z.string().min(1).refine((s) => !s.includes("\0"), "paths cannot contain NUL"));
const KEYS = ["mode", "network", "allowWrite", "denyRead"];

/** Reads `settings.sandbox` (undefined: nothing set). Never throws. */
export function readSandboxSettings(raw: unknown): SandboxSettings {
  const out: SandboxSettings = { allowWrite: [], denyRead: [], problems: [] };
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    out.problems.push(`settings.sandbox must be an object {mode, network, allowWrite, denyRead}; it was ignored and the safe values are used (mode "on", network "deny")`);
    out.mode = "on";
    out.network = "deny";
    return out;
  }
  const value = raw as Record<string, unknown>;
  /** A choice that is not one of its values falls back to `safe`, and says so. */
  const choice = <T extends string>(key: "mode" | "network", values: readonly T[], safe: T): T | undefined => {
    if (value[key] === undefined) return undefined;
    if ((values as readonly unknown[]).includes(value[key])) return value[key] as T;
    out.problems.push(`settings.sandbox.${key} ${JSON.stringify(value[key])} is not one of ${values.join(", ")}; using "${safe}"`);
    return safe;
  };
  const mode = choice("mode", SANDBOX_MODES, "on");
  if (mode) out.mode = mode;
  const network = choice("network", SANDBOX_NETWORKS, "deny");
  if (network) out.network = network;
  for (const key of ["allowWrite", "denyRead"] as const) {
    if (value[key] === undefined) continue;
    const r = pathList.safeParse(value[key]);
    if (r.success) out[key] = r.data;
    else out.problems.push(`settings.sandbox.${key} must be an array of non-empty paths; it was ignored`);
  }
  const unknown = Object.keys(value).filter((k) => !KEYS.includes(k));
  if (unknown.length) out.problems.push(`settings.sandbox has unknown keys (${unknown.join(", ")}); they were ignored`);
  return out;
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
