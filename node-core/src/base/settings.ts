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
