// Every workspace setting the core reads (PROTOCOL.md "Settings"), in one schema. The host sends
// them as one flat object at `initialize.settings` and merges changes with `settings/update`.
//
// Adding a setting is one entry in SETTING_SCHEMAS (its zod schema and default) and one row in
// PROTOCOL.md's table (a test holds the two together). Every reader then gets it typed through
// `workspace.setting(key)`; nobody reads the raw object.
import { z } from "zod";
import { createLogger } from "../util/log.js";

export const PERMISSION_MODES = ["ask", "allow-all", "deny-all"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export const DEFAULT_SEARCH_TIMEOUT_MS = 30_000;

export const SANDBOX_MODES = ["auto", "on", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
export const SANDBOX_NETWORKS = ["allow", "deny"] as const;
export type SandboxNetwork = (typeof SANDBOX_NETWORKS)[number];

/** `settings.sandbox` as read (shell/sandbox): every field the host gave that is valid, and what was not. */
export interface SandboxSettings {
  mode?: SandboxMode;
  network?: SandboxNetwork;
  /** More paths commands may write (absolute, `~/…`, or relative to the workspace root). */
  allowWrite: string[];
  /** More paths commands may not read (same forms). */
  denyRead: string[];
  /** Unix sockets commands may connect to (same forms); otherwise none. */
  allowUnixSockets: string[];
  /** Fields that were not valid, each with the value used instead. */
  problems: string[];
}

const sandboxPathList = z.array(
  z
    .string()
    .min(1)
    .refine((s) => !s.includes("\0"), "paths cannot contain NUL"),
);

/**
 * Reads `settings.sandbox` field by field. A field that is not valid falls back to its safe
 * value — mode `on`, network `deny` — and says so: a typo in a security setting must not open it
 * up (so this setting never takes the "default on a refused value" path of the others).
 */
export function readSandboxSettings(raw: unknown): SandboxSettings {
  const out: SandboxSettings = { allowWrite: [], denyRead: [], allowUnixSockets: [], problems: [] };
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    out.problems.push(`settings.sandbox must be an object {mode, network, allowWrite, denyRead, allowUnixSockets}; it was ignored and the safe values are used (mode "on", network "deny")`);
    return { ...out, mode: "on", network: "deny" };
  }
  const value = raw as Record<string, unknown>;
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
  for (const key of ["allowWrite", "denyRead", "allowUnixSockets"] as const) {
    if (value[key] === undefined) continue;
    const r = sandboxPathList.safeParse(value[key]);
    if (r.success) out[key] = r.data;
    else out.problems.push(`settings.sandbox.${key} must be an array of non-empty paths; it was ignored`);
  }
  const unknown = Object.keys(value).filter((k) => !["mode", "network", "allowWrite", "denyRead", "allowUnixSockets"].includes(k));
  if (unknown.length) out.problems.push(`settings.sandbox has unknown keys (${unknown.join(", ")}); they were ignored`);
  return out;
}

export const SETTING_SCHEMAS = {
  /** `false` turns the bundled grep/find/rg shims off in shell-tool commands. */
  shims: z.boolean().default(true),
  /** More directories a `cd` may stay in, relative ones resolved against the workspace root. */
  additionalDirectories: z.array(z.string()).default([]),
  /** The host's permission mode and rules; each key given replaces the host's current value. */
  permissions: z
    .object({
      mode: z.enum(PERMISSION_MODES).optional(),
      allow: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      askTimeoutMs: z.number().int().min(1000).max(86_400_000).optional(),
    })
    .optional(),
  /** Time limit of one Glob or Grep call, in milliseconds. */
  "fs.searchTimeoutMs": z.number().default(DEFAULT_SEARCH_TIMEOUT_MS),
  /** The OS sandbox of shell commands: {mode, network, allowWrite, denyRead, allowUnixSockets}, read field by field (readSandboxSettings). */
  sandbox: z.unknown().transform(readSandboxSettings),
} satisfies Record<string, z.ZodType>;

export type SettingKey = keyof typeof SETTING_SCHEMAS;
export type SettingValue<K extends SettingKey> = z.output<(typeof SETTING_SCHEMAS)[K]>;

/** One setting as read: the value in force, and why a value the host gave was not used. */
export interface SettingEntry<K extends SettingKey> {
  readonly value: SettingValue<K>;
  /** Set when the host gave a value the schema refused; `value` is then the default. */
  readonly problem?: string;
}

const log = createLogger("settings");

function readSetting<K extends SettingKey>(key: K, given: unknown): SettingEntry<K> {
  const schema = SETTING_SCHEMAS[key] as unknown as z.ZodType<SettingValue<K>>;
  const parsed = schema.safeParse(given);
  if (parsed.success) return Object.freeze({ value: parsed.data });
  const problem = parsed.error.issues.map((i) => `${[key, ...i.path.map(String)].join(".")}: ${i.message}`).join("; ");
  return Object.freeze({ value: schema.parse(undefined), problem });
}

function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_SCHEMAS, key);
}

/**
 * The settings of one workspace. Each key is read when the host sends it; an entry keeps its
 * identity until the host sends that key again, so a reader can tell "changed" from "unchanged"
 * (the permission layer replaces the host's rules only when `permissions` was sent).
 */
export class Settings {
  private given: Record<string, unknown> = {};
  private readonly entries = new Map<SettingKey, SettingEntry<SettingKey>>();

  /** Merges a patch (`initialize.settings`, `settings/update`). A value the schema refuses is logged and the default applies. */
  update(patch: Readonly<Record<string, unknown>>): void {
    this.given = { ...this.given, ...patch };
    for (const key of Object.keys(patch)) {
      if (!isSettingKey(key)) continue;
      const entry = readSetting(key, patch[key]);
      if (entry.problem) log.warn(`The "${key}" setting was ignored (${entry.problem}); its default applies.`);
      this.entries.set(key, entry);
    }
  }

  get<K extends SettingKey>(key: K): SettingValue<K> {
    return this.entry(key).value;
  }

  entry<K extends SettingKey>(key: K): SettingEntry<K> {
    let entry = this.entries.get(key) as SettingEntry<K> | undefined;
    if (!entry) {
      entry = readSetting(key, undefined);
      this.entries.set(key, entry as SettingEntry<SettingKey>);
    }
    return entry;
  }

  /** Everything the host sent, merged, unknown keys included (the `settings/update` reply). */
  asGiven(): Readonly<Record<string, unknown>> {
    return this.given;
  }
}
