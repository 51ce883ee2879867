// The login-environment part of `wave-core env` (src/envCommand.ts): runs the probe the way the
// core does at start-up and formats its status. Names only, never values.
import { startLoginEnvironmentProbe } from "./index.js";
import type { EnvStatus } from "./status.js";

const PARSE_MODES: Record<string, string> = {
  nul: "NUL-separated (env -0)",
  lines: "line by line",
};

export function formatEnvStatus(status: EnvStatus): string {
  const rows: Array<[string, string]> = [];
  if (status.shell) rows.push(["shell", status.shell]);
  if (status.durationMs !== null && status.attempts > 0) {
    rows.push(["duration", `${status.durationMs} ms, ${status.attempts} attempt${status.attempts === 1 ? "" : "s"}`]);
  }
  if (status.parseMode) rows.push(["parsing", PARSE_MODES[status.parseMode] ?? status.parseMode]);
  rows.push(["adopted", status.adoptedKeys.length > 0 ? status.adoptedKeys.join(", ") : "(nothing)"]);
  if (status.reason) rows.push(["reason", status.reason]);
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    `Login-shell environment: ${status.state}`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    "",
    status.attempts > 0 ? "Values are never shown. Turn the probe off with WAVE_LOGIN_ENV=0." : "Values are never shown.",
    "",
  ].join("\n");
}

/** Runs this process's probe (as the core does at start) and waits for it; Ctrl+C stops it. */
export async function landedLoginEnvironment(): Promise<EnvStatus> {
  const probe = startLoginEnvironmentProbe();
  const stop = () => probe.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await probe.landed();
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  return probe.status;
}

/** The exit status of `wave-core env`: 0 when variables were adopted, 1 otherwise. */
export function envExitStatus(status: EnvStatus): number {
  return status.state === "ok" || status.state === "degraded" ? 0 : 1;
}
