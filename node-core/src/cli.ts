// wave-core: the command-line entry. `serve` (host protocol), `mcp` (MCP server), `call` (one
// tool call), each with --help.
import { readFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { WaveCore } from "./core/runtime.js";
import { InvalidToolArguments, UnknownTool } from "./core/registry.js";
import { resultText } from "./core/tool.js";
import { isDirectory } from "./util/files.js";
import { canonicalDir } from "./util/paths.js";
import { CORE_VERSION } from "./protocol/version.js";
import { createCore } from "./startup.js";
import { setLogLevel } from "./util/log.js";
import { ENV_COMMAND_HELP, runEnvCommand, type EnvReportSection } from "./env/command.js";
import { parsePolicy, PolicyError, RuleSyntaxError } from "./permissions/service.js";
import { ShellEngine } from "./shell/engine.js";
import { formatSearchHelpers } from "./shell/shims/index.js";
import { parseSandboxCli, SandboxOptionError } from "./shell/sandbox/settings.js";
import { sandboxAvailability } from "./shell/sandbox/detect.js";
import { describeSandbox, formatSandboxStatus } from "./shell/sandbox/service.js";
import { hostPlatform } from "./util/platform.js";

class UsageError extends Error {}

const MAIN_HELP = `wave-core ${CORE_VERSION} — the Wave Tools core for AI coding agents

Usage:
  wave-core serve [--root DIR] [--add-dir DIR]... [PERMISSIONS] [SANDBOX]   host protocol (JSON-RPC 2.0 lines on stdio)
  wave-core mcp   [--root DIR] [--add-dir DIR]... [PERMISSIONS] [SANDBOX]   MCP server on stdio
  wave-core call <Tool> '<json arguments>' [--root DIR] [--add-dir DIR]... [PERMISSIONS] [SANDBOX] [--json]
                                                     run one tool call and print its result
  wave-core env [--json]                             the login-shell environment and the sandbox the core uses
  wave-core <command> --help                          help for one command
  wave-core --version

PERMISSIONS: --permission-mode ask|allow-all|deny-all, --allow RULE..., --deny RULE...
SANDBOX:     --sandbox auto|on|off, --sandbox-network allow|deny

Tools: Bash, TaskStop, Read, Edit, Write, Glob, Grep, run_shell_command.
Environment: WAVE_LOG_LEVEL=debug|info|warn|error (logs go to stderr; default info, warn for call);
             WAVE_LOGIN_ENV=0 turns off adopting the login shell's PATH, proxies, ... (see wave-core env).
Protocol reference: node-core/PROTOCOL.md.
`;

const COMMON_OPTIONS = {
  root: { type: "string" },
  "add-dir": { type: "string", multiple: true },
  "permission-mode": { type: "string" },
  allow: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
  sandbox: { type: "string" },
  "sandbox-network": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

const PERMISSION_HELP = `Permissions (commands, and file writes outside the allowed directories):
  --permission-mode MODE  ask: ask the user when no rule decides (default for serve and mcp;
                          without a way to ask, the call is denied with a message saying how to
                          allow it); allow-all: allow everything not denied by a rule (default for
                          call); deny-all: never ask, allow only what a rule allows
  --allow RULE            always allow (repeatable): a command, exact ('git status') or a prefix
                          ('npm run test:*', 'git log *'), or a path rule ('Write(/tmp/out/**)')
  --deny RULE             always deny (repeatable; deny rules win over allow rules)
`;

const SANDBOX_HELP = `Sandbox (shell commands of Bash and run_shell_command; README "Sandbox"):
  --sandbox MODE          auto: run commands inside the OS sandbox (bubblewrap on Linux,
                          sandbox-exec on macOS) where it works, unsandboxed elsewhere (default);
                          on: refuse to run commands without it; off: never use it.
                          settings.sandbox.mode from the host wins.
  --sandbox-network NET   allow (default) or deny: sandboxed commands get no network at all.
                          --permission-mode deny-all implies deny.
`;

const COMMAND_HELP: Record<string, string> = {
  serve: `Usage: wave-core serve [--root DIR] [--add-dir DIR]...

Serves the host protocol: JSON-RPC 2.0, one UTF-8 JSON object per line on stdin/stdout, logs on
stderr. The host's initialize request may override the root and add directories.

Options:
  --root DIR      workspace root (default: the current directory)
  --add-dir DIR   another directory commands may cd into and stay (repeatable)

${PERMISSION_HELP}
${SANDBOX_HELP}
The host asks the user through permission/request when it declares
capabilities.permissionRequests in initialize (see PROTOCOL.md).

Closing stdin (or SIGTERM/SIGINT/SIGHUP) stops every process the core started, then exits.
`,
  mcp: `Usage: wave-core mcp [--root DIR] [--add-dir DIR]...

Serves the same tools as a Model Context Protocol server over stdio. One connection is one
session; closing stdin stops its background tasks.

Options:
  --root DIR      workspace root (default: the current directory)
  --add-dir DIR   another directory commands may cd into and stay (repeatable)

${PERMISSION_HELP}
${SANDBOX_HELP}
The user is asked through MCP elicitation when the client supports it.
`,
  call: `Usage: wave-core call <Tool> '<json arguments>' [--root DIR] [--add-dir DIR]... [--json]

Runs one tool call and prints its text result (or the whole MCP-shaped result with --json).
Give "-" as the arguments to read them from stdin.

Exit status: 0 success, 1 the tool reported an error (a denied permission included), 2 usage
error (bad JSON, unknown tool, invalid arguments, invalid rule).

${PERMISSION_HELP}
${SANDBOX_HELP}
call runs what a person typed, so its mode is allow-all unless --permission-mode says otherwise;
--deny rules still apply, and warnings (e.g. a recursive delete outside the workspace) are printed
to stderr.

Example:
  wave-core call Bash '{"command":"git status"}'
  wave-core call Read '{"file_path":"README.md","limit":20}' --json
`,
};

const CALL_OPTIONS = { ...COMMON_OPTIONS, json: { type: "boolean" } } as const satisfies ParseArgsConfig["options"];

function parse<O extends ParseArgsConfig["options"]>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function coreFromOptions(
  values: { root?: string; "add-dir"?: string[]; "permission-mode"?: string; allow?: string[]; deny?: string[]; sandbox?: string; "sandbox-network"?: string },
  defaultMode?: "allow-all",
): Promise<WaveCore> {
  const root = canonicalDir(values.root ?? process.cwd());
  if (!isDirectory(root)) throw new UsageError(`--root must be an existing directory: ${root}`);
  const dirs = (values["add-dir"] ?? []).map((d) => canonicalDir(d));
  for (const d of dirs) if (!isDirectory(d)) throw new UsageError(`--add-dir must be an existing directory: ${d}`);
  let permissions;
  try {
    permissions = await parsePolicy({ mode: values["permission-mode"] ?? defaultMode, allow: values.allow, deny: values.deny });
  } catch (err) {
    if (err instanceof PolicyError || err instanceof RuleSyntaxError) throw new UsageError(err.message);
    throw err;
  }
  let sandbox;
  try {
    sandbox = parseSandboxCli({ mode: values.sandbox, network: values["sandbox-network"] });
  } catch (err) {
    if (err instanceof SandboxOptionError) throw new UsageError(err.message);
    throw err;
  }
  return createCore({ root, additionalDirectories: dirs, permissions, sandbox });
}

function installSignalHandlers(core: WaveCore, exit: (code: number) => void): void {
  const signals: Array<[NodeJS.Signals, number]> = [
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ];
  for (const [sig, code] of signals) {
    process.on(sig, () => {
      void core.shutdown().then(() => exit(code));
    });
  }
}

/** Exits once stdout has flushed, so the last response is never lost. */
function exitAfterFlush(code: number): void {
  process.stdout.write("", () => process.exit(code));
  // If stdout is gone (host closed the pipe), do not wait forever.
  setTimeout(() => process.exit(code), 2000).unref();
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parse(argv, COMMON_OPTIONS);
  if (values.help) return void process.stdout.write(COMMAND_HELP.serve!);
  const core = await coreFromOptions(values);
  const { createHostServer } = await import("./protocol/hostServer.js");
  const server = createHostServer({
    core,
    write: (line) => process.stdout.write(line + "\n"),
    onExit: exitAfterFlush,
  });
  installSignalHandlers(core, exitAfterFlush);
  process.stdout.on("error", () => {
    // The host closed our stdout: nobody can hear us any more; stop cleanly.
    void core.shutdown().then(() => process.exit(0));
  });
  process.stdin.on("data", (chunk: Buffer) => server.push(chunk));
  process.stdin.on("end", () => server.end());
  process.stdin.on("error", () => server.end());
}

async function mcp(argv: string[]): Promise<void> {
  const { values } = parse(argv, COMMON_OPTIONS);
  if (values.help) return void process.stdout.write(COMMAND_HELP.mcp!);
  const core = await coreFromOptions(values);
  const { startMcpServer } = await import("./protocol/mcpServer.js");
  installSignalHandlers(core, exitAfterFlush);
  const handle = await startMcpServer(core);
  await handle.closed;
  exitAfterFlush(0);
}

function readArguments(raw: string | undefined): unknown {
  if (raw === undefined) return {};
  const text = raw === "-" ? readFileSync(0, "utf8") : raw;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`The arguments are not valid JSON (${(err as Error).message}). Quote them: '{"command":"ls"}'.`);
  }
}

