// wave-core: the command-line entry. `serve` (host protocol), `mcp` (MCP server), `call` (one
// tool call), each with --help.
import { readFileSync } from "node:fs";
import os from "node:os";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { WaveCore } from "./core/runtime.js";
import { InvalidToolArguments, ToolRegistry, UnknownTool } from "./core/registry.js";
import { resultText, type ToolDefinition } from "./core/tool.js";
import { resolveToolPath } from "./fs/paths.js";
import { countAsRead } from "./fs/readState.js";
import { TASKS } from "./tasks/manager.js";
import { allTools } from "./tools/index.js";
import { isDirectory } from "./util/files.js";
import { canonicalDir } from "./util/paths.js";
import { CORE_VERSION } from "./protocol/version.js";
import { createCore } from "./startup.js";
import { setLogLevel } from "./util/log.js";
import { closestName } from "./util/text.js";
import { ENV_COMMAND_HELP, runEnvCommand, type EnvReportSection } from "./env/command.js";
import { parsePolicy, PolicyError, RuleSyntaxError } from "./permissions/service.js";
import { ShellEngine } from "./shell/engine.js";
import { formatSearchHelpers } from "./shell/shims/index.js";
import { parseSandboxCli, SandboxOptionError } from "./shell/sandbox/settings.js";
import { sandboxAvailability } from "./shell/sandbox/detect.js";
import { cacheDirectories } from "./shell/sandbox/policy.js";
import { describeSandbox, formatSandboxStatus } from "./shell/sandbox/service.js";
import { hostPlatform } from "./util/platform.js";
import { closeInheritedDescriptors } from "./util/inheritedFds.js";

class UsageError extends Error {}

const MAIN_HELP = `wave-core ${CORE_VERSION} — the Wave Tools core for AI coding agents

Usage:
  wave-core serve [--root DIR] [--add-dir DIR]... [--listen [HOST:]PORT] [PERMISSIONS] [SANDBOX]
                                                     host protocol (JSON-RPC 2.0 lines on stdio),
                                                     and with --listen MCP for agents on loopback
  wave-core mcp   [--root DIR] [--add-dir DIR]... [PERMISSIONS] [SANDBOX]   MCP server on stdio
  wave-core mcp --attach[=required] [--root DIR] [PERMISSIONS] [SANDBOX]
                                                     MCP server on stdio that runs the calls in the
                                                     IDE's core for this directory (PERMISSIONS,
                                                     SANDBOX: for a local fallback core only)
  wave-core call <Tool> '<json arguments>' [--root DIR] [--add-dir DIR]... [PERMISSIONS] [SANDBOX] [--json]
                                                     run one tool call and print its result
  wave-core env [--json]                             the login-shell environment and the sandbox the core uses
  wave-core <command> --help                          help for one command
  wave-core --version

PERMISSIONS: --permission-mode ask|allow-all|deny-all, --allow RULE..., --deny RULE...
SANDBOX:     --sandbox auto|on|off, --sandbox-network allow|deny

Tools: Bash, TaskStop, Read, Edit, Write, Glob, Grep, run_shell_command.
Environment: WAVE_LOG_LEVEL=debug|info|warn|error (logs go to stderr; default info, warn for call);
             WAVE_STATE_DIR=DIR where listening cores publish themselves (default ~/.wave);
             WAVE_LOGIN_ENV=0 turns off adopting the login shell's PATH, proxies, ... (see wave-core env);
             WAVE_COMPILE_CACHE=0 turns off the start-up code cache (in WAVE_STATE_DIR/cache).
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

const SANDBOX_HELP = `Sandbox (shell commands of Bash and run_shell_command; docs/user/sandbox.md):
  --sandbox MODE          auto: run commands inside the OS sandbox (bubblewrap on Linux,
                          sandbox-exec on macOS) where it works, unsandboxed elsewhere (default);
                          on: refuse to run commands without it; off: never use it.
                          settings.sandbox.mode from the host wins.
  --sandbox-network NET   allow (default) or deny: sandboxed commands get no network at all.
                          --permission-mode deny-all implies deny.
