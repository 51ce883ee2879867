// Host methods for the tool window's task list (PROTOCOL.md: tasks/list, tasks/stop).
import { z } from "zod";
import { taskInfoSchema } from "../wire.js";
import { defineHostMethod } from "../hostMethod.js";
import { ErrorCode, RpcError } from "../jsonrpc.js";
import { findTaskManager, listTasks } from "../../tasks/manager.js";

const tasksList = defineHostMethod({
  name: "tasks/list",
  params: z.object({ sessionId: z.string().min(1).optional() }),
  result: z.strictObject({ tasks: z.array(taskInfoSchema) }),
  handle: (p, { core }) => {
    const sessions = p.sessionId ? [core.sessions.get(p.sessionId)] : core.sessions.list();
    if (p.sessionId && !sessions[0]) throw new RpcError(ErrorCode.InvalidParams, `Unknown session "${p.sessionId}".`, { sessionId: p.sessionId });
    return { tasks: listTasks(sessions.filter((s) => s !== undefined)) };
  },
});

const tasksStop = defineHostMethod({
  name: "tasks/stop",
  params: z.object({ taskId: z.string().min(1) }),
  result: z.union([z.strictObject({ stopped: z.literal(true), task: taskInfoSchema }), z.strictObject({ stopped: z.literal(false), message: z.string(), task: taskInfoSchema })]),
  handle: async (p, { core }) => {
    const manager = findTaskManager(core.sessions.list(), p.taskId);
    const outcome = await manager?.stop(p.taskId, "host");
    if (!outcome) {
      throw new RpcError(ErrorCode.InvalidParams, `No such task "${p.taskId}". tasks/list shows the tasks this core knows.`, { taskId: p.taskId });
    }
    if (outcome.stopped) return { stopped: true as const, task: outcome.task };
    const t = outcome.task;
    const how = t.signal ? `was killed by ${t.signal}` : t.exitCode === null ? "could not start" : `already exited with code ${t.exitCode}`;
    return {
      stopped: false as const,
      message: `Task ${t.taskId} ${how}.${outcome.stoppedSurvivors?.length ? ` Stopped ${outcome.stoppedSurvivors.length} process(es) it had left running.` : ""}`,
      task: t,
    };
  },
});

export const taskHostMethods = [tasksList, tasksStop];