async function call(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, CALL_OPTIONS);
  if (values.help) {
    process.stdout.write(COMMAND_HELP.call!);
    return 0;
  }
  const [name, rawArgs, ...rest] = positionals;
  if (!name) throw new UsageError("call needs a tool name, e.g. wave-core call Read '{\"file_path\":\"README.md\"}'");
  if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(" ")}. Pass the tool arguments as one JSON string.`);
  const args = readArguments(rawArgs);
  // One command for a person or a script: stderr carries its warnings, not the core's info logs.
  if (!process.env.WAVE_LOG_LEVEL) setLogLevel("warn");
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new UsageError("The arguments must be a JSON object, e.g. '{\"command\":\"ls\"}'.");
  }
  const core = await coreFromOptions(values, "allow-all");
  core.events.subscribe((method, params) => {
    if (method !== "permission/decided") return;
    for (const w of params.warnings as { message: string }[]) process.stderr.write(`wave-core: warning: ${w.message}\n`);
  });
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort(new Error("interrupted")));
  process.once("SIGTERM", () => controller.abort(new Error("terminated")));
  try {
    const result = await core.callTool({ name, arguments: args, origin: "cli", signal: controller.signal });
    process.stdout.write(values.json ? JSON.stringify(result, null, 2) + "\n" : ensureNewline(resultText(result)));
    return result.isError ? 1 : 0;
  } catch (err) {
    if (err instanceof UnknownTool || err instanceof InvalidToolArguments) throw new UsageError(err.message);
    throw err;
  } finally {
    await core.shutdown();
  }
}

function ensureNewline(text: string): string {
  return text.endsWith("\n") ? text : text + "\n";
}

const commands: Record<string, (argv: string[]) => Promise<number | void>> = { serve, mcp, call };

/** Concern modules may add commands (e.g. `env`). */
export function registerCommand(name: string, help: string, run: (argv: string[]) => Promise<number | void>): void {
  commands[name] = run;
  COMMAND_HELP[name] = help;
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(MAIN_HELP);
    if (!command) process.exitCode = 2;
    return;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(CORE_VERSION + "\n");
    return;
  }
  const run = commands[command];
  try {
    if (!run) throw new UsageError(`Unknown command "${command}". Commands: ${Object.keys(commands).join(", ")}. See wave-core --help.`);
    const code = await run(rest);
    if (typeof code === "number") {
      process.exitCode = code;
      // A finished one-shot call must not linger on timers of work it already stopped.
      exitAfterFlush(code);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`wave-core: ${err.message}\n`);
      process.exitCode = 2;
      exitAfterFlush(2);
      return;
    }
    process.stderr.write(`wave-core: ${(err as Error)?.stack ?? String(err)}\n`);
    exitAfterFlush(1);
  }
}

/** `wave-core env`'s search-helper section: the probes a core would run, in an engine of its own (it writes no files). */
async function searchHelpersSection(): Promise<EnvReportSection[]> {
  const engine = new ShellEngine();
  try {
    const helpers = await engine.searchHelpers();
    return [{ key: "searchHelpers", value: helpers, text: formatSearchHelpers(helpers) }];
  } finally {
    engine.dispose();
  }
}

/** `wave-core env`'s sandbox section: the state a core started with the defaults (--sandbox auto) would report. */
async function sandboxSection(): Promise<EnvReportSection[]> {
  const platform = hostPlatform();
  const status = describeSandbox(await sandboxAvailability(platform), { mode: "auto", modeSource: "the default", network: "allow" }, platform.name);
  return [{ key: "sandbox", value: status, text: formatSandboxStatus(status) }];
}

registerCommand("env", ENV_COMMAND_HELP, async (argv) => runEnvCommand(argv, async () => [...(await searchHelpersSection()), ...(await sandboxSection())]));

void main(process.argv.slice(2));
