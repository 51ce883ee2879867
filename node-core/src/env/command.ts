// `wave-core env [--json]`: runs the login-environment probe the way the core does at start-up and
// prints its status. Names only, never values.
import { parseArgs } from "node:util";
import { hostPlatform } from "../shell/platform.js";
import { sandboxAvailability } from "../shell/sandbox/detect.js";
import { describeSandbox, type SandboxStatus } from "../shell/sandbox/service.js";
import { parseSandboxCli, SandboxOptionError } from "../shell/sandbox/settings.js";
import { startLoginEnvironmentProbe } from "./index.js";
import type { EnvStatus } from "./status.js";

export const ENV_COMMAND_HELP = `Usage: wave-core env [--json] [--sandbox auto|on|off] [--sandbox-network allow|deny]

Runs the login-shell environment probe the way the core does when it starts, and prints what it
found: the state (ok, degraded, failed), the shell it ran, how long it took, how many attempts,
how the output was parsed, and the names of the variables the core adopts. Values are never
printed. Then whether shell commands would run inside the OS sandbox (bubblewrap on Linux,
sandbox-exec on macOS), and if not, why not and what to install.

Options:
  --json                     print the status as JSON (the same object as the env/status host method)
  --sandbox MODE             the sandbox mode to report for (default auto)
  --sandbox-network NETWORK  the network setting to report for (default allow)

Exit status: 0 when variables were adopted (ok or degraded), 1 when the inherited environment
was kept (failed, or the probe is turned off with WAVE_LOGIN_ENV=0), 2 usage error.
`;

const PARSE_MODES: Record<string, string> = {
  nul: "NUL-separated (env -0)",
  lines: "line by line",
};

function formatSandbox(s: SandboxStatus): string[] {
  const head = s.active ? `Sandbox: active (${s.kind}), network ${s.network}` : `Sandbox: none${s.kind !== "none" ? ` (${s.kind} not usable)` : ""}`;
  const rows: Array<[string, string]> = [];
  if (s.reason) rows.push(["reason", s.reason]);
  if (s.remedy) rows.push(["remedy", s.remedy]);
  return [head, ...rows.map(([label, value]) => `  ${label.padEnd(6)}  ${value}`)];
}

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
    ...(status.sandbox ? ["", ...formatSandbox(status.sandbox)] : []),
    "",
  ].join("\n");
}

export async function runEnvCommand(argv: string[]): Promise<number> {
  let json = false;
  let choice;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" }, sandbox: { type: "string" }, "sandbox-network": { type: "string" } },
      allowPositionals: false,
      strict: true,
    });
    if (values.help) {
      process.stdout.write(ENV_COMMAND_HELP);
      return 0;
    }
    json = values.json === true;
    const cli = parseSandboxCli({ mode: values.sandbox, network: values["sandbox-network"] });
    choice = { mode: cli.mode ?? "auto", modeSource: cli.mode ? "--sandbox" : "the default", network: cli.network ?? "allow" } as const;
  } catch (err) {
    if (err instanceof SandboxOptionError) {
      process.stderr.write(`wave-core: ${err.message}\n`);
      return 2;
    }
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
  const platform = hostPlatform();
  const status: EnvStatus = { ...probe.status, sandbox: describeSandbox(await sandboxAvailability(platform), choice, platform.name) };
  process.stdout.write(json ? JSON.stringify(status, null, 2) + "\n" : formatEnvStatus(status));
  return status.state === "ok" || status.state === "degraded" ? 0 : 1;
}
