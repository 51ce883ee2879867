// run_shell_command: the compatible shell tool (SPEC RSC-1..5). `bash -c <command>` in the
// workspace root or a directory below it, in its own process group, stdout and stderr each into a
// file of its own, live progress with the latest output, a timeout that kills the whole tree, and
// a result that lists Command, Directory, Stdout, Stderr, Error, Exit Code, Signal, Background
// PIDs and the Process Group PGID. Same engine as Bash: the session's task manager starts the run
// (so the session's end stops whatever it leaves running), the runner, the kill path, the markers
// and childEnvironment().
import { accessSync, constants as fsConstants, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isWithin } from "../util/paths.js";
import { clipText } from "../util/text.js";
import { defineTool, osString, type ToolContent, type ToolContext, type ToolResult } from "../core/tool.js";
import { explainEnding, signalNumber, type Failure } from "../shell/explain.js";
import { needsStartupFile } from "../shell/invocation.js";
import { spawnFailureKind, type ToolErrorKind } from "../base/toolErrors.js";
import { awaitEnding, outputDiskFull, readOutputSummary, removeFilesLater } from "../shell/outcome.js";
import { MAX_RESULT_CHARS } from "../shell/output.js";
import { ProgressGate, readTail } from "../shell/outputTail.js";
import { ShellNotFound } from "../shell/resolve.js";
import { RUNS, SpawnFailed, type ShellRun, type Survivor } from "../shell/run/index.js";
import type { SandboxPlan } from "../shell/sandbox/service.js";
import { DISABLE_SANDBOX_PARAMETER, sandboxFields, sandboxPlan, sandboxHints, sandboxText, withSandboxOutcome } from "./sandbox.js";
import { sandboxGuard } from "../shell/sandbox/guard.js";
import { bashSyntaxError } from "../shell/syntaxCheck.js";

const RSC_NAME = "run_shell_command";
/** How much of the command (and of bash's complaint about it) a result repeats. */
const ECHOED_COMMAND_CHARS = 2000;
export const RSC_DEFAULT_TIMEOUT_MS = 120_000;
/** Progress goes out at most this often (the seed: output updated once a second). */
const RSC_PROGRESS_INTERVAL_MS = 1000;
/** A command that prints nothing still reports progress this often, so waiting clients know it runs. */
const RSC_PROGRESS_HEARTBEAT_MS = 10_000;
const PROGRESS_TAIL_BYTES = 4096;
const PROGRESS_TAIL_LINES = 20;
const STDERR_EVIDENCE_BYTES = 8192;

export const RSC_DESCRIPTION = `Runs a shell command as \`bash -c <command>\` and returns its stdout and stderr separately, with its exit code, the signal that ended it, the background processes it left running and its process group.

- It runs in the project root, or in \`directory\`: a directory relative to the project root that already exists. Absolute paths and paths that lead outside the root (\`..\`, symlinks) are refused.
- Every call starts a fresh, non-interactive bash: variables and \`cd\` do not carry over to the next call, and profile/rc files are not loaded. stdin is empty (/dev/null): pass flags such as --yes/-y and never start interactive programs (editors, pagers, REPLs, \`git rebase -i\`); use non-interactive forms (\`npm init -y\`).
- All bash syntax works: pipes, \`&&\`, \`||\`, subshells, redirections. A command with a syntax error is refused before anything runs.
- The command leads its own process group. \`&\` starts background processes (\`npm run dev &\`): use it for things that do not stop on their own. The result lists those still running after the shell exited (Background PIDs) and the Process Group PGID; stop them with \`kill <pid>\`, \`kill -- -<PGID>\` or \`kill -s SIGNAL -- -<PGID>\` (not from inside the sandbox: there a later command cannot see them). They are stopped when the session ends. Their further output goes to the files named in the result.
- timeout is in milliseconds (default ${RSC_DEFAULT_TIMEOUT_MS}, ${RSC_DEFAULT_TIMEOUT_MS / 60_000} minutes). A command still running then is killed with everything it started, and the result says so; give long builds and test runs a larger timeout.
- Stdout and Stderr come back whole up to about ${MAX_RESULT_CHARS} characters together; longer output keeps the beginning and the end and names the file holding all of it (read it with Read). Progress with the latest output is reported about once a second while it runs.
- Error explains every failure: a command that was not found (exit code 127), not executable (126), a syntax error, a missing or refused directory, a signal, the timeout, the system running out of resources. Check Exit Code and Stderr before relying on the result.
- The user may be asked to approve the command first; a command that is not approved does not run. Describe it well in \`description\`.

${sandboxText("processes a command left running are stopped when the session ends")}`;

