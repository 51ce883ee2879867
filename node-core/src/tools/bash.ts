// Bash: runs a command in a fresh bash/zsh (Git Bash on Windows), in the foreground with a
// timeout that moves it to the background instead of killing it, or as a background task.
// The command path lives in shell/run/ (docs/dev/command-path.md); background tasks in tasks/.
import { z } from "zod";
import { defineTool, osString, type ToolContext, type ToolErrorKind, type ToolResult } from "../core/tool.js";
import { spawnFailureKind } from "../base/toolErrors.js";
import { explainEnding } from "../shell/explain.js";
import { isDirectory } from "../util/files.js";
import { applyEndedCwd, cwdResetNotice, type CwdOutcome } from "../shell/cwd.js";
import { needsStartupFile, startsWithSleep } from "../shell/invocation.js";
import { outputDiskFull, awaitEnding, readOutputSummary, removeFilesLater } from "../shell/outcome.js";
import { MAX_RESULT_CHARS, type OutputSummary } from "../shell/output.js";
import { ShellNotFound } from "../shell/resolve.js";
import { RUNS, SpawnFailed, type SessionRuns, type ShellRun, type Survivor } from "../shell/run/index.js";
import type { SandboxPlan } from "../shell/sandbox/service.js";
import { DISABLE_SANDBOX_PARAMETER, sandboxFields, sandboxPlan, sandboxHints, sandboxText, withSandboxOutcome } from "./sandbox.js";
import { sandboxGuard } from "../shell/sandbox/guard.js";
import { newTaskId, TASKS, type TaskInfo } from "../tasks/manager.js";

/** BASH-TO-1/2: one source for the numbers the description, the schema and the runtime use. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;

const minutes = (ms: number) => `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`;
/** The sentence both the tool description and the `timeout` parameter use. */
const TIMEOUT_LIMITS_TEXT = `default ${BASH_DEFAULT_TIMEOUT_MS} ms (${minutes(BASH_DEFAULT_TIMEOUT_MS)}), maximum ${BASH_MAX_TIMEOUT_MS} ms (${minutes(BASH_MAX_TIMEOUT_MS)})`;

/**
 * What models need to know about the search shims (docs/user/shims.md): what a recursive grep
 * and find skip, how to search everything anyway, where the system tools run, and the opt-out.
 */
const SEARCH_COMMANDS_TEXT = `Search commands (grep, find, rg):
- In these commands a recursive grep (-r/-R, or a directory operand) runs a bundled grep that respects .gitignore: ignored files (node_modules, build output, ...), binary files and version-control directories (.git, ...) are skipped, and paths print without "./". A grep -r whose only matches are in ignored files exits 1 ("no match").
- find is the bundled bfs, which reads no .gitignore and works like GNU find: it lists everything, node_modules, build output and .git included, with paths as you gave them (\`find .\` prints \`./src/a.ts\`). Prune what you do not want (\`find . -name node_modules -prune -o -name '*.ts' -print\`), or list tracked files with \`git ls-files '*.ts'\`.
- To search ignored files anyway: \`grep -r --no-ignore-files ...\`; binary files too: add \`-a\`; exactly as the system grep would: \`command grep -r ...\`. rg is the bundled ripgrep only when the system has no rg.
- xargs, timeout, env, find -exec and nested \`bash -c\`/\`zsh -c\` run the system grep, find and rg; that grep skips nothing.
- The user can turn this off with the \`shims\` setting; grep, find and rg are then always the system's.`;