`;

const COMMAND_HELP: Record<string, string> = {
  serve: `Usage: wave-core serve [--root DIR] [--add-dir DIR]... [--listen [HOST:]PORT] [PERMISSIONS] [SANDBOX]

Serves the host protocol: JSON-RPC 2.0, one UTF-8 JSON object per line on stdin/stdout, logs on
stderr. The host's initialize request may override the root and add directories.

Options:
  --root DIR      workspace root (default: the current directory)
  --add-dir DIR   another directory commands may cd into and stay (repeatable)
  --listen [HOST:]PORT
                  also serve MCP over Streamable HTTP at http://HOST:PORT/mcp for agents
                  (default 127.0.0.1:0, a free port; loopback addresses only). Each request
                  needs the bearer token this core writes, with its URL and workspace folders, to
                  \${WAVE_STATE_DIR:-~/.wave}/ide/<pid>.json (mode 0600); agents reach it with
                  wave-core mcp --attach. Each agent connection is a session of its own.

${PERMISSION_HELP}
${SANDBOX_HELP}
The host asks the user through permission/request when it declares
capabilities.permissionRequests in initialize (see PROTOCOL.md).

Closing stdin (or SIGTERM/SIGINT/SIGHUP) stops every process the core started, then exits.
`,
  mcp: `Usage: wave-core mcp [--root DIR] [--add-dir DIR]... [PERMISSIONS] [SANDBOX]
       wave-core mcp --attach[=required] [--root DIR] [--add-dir DIR]... [PERMISSIONS] [SANDBOX]

Serves the same tools as a Model Context Protocol server over stdio. One connection is one
session; closing stdin stops its background tasks.

Options:
  --root DIR      workspace root (default: the current directory)
  --add-dir DIR   another directory commands may cd into and stay (repeatable)
  --attach        run the calls in the IDE's core instead: the live core (serve --listen) whose
                  workspace folder contains --root or the current directory, the most specific
                  one if several do. Its tool window shows the calls, and its rules and approvals
                  apply. With no such core a local core runs, as without --attach (said on
                  stderr). Put this command in the agent's MCP configuration; it needs no port
                  or token.
  --attach=required
                  the same, but fail (exit status 3) when no IDE core serves the directory

With --attach, --add-dir and the permission and sandbox options below apply only to the local
core that runs when no IDE core serves the directory. Attached calls run under the IDE core's
rules, approvals and sandbox (its settings.sandbox and its own --sandbox options): an agent
cannot loosen them from its command line.

${PERMISSION_HELP}
${SANDBOX_HELP}
The user is asked through MCP elicitation when the client supports it.
`,
  call: `Usage: wave-core call <Tool> '<json arguments>' [--root DIR] [--add-dir DIR]... [PERMISSIONS] [SANDBOX] [--json]

Runs one tool call and prints its text result (or the whole MCP-shaped result with --json).
Give "-" as the arguments to read them from stdin.

Exit status: 0 success, 1 the tool reported an error (a denied permission included), 2 usage
error (bad JSON, unknown tool, invalid arguments, invalid rule).

${PERMISSION_HELP}
${SANDBOX_HELP}
call runs what a person typed, so its mode is allow-all unless --permission-mode says otherwise;
--deny rules still apply, and warnings (e.g. a recursive delete outside the workspace) are printed
to stderr.

Each call is a session of its own: nothing carries over to the next call.
  Edit, Write   no Read is needed first: the file counts as read as it is when the call starts
                (you decided by running the call). A file that changes while the call runs is
                still refused as stale.
  Bash          a command started with run_in_background, or moved to the background by its
                timeout, is stopped when the call exits (said on stderr). For tasks that keep
                running, use wave-core mcp or serve; to wait, give a larger timeout.

Example:
  wave-core call Bash '{"command":"git status"}'
  wave-core call Read '{"file_path":"README.md","limit":20}' --json
  wave-core call Edit '{"file_path":"README.md","old_string":"teh","new_string":"the"}'