const inputSchema = z.strictObject({
  command: osString("command").min(1, "command must be a non-empty string: the bash command to run").describe("The exact bash command to run, as `bash -c <command>`"),
  description: z.string().optional().describe("A brief description of the command for the user: specific and concise, ideally one sentence (at most three), no line breaks"),
  directory: osString("path").optional().describe("The directory to run the command in, relative to the project root, if not the root. Must already exist; absolute paths are refused"),
  timeout: z
    .number({ error: `timeout must be a number of milliseconds, or left out for the default (${RSC_DEFAULT_TIMEOUT_MS})` })
    .positive({ error: "timeout must be a positive number of milliseconds, or left out for the default" })
    .optional()
    .describe(`Timeout in milliseconds (default ${RSC_DEFAULT_TIMEOUT_MS}). Past it the command and every process it started are killed`),
  dangerouslyDisableSandbox: DISABLE_SANDBOX_PARAMETER,
});

export type RunShellCommandInput = z.output<typeof inputSchema>;

/** Where the command runs: checked once, before the permission question, and used by `run`. */
export type DirectoryCheck = { ok: true; abs: string; display: string } | { ok: false; failure: Failure; display: string };

/** `directory` as the model gave it → the real directory inside the workspace root, or why not. */
function checkDirectory(input: string | undefined, root: string): DirectoryCheck {
  if (input === undefined || input === "" || input === ".") return { ok: true, abs: root, display: "(root)" };
  const display = input;
  const fail = (kind: Failure["kind"], message: string): DirectoryCheck => ({ ok: false, failure: { kind, message }, display });
  if (input === "~" || input.startsWith("~/")) {
    return fail(
      "invalid_argument",
      `directory must be relative to the project root (${root}); "${input}" names a place under the home directory. Give a path relative to the project root, or leave directory out to run in the root.`,
    );
  }
  if (path.isAbsolute(input) || /^[A-Za-z]:[\\/]/.test(input)) {
    const rel = path.relative(root, path.resolve(input));
    const inside = isWithin(path.resolve(input), root);
    return fail(
      "invalid_argument",
      `directory must be relative to the project root (${root}), but "${input}" is absolute. ${
        inside ? (rel ? `Use "${rel}" instead.` : "Leave directory out to run in the root.") : "It is outside the project; commands run only inside it."
      }`,
    );
  }
  const abs = path.resolve(root, input);
  if (!isWithin(abs, root)) {
    return fail("outside_workspace", `directory "${input}" leads outside the project root (to ${abs}); give a directory inside ${root}.`);
  }
  const rel = path.relative(root, abs);
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EACCES") return fail("permission_denied", `No permission to reach directory "${input}" (${abs}): a directory on the way is not accessible. Check the permissions (ls -ld).`);
    if (code === "ENOTDIR") return fail("not_a_directory", `directory "${input}" is not a directory: part of the path (${abs}) is a file.`);
    return fail("not_found", `directory "${input}" does not exist (${abs}). Create it first (mkdir -p ${rel}), or give an existing directory relative to the project root.`);
  }
  const realRoot = realpathOr(root);
  if (!isWithin(real, realRoot)) {
    return fail("outside_workspace", `directory "${input}" goes through a symlink that leads outside the project root, to ${real}; commands run only inside ${root}.`);
  }
  let isDir = false;
  try {
    isDir = statSync(real).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) return fail("not_a_directory", `directory "${input}" is a file, not a directory (${real}).`);
  try {
    accessSync(real, fsConstants.X_OK);
  } catch (err) {
    return fail(
      "permission_denied",
      `No permission to enter directory "${input}" (${real}, ${(err as NodeJS.ErrnoException).code ?? err}). Check its permissions (ls -ld ${rel}) or choose another directory.`,
    );
  }
  return { ok: true, abs: real, display: path.relative(realRoot, real).split(path.sep).join("/") || "(root)" };
}

