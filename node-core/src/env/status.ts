// The probe's observable state (PROTOCOL.md `EnvStatus`): what `env/status`, the
// `env/statusChanged` notification and `wave-core env` report. Names only, never values.

export type EnvState = "pending" | "ok" | "degraded" | "failed";
export type ParseMode = "nul" | "lines";

// A type alias (not an interface) so it fits the event bus's `Record<string, unknown>` payloads.
export type EnvStatus = {
  state: EnvState;
  /** The probe shell (Git Bash's bash.exe on Windows); null when none was found or the probe is off. */
  shell: string | null;
  /** From the first attempt's start until the result landed; null while pending. */
  durationMs: number | null;
  attempts: number;
  parseMode: ParseMode | null;
  /** Names of the variables written into the core's environment. Never their values. */
  adoptedKeys: string[];
  /** Why the probe degraded or failed (never contains a variable's value). */
  reason?: string;
};

export const PENDING_STATUS: EnvStatus = Object.freeze({
  state: "pending",
  shell: null,
  durationMs: null,
  attempts: 0,
  parseMode: null,
  adoptedKeys: [],
}) as EnvStatus;
