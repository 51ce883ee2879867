// How a finished background task reaches an agent that has no host to tell it: MCP clients and
// the one-shot CLI get this short notice appended to the session's next tool result (startup.ts).
import { clipText } from "../util/text.js";
import type { TaskInfo } from "./manager.js";

const MAX_COMMAND_CHARS = 120;

function shortCommand(command: string): string {
  const one = command.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return one.length > MAX_COMMAND_CHARS ? one.slice(0, MAX_COMMAND_CHARS) + "…" : one;
}

/** One line per task, e.g. `Background task b1x2y3 completed (exit code 0): npm test. Output: /tmp/…/b1x2y3.log`. */
export function formatTaskNotice(task: TaskInfo): string {
  let what: string;
  if (task.status === "killed") what = "was stopped by the user";
  else if (task.signal) what = `was killed by ${task.signal}`;
  else if (task.exitCode === null) what = "failed to start";
  else what = `${task.status} (exit code ${task.exitCode})`;
  let line = `Background task ${task.taskId} ${what}: ${shortCommand(task.command)}. Output: ${task.outputPath}`;
  if (task.survivors.length > 0) {
    line += `. Still running after it ended: ${task.survivors.map((s) => `${s.pid} (${shortCommand(s.command)})`).join(", ")}`;
  }
  return line;
}

/** How much of a task's command, or of a task id, a result or message repeats. */
export const ECHOED_TASK_CHARS = 500;

/** The fields an agent needs about a task's end (TaskStop's result, the `tasks` log message). */
export function taskSummary(task: TaskInfo) {
  return {
    taskId: task.taskId,
    status: task.status,
    exitCode: task.exitCode,
    signal: task.signal,
    outputPath: task.outputPath,
    command: clipText(task.command, ECHOED_TASK_CHARS),
  };
}

export function formatTaskNotices(tasks: TaskInfo[]): string {
  return `<task-notifications>\n${tasks.map(formatTaskNotice).join("\n")}\n</task-notifications>`;
}