`,
};

const CALL_OPTIONS = { ...COMMON_OPTIONS, json: { type: "boolean" } } as const satisfies ParseArgsConfig["options"];
const SERVE_OPTIONS = { ...COMMON_OPTIONS, listen: { type: "string" } } as const satisfies ParseArgsConfig["options"];
const MCP_OPTIONS = { ...COMMON_OPTIONS, attach: { type: "boolean" }, "attach-required": { type: "boolean" } } as const satisfies ParseArgsConfig["options"];
const DEFAULT_LISTEN = "127.0.0.1:0";

/** `--listen` may stand alone (default address) and `--attach` may carry `=required`. */
function normalizeOptionalValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--listen" && (i + 1 >= argv.length || argv[i + 1]!.startsWith("-"))) out.push(`--listen=${DEFAULT_LISTEN}`);
    else if (a === "--attach=required") out.push("--attach-required");
    else if (a.startsWith("--attach=")) throw new UsageError(`${a}: use --attach or --attach=required.`);
    else out.push(a);
  }
  return out;
}

function parse<O extends ParseArgsConfig["options"]>(argv: string[], options: O, command: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // Node's own text suggests `-- "--jsn"` (a positional argument), never the option meant.
    const unknown = e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /^Unknown option '([^']+)'/.exec(e.message)?.[1] : undefined;
    if (unknown !== undefined) {
      const known = (options ?? {}) as Record<string, { short?: string }>;
      const names = Object.entries(known)
        .filter(([name]) => name !== "attach-required")
        .flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
      const meant = closestName(unknown.split("=")[0]!, names);
      throw new UsageError(`Unknown option ${unknown}.${meant ? ` Did you mean ${meant}?` : ""} See wave-core ${command} --help.`);
    }
    throw new UsageError(`${e.message.replace(/\.$/, "")}. See wave-core ${command} --help.`);
  }
}

type CoreOptionValues = { root?: string; "add-dir"?: string[]; "permission-mode"?: string; allow?: string[]; deny?: string[]; sandbox?: string; "sandbox-network"?: string };

async function coreFromOptions(values: CoreOptionValues, defaultMode?: "allow-all"): Promise<WaveCore> {
  return createCore(await coreOptions(values, defaultMode));
}

/** The command line's core options, checked: a bad one is a usage error before anything starts. */
async function coreOptions(values: CoreOptionValues, defaultMode?: "allow-all"): Promise<Parameters<typeof createCore>[0]> {
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
  return { root, additionalDirectories: dirs, permissions, sandbox };
}

/** On SIGTERM, SIGINT or SIGHUP: `stop`, then exit with 128 + the signal's number. */
function installSignalHandlers(stop: () => Promise<unknown>, exit: (code: number) => void): void {
  const signals: Array<[NodeJS.Signals, number]> = [
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ];
  for (const [sig, code] of signals) {
    process.on(sig, () => {
      void stop().then(() => exit(code));
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
  const { values } = parse(normalizeOptionalValues(argv), SERVE_OPTIONS, "serve");
  if (values.help) return void process.stdout.write(COMMAND_HELP.serve!);
  let address: { host: string; port: number } | undefined;
  if (values.listen !== undefined) {
    const { parseListenAddress } = await import("./protocol/mcpHttpGuards.js");
    try {
      address = parseListenAddress(values.listen);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const core = await coreFromOptions(values);
  const { createHostServer } = await import("./protocol/hostServer.js");
  let listener: import("./protocol/listen.js").Listener | undefined;
  const server = createHostServer({
    core,
    // Settles once the line left the core's memory: a request holds its place in the gate until then.
    write: (line) => new Promise<void>((resolve) => void process.stdout.write(line + "\n", () => resolve())),
    onExit: exitAfterFlush,
    onInitialized: ({ hostInfo }) => listener?.setHostInfo(hostInfo),
    agents: () => listener && { url: listener.endpoint.url, lockFile: listener.lockFile ?? null, ...(listener.problem ? { problem: listener.problem } : {}) },
  });
  if (address) {
    const { startListening } = await import("./protocol/listen.js");
    try {
      const { elicitationAsker } = await import("./protocol/askers/elicitation.js");
      listener = await startListening(core, {
        ...address,
        // An attached agent's questions go to the person at the IDE when the host answers them,
        // else to the agent (elicitation), else the permission mode decides.
        sessionOptions: () => ({ asker: (mcp, requestId, version) => server.asker() ?? elicitationAsker(mcp, requestId, version) }),
      });
    } catch (err) {
      await core.shutdown();
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === "EADDRINUSE" ? `--listen ${values.listen}: the port is in use; use port 0 to pick a free one.` : `--listen ${values.listen}: cannot listen (${(err as Error).message}).`,
      );
    }
  }
  installSignalHandlers(() => core.shutdown(), exitAfterFlush);
  process.stdout.on("error", () => {
    // The host closed our stdout: nobody can hear us any more; stop cleanly.
    void core.shutdown().then(() => process.exit(0));
  });
  process.stdin.on("data", (chunk: Buffer) => server.push(chunk));
  process.stdin.on("end", () => server.end());
  process.stdin.on("error", () => server.end());
}

async function mcp(argv: string[]): Promise<number | void> {
  const { values } = parse(normalizeOptionalValues(argv), MCP_OPTIONS, "mcp");
  if (values.help) return void process.stdout.write(COMMAND_HELP.mcp!);
  if (values.attach || values["attach-required"]) return attach(values, values["attach-required"] === true);
  return runLocalMcp(values);
}

async function runLocalMcp(values: CoreOptionValues): Promise<void> {
  const core = await coreFromOptions(values);
  const { startMcpServer } = await import("./protocol/mcpServer.js");
  installSignalHandlers(() => core.shutdown(), exitAfterFlush);
  const handle = await startMcpServer(core);
  await handle.closed;
  exitAfterFlush(0);
}

/** `mcp --attach`: pipe this agent to the IDE's core for the directory, or run a local core. */
async function attach(values: CoreOptionValues, required: boolean): Promise<number | void> {
  const dir = canonicalDir(values.root ?? process.cwd());
  if (!isDirectory(dir)) throw new UsageError(`--root must be an existing directory: ${dir}`);
  // Checked now, though only a local core uses them: a typo fails at once, not at the first fallback.
  const localCoreOptions = await coreOptions({ ...values, root: dir });
  const note = (line: string) => process.stderr.write(line + "\n");
  const { findCore, startAttachProxy } = await import("./protocol/attach.js");
  const found = await findCore(dir);
  for (const problem of found.problems) note(`wave-core: ${problem}`);
  for (const skipped of found.target?.skipped ?? []) note(`wave-core: passed over ${skipped}`);
  if (!found.target) {
    if (required) {
      note(
        `wave-core: no IDE core serves ${dir}. Open this folder (or a parent) as a project in the IDE with the Wave Tools plugin, whose core listens for agents; or use --attach without =required to run a local core when none does.`,
      );
      return 3;
    }
    note(`wave-core: no IDE core serves ${dir}; running a local core, as wave-core mcp does (its calls do not show in the IDE).`);
    return runLocalMcp({ ...values, root: dir });
  }
  const localOptions =
    values["permission-mode"] !== undefined ||
    values.sandbox !== undefined ||
    values["sandbox-network"] !== undefined ||
    (values.allow?.length ?? 0) > 0 ||
    (values.deny?.length ?? 0) > 0 ||
    (values["add-dir"]?.length ?? 0) > 0;
  if (localOptions)
    note("wave-core: --permission-mode, --allow, --deny, --add-dir, --sandbox and --sandbox-network apply only to a local core; the IDE's settings (its sandbox included) decide for its core.");
  let localCore: WaveCore | undefined;
  const localFallback = async () => {
    const [{ InMemoryTransport }, { createMcpSessionServer }] = await Promise.all([import("@modelcontextprotocol/sdk/inMemory.js"), import("./protocol/mcpServer.js")]);
    localCore = await createCore(localCoreOptions);
    const [forProxy, forServer] = InMemoryTransport.createLinkedPair();
    await createMcpSessionServer(localCore, localCore.sessions.main).server.connect(forServer);
    return forProxy;
  };
  const proxy = await startAttachProxy(found.target, { stdin: process.stdin, stdout: process.stdout, note }, { dir, required, ...(required ? {} : { localFallback }) });
  installSignalHandlers(() => proxy.stop().then(() => localCore?.shutdown()), exitAfterFlush);
  await proxy.done;
  await localCore?.shutdown();
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
  const { values, positionals } = parse(argv, CALL_OPTIONS, "call");
  if (values.help) {
    process.stdout.write(COMMAND_HELP.call!);
    return 0;
  }
  const [name, rawArgs, ...rest] = positionals;
  if (!name) throw new UsageError('call needs a tool name, e.g. wave-core call Read \'{"file_path":"README.md"}\'');
  if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(" ")}. Pass the tool arguments as one JSON string.`);
  // The tool and its arguments are checked before a core starts: a typo costs nothing.
  const registry = new ToolRegistry(allTools);
  let tool: ToolDefinition;
  try {
    tool = registry.get(name);
  } catch (err) {
    if (err instanceof UnknownTool) throw new UsageError(err.message);
    throw err;
  }
  if (rawArgs === undefined) {
    const required = (registry.list().find((t) => t.name === tool.name)?.inputSchema.required ?? []) as string[];
    if (required.length > 0) {
      const example = JSON.stringify(Object.fromEntries(required.map((key) => [key, "…"])));
      throw new UsageError(`Give ${tool.name}'s arguments as JSON, e.g. wave-core call ${tool.name} '${example}' (required: ${required.join(", ")}). See wave-core call --help.`);
    }
  }
  const args = readArguments(rawArgs);
  // One command for a person or a script: stderr carries its warnings, not the core's info logs.
  if (!process.env.WAVE_LOG_LEVEL) setLogLevel("warn");
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new UsageError('The arguments must be a JSON object, e.g. \'{"command":"ls"}\'.');
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
    // Each call is a session of its own, where no Read can come first: the person or script
    // running it has decided, so the file it changes counts as read as it is now (the stale
    // checks still refuse a file that changes before the write).
    const filePath = (args as { file_path?: unknown }).file_path;
    if ((tool.name === "Edit" || tool.name === "Write") && typeof filePath === "string" && filePath !== "") {
      countAsRead(core.sessions.main, resolveToolPath(filePath, core.sessions.main.cwd));
    }
    const result = await core.callTool({ name, arguments: args, origin: "cli", signal: controller.signal });
    process.stdout.write(values.json ? JSON.stringify(result, null, 2) + "\n" : ensureNewline(resultText(result)));
    // A background task cannot outlive the core that runs it: say so now, not "you will be notified".
    for (const task of core.sessions.main.peekService(TASKS)?.list() ?? []) {
      if (task.status !== "running") continue;
      process.stderr.write(
        `wave-core: background task ${task.taskId} stops now: wave-core call ends the tasks it started when it exits. To keep a command running, run it through wave-core mcp or serve (where TaskStop can stop it later); to wait for it, run it in the foreground with a larger timeout.\n`,
      );
    }
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
  // Before anything can start a process: nothing the core was handed reaches a command.
  closeInheritedDescriptors();
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
  // What such a core would refuse to run: a bwrap in the folder it would sandbox, or in a cache.
  const writable = [process.cwd(), ...cacheDirectories(os.homedir(), process.env)];
  const status = describeSandbox(await sandboxAvailability(platform, process.env, writable), { mode: "auto", modeSource: "the default", network: "allow" }, platform.name);
  return [{ key: "sandbox", value: status, text: formatSandboxStatus(status) }];
}

registerCommand("env", ENV_COMMAND_HELP, async (argv) => runEnvCommand(argv, async () => [...(await searchHelpersSection()), ...(await sandboxSection())]));

void main(process.argv.slice(2));