function realpathOr(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

/**
 * What `prepare` finds out once per call, before the permission question (so nobody is asked
 * about a command that cannot run), and `run` uses: the directory, whether bash can parse the
 * command, and the sandbox plan it runs under (only for a command that can run).
 */
type Prepared =
  | { kind: "bad_directory"; directory: DirectoryCheck & { ok: false } }
  | { kind: "syntax_error"; directory: DirectoryCheck & { ok: true }; syntaxError: string }
  | { kind: "ready"; directory: DirectoryCheck & { ok: true }; plan: SandboxPlan };

async function prepare(input: RunShellCommandInput, ctx: ToolContext): Promise<Prepared> {
  const directory = checkDirectory(input.directory, ctx.workspace.root);
  if (!directory.ok) return { kind: "bad_directory", directory };
  const syntaxError = await bashSyntaxError(input.command, { signal: ctx.signal });
  if (syntaxError) return { kind: "syntax_error", directory, syntaxError };
  return { kind: "ready", directory, plan: await sandboxPlan(input, ctx) };
}

/** structuredContent of every run_shell_command result: the text's fields, and more. */
export interface RunShellCommandStructured {
  command: string;
  /** Relative to the project root, or "(root)". */
  directory: string;
  stdout: string;
  stderr: string;
  error: string | null;
  /** What `error` is, in the union every tool's errors use (base/toolErrors.ts); null without an error. */
  errorKind: ToolErrorKind | null;
  exitCode: number | null;
  /** The number of the signal that killed the shell. */
  signal: number | null;
  signalName: string | null;
  backgroundPids: number[];
  backgroundProcesses: Survivor[];
  pgid: number | null;
  timedOut: boolean;
  interrupted: boolean;
  timeoutMs: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  /** The files, when kept: output cut short, or background processes still writing. */
  stdoutPath: string | null;
  stderrPath: string | null;
  durationMs: number;
  /** The command ran inside the OS sandbox. */
  sandboxed: boolean;
  [key: string]: unknown;
}

const orNone = (v: string | number | null | undefined) => (v === null || v === undefined || v === "" ? "(none)" : String(v));
const orEmpty = (s: string) => (s === "" ? "(empty)" : s.replace(/\n$/, ""));

function formatResult(s: RunShellCommandStructured): string {
  const lines = [
    `Command: ${s.command}`,
    `Directory: ${s.directory}`,
    `Stdout: ${orEmpty(s.stdout)}`,
    `Stderr: ${orEmpty(s.stderr)}`,
    `Error: ${orNone(s.error)}`,
    `Exit Code: ${orNone(s.exitCode)}`,
    `Signal: ${s.signal === null ? "(none)" : `${s.signal}${s.signalName ? ` (${s.signalName})` : ""}`}`,
    `Background PIDs: ${s.backgroundPids.length ? s.backgroundPids.join(", ") : "(none)"}`,
    `Process Group PGID: ${orNone(s.pgid)}`,
  ];
  if (s.backgroundPids.length && s.stdoutPath && s.stderrPath) {
    lines.push(`Output of the background processes keeps going to ${s.stdoutPath} and ${s.stderrPath}.`);
  }
  return lines.join("\n");
}

function result(fields: Partial<RunShellCommandStructured> & Pick<RunShellCommandStructured, "command" | "directory" | "timeoutMs">): ToolResult {
  const s: RunShellCommandStructured = {
    stdout: "",
    stderr: "",
    error: null,
    errorKind: null,
    exitCode: null,
    signal: null,
    signalName: null,
    backgroundPids: [],
    backgroundProcesses: [],
    pgid: null,
    timedOut: false,
    interrupted: false,
    stdoutTruncated: false,
    stderrTruncated: false,
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutPath: null,
    stderrPath: null,
    durationMs: 0,
    sandboxed: false,
    ...fields,
  };
  const content: ToolContent[] = [{ type: "text", text: formatResult(s) }];
  if (s.error === null) return { content, structuredContent: s, isError: false };
  // An error always has its kind; one without would be a bug here, reported as such rather than hidden.
  return { content, structuredContent: { ...s, error: s.error, errorKind: s.errorKind ?? "internal_error" }, isError: true };
}

/** How the ~30,000 characters are shared: a small stream is shown whole, two large ones 2:1. */
export function outputBudget(stdoutBytes: number, stderrBytes: number, total = MAX_RESULT_CHARS): { stdout: number; stderr: number } {
  if (stdoutBytes + stderrBytes <= total) return { stdout: total, stderr: total };
  const third = Math.floor(total / 3);
  if (stderrBytes <= third) return { stdout: total - stderrBytes, stderr: total };
  if (stdoutBytes <= total - third) return { stdout: total, stderr: total - stdoutBytes };
  return { stdout: total - third, stderr: third };
}

function sizeOf(file: string | undefined): number {
  if (!file) return 0;
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function progressMessage(stdout: string, stderr: string): string {
  const parts: string[] = [];
  if (stdout) parts.push(stdout);
  if (stderr) parts.push(`[stderr]\n${stderr}`);
  return parts.length ? parts.join("\n") : "(no output yet)";
}

export const runShellCommandTool = defineTool({
  name: RSC_NAME,
  startsProcesses: true,
  description: RSC_DESCRIPTION,
  inputSchema,
  annotations: { title: "Shell", destructiveHint: true, openWorldHint: true },
  prepare,
  // RSC-5: decided before anything runs, with the directory resolved against the project root. A
  // command that cannot run (bad directory, syntax error, no sandbox) needs no approval: `run` refuses it.
  permission(input, _ctx, prep) {
    if (prep.kind !== "ready" || prep.plan.refusal) return undefined;
    return { tool: RSC_NAME, command: input.command, directory: prep.directory.abs, ...(input.description ? { description: input.description } : {}), ...sandboxFields(prep.plan) };
  },
  async run(input, ctx, prep) {
    let plan: SandboxPlan | undefined;
    const outcome = await runCommand(input, ctx, prep, (p) => (plan = p));
    return plan ? withSandboxOutcome(outcome, plan) : outcome;
  },
});

/** `onStarted` hears the sandbox plan the command started under (nothing when it never started). */
async function runCommand(input: z.output<typeof inputSchema>, ctx: ToolContext, prep: Prepared, onStarted: (plan: SandboxPlan) => void): Promise<ToolResult> {
  const timeoutMs = input.timeout ?? RSC_DEFAULT_TIMEOUT_MS;
  // The result repeats the command (RSC-3): a long one only in part.
  const base = { command: clipText(input.command, ECHOED_COMMAND_CHARS), directory: prep.directory.display, timeoutMs };
  if (prep.kind === "bad_directory") return result({ ...base, error: prep.directory.failure.message, errorKind: prep.directory.failure.kind });
  if (prep.kind === "syntax_error") {
    return result({
      ...base,
      error: `Syntax error: bash cannot parse the command, so nothing ran (${clipText(
        prep.syntaxError
          .replace(/^[^\n]*?bash: -c: /gm, "")
          .replace(/\s+/g, " ")
          .trim(),
        ECHOED_COMMAND_CHARS,
      )}). Fix the quoting or the structure of the command.`,
      errorKind: "syntax_error",
    });
  }
  const plan = prep.plan;
  if (plan.refusal) return result({ ...base, error: plan.refusal, errorKind: "sandbox_unavailable" });

  const manager = ctx.session.service(RUNS);
  let run: ShellRun;
  try {
    run = await manager.start({
      command: input.command,
      cwd: prep.directory.abs,
      trackCwd: false,
      shimsEnabled: ctx.workspace.setting("shims"),
      plain: !needsStartupFile(ctx.permission?.decision.commandNames),
      separateStderr: true,
      shellKind: "bash",
      signal: ctx.signal,
      sandbox: plan,
    });
    onStarted(plan);
  } catch (err) {
    if (err instanceof ShellNotFound) return result({ ...base, error: err.message, errorKind: "shell_not_found" });
    if (err instanceof SpawnFailed) {
      const code = err.code;
      return spawnFailureKind(code) === "out_of_resources"
        ? result({
            ...base,
            error: `Out of resources: the command could not be started (${code}: too many processes or open files, not enough memory, or a full disk). ${err.message}`,
            errorKind: "out_of_resources",
          })
        : result({ ...base, error: err.message, errorKind: "spawn_failed" });
    }
    throw err;
  }
  // Commands lead their own process group (detached spawn): its id is the shell's pid. Windows has none.
  const pgid = run.shell.platform !== "win32" ? (run.pid ?? null) : null;

  // The tool window tails the files themselves; tool/progress below is for MCP clients.
  ctx.liveOutput({ outputPath: run.outputPath, ...(run.stderrPath !== undefined ? { stderrPath: run.stderrPath } : {}) });

  // Live output, at most once a second (RSC: 实时输出, 每秒更新一次).
  const gate = new ProgressGate(RSC_PROGRESS_INTERVAL_MS, RSC_PROGRESS_HEARTBEAT_MS, () => performance.now(), "0:0");
  const ticker = setInterval(() => {
    const out = readTail(run.outputPath, PROGRESS_TAIL_BYTES, PROGRESS_TAIL_LINES);
    const err = readTail(run.stderrPath!, PROGRESS_TAIL_BYTES, PROGRESS_TAIL_LINES);
    if (!run.running || !gate.offer(`${out.size}:${err.size}`)) return;
    // Whole seconds since the start: updates are at least a second apart, so this always grows.
    ctx.progress({ message: progressMessage(out.text, err.text), progress: Math.floor((gate.sentAt - gate.startedAt) / 1000) });
  }, RSC_PROGRESS_INTERVAL_MS);

  const outcome = await awaitEnding(run, { timeoutMs, signal: ctx.signal });
  clearInterval(ticker);

  let survivors: Survivor[] = [];
  if (outcome.kind === "exit") {
    survivors = await run.findSurvivors().catch(() => [] as Survivor[]);
  } else {
    // The timeout and a cancel both stop the whole tree: the group and every marked process.
    await run.stop();
  }
  const status = run.exitStatus ?? (await run.exited);
  const sandboxNotes = [...sandboxGuard.ended(run, survivors.length > 0), ...run.takeSandboxNotes()];
  manager.runFinished(run, survivors.length > 0);

  const budget = outputBudget(sizeOf(run.outputPath), sizeOf(run.stderrPath));
  const stdout = readOutputSummary(run.outputPath, budget.stdout);
  const stderr = readOutputSummary(run.stderrPath, budget.stderr);
  const failure = explainEnding({
    exitCode: status.exitCode,
    signal: status.signal,
    timedOut: outcome.kind === "timeout",
    timeoutMs,
    ...(outcome.kind === "abort" ? { cancelled: outcome.reason } : {}),
    stderrTail: readTail(run.stderrPath!, STDERR_EVIDENCE_BYTES, 200).text,
  });
  // What the sandbox did or refused goes with the error text, where a model looks for why.
  const said = [...sandboxNotes, ...(failure ? sandboxHints(`${stdout.text}\n${stderr.text}`, run) : [])];

  const keep = survivors.length > 0 || stdout.truncated || stderr.truncated;
  if (!keep) removeFilesLater([run.outputPath, run.stderrPath]);
  const signal = signalNumber(status.signal);
  // Both streams' files are in one directory: a full disk there loses them, and the error with them.
  const diskFull = failure ? outputDiskFull(run.outputPath) : undefined;
  const failed = failure ? (diskFull ? `${failure.message} ${diskFull}` : failure.message) : undefined;
  const error = failed || said.length ? [failed, ...said].filter(Boolean).join("\n") : null;
  return result({
    ...base,
    stdout: stdout.text,
    stderr: stderr.text,
    error,
    errorKind: failure ? (diskFull ? "out_of_resources" : failure.kind) : null,
    exitCode: status.exitCode,
    signal,
    signalName: status.signal,
    backgroundPids: survivors.map((s) => s.pid),
    backgroundProcesses: survivors,
    pgid,
    timedOut: outcome.kind === "timeout",
    interrupted: outcome.kind === "abort",
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    stdoutBytes: stdout.totalBytes,
    stderrBytes: stderr.totalBytes,
    stdoutPath: keep ? run.outputPath : null,
    stderrPath: keep ? (run.stderrPath ?? null) : null,
    durationMs: run.durationMs,
  });
}