export const BASH_DESCRIPTION = `Runs a shell command and returns its output (stdout and stderr interleaved, as printed) and its exit code.

How commands run:
- Each call starts a fresh, non-interactive bash (zsh when that is the user's shell; Git Bash on Windows) with plain \`-c\`: variables, functions and aliases do not carry over between calls, and profile/rc files are not loaded.
- stdin is empty (/dev/null): a command that waits for input gets end-of-file at once. Pass flags such as --yes/-y, and never start interactive programs (editors, pagers, REPLs, \`git rebase -i\`, \`git add -p\`). Pagers and git prompts are turned off.
- The working directory persists between calls when a \`cd\` stays inside the workspace or a directory the user added; the result then says "Shell working directory changed to <dir>". If a command ends outside them, the next command starts in the session's original directory again and the result says "Shell cwd was reset to <dir>". Prefer absolute paths; quote paths with spaces.

Output:
- Output arrives once, when the command ends. Past ${MAX_RESULT_CHARS} characters the middle is cut: you get the beginning and the end, plus the path of a file holding the full output (read it with Read using offset/limit, or grep/tail it).
- Write to stderr with \`>&2\`, not by path: \`tee /dev/stderr\` or \`> /dev/stdout\` reopen the output file and drop what was printed before.
- Processes a command leaves running (\`server &\`) do not delay the result; the result lists them, and they are stopped when the session ends. Use run_in_background instead of \`&\` for long-running work.

Timeouts and background tasks:
- timeout is in milliseconds: ${TIMEOUT_LIMITS_TEXT}. Give long builds and test runs a larger timeout.
- A foreground command that runs past its timeout is not killed: it moves to the background and keeps running, and the result gives its task ID and output file; you are notified when it completes. Only commands that start with \`sleep\` are stopped at the timeout.
- run_in_background: true starts a long-running command (dev server, watcher, long build) as a background task and returns at once with its task ID and the path of its output file, which grows while it runs (read it with Read). Background tasks have no timeout; you are notified when one ends, and TaskStop stops one (with every process it started).
- Do not poll with \`sleep\` loops; wait for the completion notice or read the output file.

Permission:
- The user may be asked to approve a command before it runs (give a clear description). A command that is not approved, or that a rule forbids, does not run at all: the result says why; do not retry it unchanged.
- Plain commands are approved most easily: reading commands (ls, cat, grep, rg, find, git status/log/diff/show) with literal arguments often need no approval, while code built at run time (eval, \`bash -c "$x"\`, arithmetic on variables read at run time), redirections to /dev/tcp, and writes to .git/, .vscode/, .claude/ and similar folders always need it.

${sandboxText("stop background tasks with TaskStop")}

${SEARCH_COMMANDS_TEXT}`;

const inputSchema = z.strictObject({
  command: osString("command").min(1, "command must be a non-empty string: the shell command to run").describe("The command to run"),
  timeout: z
    // Never mention the advertised maximum here: larger values are accepted (BASH-TO-4).
    .number({ error: `timeout must be a number of milliseconds, or left out for the default (${BASH_DEFAULT_TIMEOUT_MS})` })
    .min(0, { error: "timeout must not be negative: give a number of milliseconds, or leave it out for the default" })
    .optional()
    .describe(`Timeout in milliseconds: ${TIMEOUT_LIMITS_TEXT}. A command that runs longer moves to the background and keeps running (commands starting with sleep are stopped instead).`),
  description: z.string().optional().describe("A short description of what the command does, in 5-10 words (shown to the user)"),
  run_in_background: z.boolean().optional().describe("Run the command as a background task and return at once with its task ID and output file. No timeout applies."),
  dangerouslyDisableSandbox: DISABLE_SANDBOX_PARAMETER,
});

/** Exact texts of BASH-TO-6, BASH-BG-1 and BASH-BG-5. */
const autoBackgroundText = (timeoutMs: number, id: string, file: string) =>
  `Command exceeded the timeout (${formatSeconds(timeoutMs)}s) and was moved to the background with ID: ${id}. It is still running — you will be notified when it completes. Output is being written to: ${file}`;
const backgroundText = (id: string, file: string) => `Command running in background with ID: ${id}. Output is being written to: ${file}`;
const userBackgroundText = (id: string, file: string) => `Command was manually backgrounded by user with ID: ${id}. Output is being written to: ${file}`;

function formatSeconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

/** structuredContent of every Bash result (docs/user/bash.md, "Result fields"). */
export interface BashStructured {
  success: boolean;
  exitCode: number | null;
  signal: string | null;
  output: string;
  truncated: boolean;
  outputPath: string | null;
  outputBytes: number;
  backgroundTaskId: string | null;
  backgroundedByUser: boolean;
  assistantAutoBackgrounded: boolean;
  interrupted: boolean;
  timedOut: boolean;
  cwd: string;
  cwdChanged: boolean;
  cwdReset: boolean;
  survivors: Survivor[];
  durationMs: number;
  /** The command ran inside the OS sandbox. */
  sandboxed: boolean;
  [key: string]: unknown;
}

