// `wave-core env [--json] [--sandbox …] [--sandbox-network …]`: the login-shell environment the core
// adopts (env/) and the OS sandbox its shell commands run in (shell/sandbox/), the way a core
// started here would see them. Names only, never values.
import { parseArgs } from "node:util";
import { envExitStatus, formatEnvStatus, landedLoginEnvironment } from "./env/command.js";
import { hostPlatform } from "./util/platform.js";
import { sandboxAvailability } from "./shell/sandbox/detect.js";
import { describeSandbox, type SandboxStatus } from "./shell/sandbox/service.js";
import { parseSandboxCli, SandboxOptionError } from "./shell/sandbox/settings.js";

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

function formatSandbox(s: SandboxStatus): string {
  const head = s.active ? `Sandbox: active (${s.kind}), network ${s.network}` : `Sandbox: none${s.kind !== "none" ? ` (${s.kind} not usable)` : ""}`;
  const rows: Array<[string, string]> = [];
  if (s.reason) rows.push(["reason", s.reason]);
  if (s.remedy) rows.push(["remedy", s.remedy]);
  return [head, ...rows.map(([label, value]) => `  ${label.padEnd(6)}  ${value}`), ""].join("\n");
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
    const message = err instanceof SandboxOptionError ? err.message : `${(err as Error).message}. See wave-core env --help.`;
    process.stderr.write(`wave-core: ${message}\n`);
    return 2;
  }
  const status = await landedLoginEnvironment();
  const platform = hostPlatform();
  const sandbox = describeSandbox(await sandboxAvailability(platform), choice, platform.name);
  process.stdout.write(json ? JSON.stringify({ ...status, sandbox }, null, 2) + "\n" : `${formatEnvStatus(status)}\n${formatSandbox(sandbox)}`);
  return envExitStatus(status);
}
