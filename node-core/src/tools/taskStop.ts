// TaskStop (formerly KillBash): stops a background task and every process it started (BASH-BG-4).
import { z } from "zod";
import type { Session } from "../base/session.js";
import { defineTool, errorResult, textResult } from "../core/tool.js";
import { TASKS, findTaskManager, type TaskInfo } from "../tasks/manager.js";
import { ECHOED_TASK_CHARS as ECHOED_CHARS, taskSummary } from "../tasks/notices.js";
import { clipText } from "../util/text.js";

const TASK_STOP_DESCRIPTION = `Stops a background task started by Bash — with run_in_background, moved to the background when it ran past its timeout, or moved there by the user — together with every process it started (the whole process tree). Give the task ID from the Bash result. Stopping a task that has already finished tells you how it ended.`;

const inputSchema = z
  .strictObject({
    task_id: z.string().min(1).optional().describe("The ID of the background task to stop (from the Bash result)"),
    shell_id: z.string().min(1).optional().describe("Deprecated: use task_id"),
  })
  .refine((v) => v.task_id !== undefined || v.shell_id !== undefined, {
    error: "task_id is required: the ID of the background task to stop, as given in the Bash result",
    path: ["task_id"],
  });

/** How a task that had already ended did so, to follow "had already": "exited with code 3". */
function ending(task: TaskInfo): string {
  if (task.signal) return `ended: it was killed by ${task.signal}`;
  if (task.exitCode === null) return "ended without an exit code (it could not start)";
  return `exited with code ${task.exitCode}`;
}

function summary(task: TaskInfo) {
  const shown = taskSummary(task);
  return { ...shown, task: { ...task, command: shown.command } };
}

export const taskStopTool = defineTool({
  name: "TaskStop",
  description: TASK_STOP_DESCRIPTION,
  inputSchema,
  annotations: { title: "Stop background task", destructiveHint: true },
  async run(input, ctx) {
    const taskId = (input.task_id ?? input.shell_id)!;
    const own = ctx.session.peekService(TASKS);
    const manager = own?.get(taskId) ? own : findTaskManager(sessionTree(ctx.session), taskId);
    const outcome = await manager?.stop(taskId, "agent");
    if (!outcome) {
      return errorResult(
        "unknown_task",
        `No such task: "${clipText(taskId, ECHOED_CHARS)}". Task IDs come from Bash results ("Command running in background with ID: …"); a task is forgotten when its session ends.`,
        { taskId: clipText(taskId, ECHOED_CHARS), stopped: false },
      );
    }
    const { task } = outcome;
    if (outcome.stopped) {
      const shown = summary(task);
      return textResult(`Stopped task ${task.taskId} (${shown.command}) and every process it started. Its output is in ${task.outputPath}`, { stopped: true, ...shown });
    }
    let text = `Task ${task.taskId} had already ${ending(task)}; there was nothing to stop. Output: ${task.outputPath}`;
    if (outcome.stoppedSurvivors?.length) {
      text += `\nStopped the processes it had left running: ${outcome.stoppedSurvivors.map((s) => `${s.pid} ${clipText(s.command, ECHOED_CHARS)}`).join("; ")}`;
    }
    return textResult(text, { stopped: false, ...summary(task), stoppedSurvivors: outcome.stoppedSurvivors ?? [] });
  },
});

/** The caller's whole session tree (its root and every descendant): the sessions of one agent run. */
function sessionTree(session: Session): Session[] {
  let root = session;
  while (root.parent) root = root.parent;
  const out: Session[] = [];
  const walk = (s: Session) => {
    out.push(s);
    for (const c of s.children) walk(c);
  };
  walk(root);
  return out;
}