function structured(ctx: ToolContext, fields: Partial<BashStructured>): BashStructured {
  return {
    success: true,
    exitCode: null,
    signal: null,
    output: "",
    truncated: false,
    outputPath: null,
    outputBytes: 0,
    backgroundTaskId: null,
    backgroundedByUser: false,
    assistantAutoBackgrounded: false,
    interrupted: false,
    timedOut: false,
    cwd: ctx.session.cwd,
    cwdChanged: false,
    cwdReset: false,
    survivors: [],
    durationMs: 0,
    sandboxed: false,
    ...fields,
  };
}

function result(text: string, s: BashStructured): ToolResult {
  return { content: [{ type: "text", text }], structuredContent: s, isError: false };
}

/** A call that ended badly: the command did not start, was cancelled, or ran and failed (`kind` says which). */
function failed(text: string, s: BashStructured, kind: ToolErrorKind): ToolResult {
  return { content: [{ type: "text", text }], structuredContent: { ...s, errorKind: kind }, isError: true };
}

/** The command never ran: `error` says why. */
function failure(ctx: ToolContext, kind: ToolErrorKind, text: string): ToolResult {
  return failed(text, structured(ctx, { success: false, error: text }), kind);
}

/** What a command's own failure is (it ran): exit 127 and 126 have kinds of their own, and a signal. */
function commandFailureKind(status: { exitCode: number | null; signal: string | null }): ToolErrorKind {
  // The output is no evidence here (it interleaves stdout, where "out of memory" may be data): only the status counts.
  return explainEnding({ exitCode: status.exitCode, signal: status.signal, timedOut: false, timeoutMs: 0, stderrTail: "" })?.kind ?? "command_failed";
}

function survivorsLine(survivors: Survivor[], file: string): string {
  const list = survivors.map((s) => `${s.pid} ${s.command}`).join("; ");
  return `Still running after the shell exited (stopped when the session ends; their output keeps going to ${file}): ${list}`;
}

function bodyOf(summary: OutputSummary): string {
  const note = summary.binary ? "[the output contains binary data; non-text bytes are shown as \uFFFD]\n" : "";
  return note + summary.text;
}

function joinParts(body: string, notes: string[]): string {
  const main = body.length > 0 ? body.replace(/\n$/, "") : notes.length > 0 ? "" : "(no output)";
  if (notes.length === 0) return main;
  return main ? `${main}\n\n${notes.join("\n")}` : notes.join("\n");
}

export const bashTool = defineTool({
  name: "Bash",
  startsProcesses: true,
  description: BASH_DESCRIPTION,
  inputSchema,
  annotations: { title: "Run shell command", destructiveHint: true, openWorldHint: true },
  // The sandbox plan, made once per call: the permission check judges it, the command runs under it.
  prepare: (input, ctx) => sandboxPlan(input, ctx),
  // Checked by the runtime before anything starts: a denied command never spawns a process.
  permission(input, _ctx, plan) {
    if (plan.refusal) return undefined;
    return { tool: "Bash", command: input.command, ...(input.description ? { description: input.description } : {}), ...sandboxFields(plan) };
  },
  async run(input, ctx, plan) {
    if (plan.refusal) return failure(ctx, "sandbox_unavailable", plan.refusal);
    let started = false;
    const result = await runCommand(input, ctx, plan, () => (started = true));
    return started ? withSandboxOutcome(result, plan) : result;
  },
});

