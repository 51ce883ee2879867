// `wave-core env [--json]`: runs the login-environment probe the way the core does at start-up and
// prints its status. Names only, never values.
import { parseArgs } from "node:util";
import { startLoginEnvironmentProbe } from "./index.js";
import type { EnvStatus } from "./status.js";

export const ENV_COMMAND_HELP = `Usage: wave-core env [--json]

Runs the login-shell environment probe the way the core does when it starts, and prints what it
found: the state (ok, degraded, failed), the shell it ran, how long it took, how many attempts,
how the output was parsed, and the names of the variables the core adopts. Values are never
printed. Then the bundled search helpers (ugrep, bfs, rg) for this platform: which are active,
with their versions, and why any other is not (the system command runs instead). Last, whether
shell commands run inside the OS sandbox (bubblewrap on Linux, sandbox-exec on macOS) in a core
started with the defaults (--sandbox auto), and if not, why not and what to install.

Options:
  --json   print the status as JSON (the same object as the env/status host method)

Exit status: 0 when variables were adopted (ok or degraded), 1 when the inherited environment
was kept (failed, or the probe is turned off with WAVE_LOGIN_ENV=0), 2 usage error.
`;

const PARSE_MODES: Record<string, string> = {
  nul: "NUL-separated (env -0)",
  lines: "line by line",
};

function formatEnvStatus(status: EnvStatus): string {
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

/**
 * A section `wave-core env` prints after the probe's status: `key` in the `--json` object, `text`
 * in the plain output. The CLI supplies the search helpers' section (shell/ sits above env/).
 */
export interface EnvReportSection {
  key: string;
  value: unknown;
  text: string;
}

export async function runEnvCommand(argv: string[], moreSections: () => Promise<EnvReportSection[]> = async () => []): Promise<number> {
  let json = false;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      allowPositionals: false,
      strict: true,
    });
    if (values.help) {
      process.stdout.write(ENV_COMMAND_HELP);
      return 0;
    }
    json = values.json === true;
  } catch (err) {
    process.stderr.write(`wave-core: ${(err as Error).message}. See wave-core env --help.\n`);
    return 2;
  }
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
  const status = probe.status;
  const sections = await moreSections();
  process.stdout.write(
    json ? JSON.stringify({ ...status, ...Object.fromEntries(sections.map((s) => [s.key, s.value])) }, null, 2) + "\n" : [formatEnvStatus(status), ...sections.map((s) => s.text)].join("\n"),
  );
  return status.state === "ok" || status.state === "degraded" ? 0 : 1;
}