async function runCommand(input: z.output<typeof inputSchema>, ctx: ToolContext, plan: SandboxPlan, onStarted: () => void): Promise<ToolResult> {
  const runs = ctx.session.service(RUNS);
  const manager = ctx.session.service(TASKS);
  const notes: string[] = [];
  let cwdReset = false;

  // A directory deleted since the last command: start in the original one (BASH-CWD-2).
  const start = ctx.session.effectiveCwd();
  let cwd = start.cwd;
  if (start.resetFrom) {
    cwdReset = true;
    notes.push(`${cwdResetNotice(cwd)} (${start.resetFrom} no longer exists)`);
  }
  if (!isDirectory(cwd)) {
    const root = ctx.workspace.root;
    if (!isDirectory(root)) {
      return failure(
        ctx,
        "not_found",
        `Cannot run the command: neither the working directory ${cwd} nor the workspace root ${root} exists any more. Recreate the directory or restart the session with an existing root.`,
      );
    }
    ctx.session.setCwd(root, true);
    cwd = root;
    cwdReset = true;
    notes.push(`${cwdResetNotice(root)} (the session's original directory no longer exists)`);
  }

  const shims = ctx.workspace.setting("shims");
  const background = input.run_in_background === true;
  const taskId = background ? newTaskId() : undefined;
  // Ctrl+B may come before the shell exists (it waits for the login environment up to 8.4 s):
  // promise a task id now; the call answers with it the moment the command runs.
  let earlyBackgroundId: string | undefined;
  if (!background) ctx.setMoveToBackgroundHandler(() => (earlyBackgroundId ??= newTaskId()));
  let run: ShellRun;
  try {
    run = await runs.start({
      command: input.command,
      cwd,
      trackCwd: !background,
      shimsEnabled: shims,
      // What the permission check read of the command: no `cd` and no shimmed tool needs no start-up file.
      plain: !needsStartupFile(ctx.permission?.decision.commandNames),
      name: taskId,
      signal: ctx.signal,
      sandbox: plan,
    });
    onStarted();
  } catch (err) {
    ctx.setMoveToBackgroundHandler(undefined);
    if (err instanceof ShellNotFound) return failure(ctx, "shell_not_found", err.message);
    if (err instanceof SpawnFailed) return failure(ctx, spawnFailureKind(err.code ?? err.message), err.message);
    throw err;
  }

  if (background) {
    const task = manager.adopt(run, { origin: "background", description: input.description, taskId });
    return result(joinParts("", [backgroundText(task.taskId, task.outputPath), ...notes]), structured(ctx, { outputPath: task.outputPath, backgroundTaskId: task.taskId, cwdReset }));
  }

  // The tool window shows the output as it comes; the model gets it when the command ends.
  ctx.liveOutput({ outputPath: run.outputPath });
  const timeoutMs = input.timeout ?? BASH_DEFAULT_TIMEOUT_MS;
  const outcome = await awaitEnding<{ kind: "user"; task: TaskInfo }>(run, {
    timeoutMs,
    signal: ctx.signal,
    // Ctrl+B: the running command becomes a background task and the call answers at once.
    more: (settle, settled) => {
      const moveToBackground = (taskId?: string) => {
        if (settled() || !run.running) return undefined;
        try {
          const task = manager.adopt(run, { origin: "user", description: input.description, taskId });
          settle({ kind: "user", task });
          return task.taskId;
        } catch {
          return undefined;
        }
      };
      ctx.setMoveToBackgroundHandler(() => moveToBackground());
      if (earlyBackgroundId) moveToBackground(earlyBackgroundId);
      return () => ctx.setMoveToBackgroundHandler(undefined);
    },
  });

  switch (outcome.kind) {
    case "user":
      return result(
        joinParts("", [userBackgroundText(outcome.task.taskId, outcome.task.outputPath), ...notes]),
        structured(ctx, {
          outputPath: outcome.task.outputPath,
          backgroundTaskId: outcome.task.taskId,
          backgroundedByUser: true,
          cwdReset,
          durationMs: run.durationMs,
        }),
      );
    case "timeout":
      if (!startsWithSleep(input.command)) {
        try {
          const task = manager.adopt(run, { origin: "timeout", description: input.description });
          return result(
            joinParts("", [autoBackgroundText(timeoutMs, task.taskId, task.outputPath), ...notes]),
            structured(ctx, {
              outputPath: task.outputPath,
              backgroundTaskId: task.taskId,
              assistantAutoBackgrounded: true,
              timedOut: true,
              cwdReset,
              durationMs: run.durationMs,
            }),
          );
        } catch {
          // The session ended at the same moment: stop the command like a sleep.
        }
      }
      return finishStopped(ctx, runs, run, notes, cwdReset, {
        note: `Command exceeded the timeout (${formatSeconds(timeoutMs)}s) and was stopped (commands that start with sleep are not moved to the background).`,
        success: true,
        timedOut: true,
      });
    case "abort":
      return finishStopped(ctx, runs, run, notes, cwdReset, {
        note: `Command was aborted before it finished (${outcome.reason}); the output above is what it printed until then.`,
        success: false,
        interrupted: true,
      });
    case "exit":
      return finishExited(ctx, runs, run, notes, cwdReset);
  }
}

/** The shell exited on its own: output, exit status, survivors, cwd. */
async function finishExited(ctx: ToolContext, runs: SessionRuns, run: ShellRun, notes: string[], cwdReset: boolean): Promise<ToolResult> {
  const status = run.exitStatus!;
  const summary = readOutputSummary(run.outputPath);
  const survivors = await run.findSurvivors().catch(() => [] as Survivor[]);
  const sandboxNotes = [...sandboxGuard.ended(run, survivors.length > 0), ...run.takeSandboxNotes()];
  const cwd: CwdOutcome = applyEndedCwd(ctx.session, run.readCwd(), ctx.log);
  run.discardCwdFile();
  runs.runFinished(run, survivors.length > 0);

  const keepFile = summary.truncated || survivors.length > 0;
  if (!keepFile) removeFilesLater([run.outputPath]);
  const success = status.exitCode === 0;
  const tail: string[] = [];
  if (status.signal) tail.push(`Killed by ${status.signal}`);
  else if (status.exitCode !== 0) tail.push(`Exit code ${status.exitCode}`);
  if (survivors.length > 0) tail.push(survivorsLine(survivors, run.outputPath));
  if (cwd.notice) tail.push(cwd.notice);
  const diskFull = outputDiskFull(run.outputPath);
  if (diskFull) tail.push(diskFull);
  tail.push(...sandboxNotes, ...sandboxHints(summary.text, run));
  const text = joinParts(bodyOf(summary), [...tail, ...notes]);
  const fields = structured(ctx, {
    success,
    exitCode: status.exitCode,
    signal: status.signal,
    output: summary.text,
    truncated: summary.truncated,
    outputPath: keepFile ? run.outputPath : null,
    outputBytes: summary.totalBytes,
    cwd: ctx.session.cwd,
    cwdChanged: cwd.changed,
    cwdReset: cwdReset || cwd.reset,
    survivors,
    durationMs: run.durationMs,
  });
  return success ? result(text, fields) : failed(text, fields, diskFull ? "out_of_resources" : commandFailureKind(status));
}

/** The command was stopped (sleep timeout, cancel, session end): whole tree, then what it printed. */
async function finishStopped(
  ctx: ToolContext,
  runs: SessionRuns,
  run: ShellRun,
  notes: string[],
  cwdReset: boolean,
  how: { note: string; success: boolean; timedOut?: boolean; interrupted?: boolean },
): Promise<ToolResult> {
  await run.stop();
  const status = run.exitStatus ?? (await run.exited);
  const summary = readOutputSummary(run.outputPath);
  run.discardCwdFile();
  const sandboxNotes = [...sandboxGuard.ended(run, false), ...run.takeSandboxNotes()];
  runs.runFinished(run, false);
  if (!summary.truncated) removeFilesLater([run.outputPath]);
  const diskFull = outputDiskFull(run.outputPath);
  const text = joinParts(bodyOf(summary), [how.note, ...(diskFull ? [diskFull] : []), ...sandboxNotes, ...notes]);
  const fields = structured(ctx, {
    success: how.success,
    exitCode: status.exitCode,
    signal: status.signal,
    output: summary.text,
    truncated: summary.truncated,
    outputPath: summary.truncated ? run.outputPath : null,
    outputBytes: summary.totalBytes,
    interrupted: how.interrupted ?? false,
    timedOut: how.timedOut ?? false,
    cwdReset,
    durationMs: run.durationMs,
  });
  return how.success ? result(text, fields) : failed(text, fields, "aborted");
}
