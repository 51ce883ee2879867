import type { ToolDefinition } from "../core/tool.js";
import { bashTool } from "./bash.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { readTool } from "./read.js";
import { runShellCommandTool } from "./runShellCommand.js";
import { taskStopTool } from "./taskStop.js";
import { writeTool } from "./write.js";

/** Every tool the core serves, in the order tools/list presents them. */
export const allTools: readonly ToolDefinition[] = [
  bashTool as ToolDefinition,
  taskStopTool as ToolDefinition,
  readTool as ToolDefinition,
  editTool as ToolDefinition,
  writeTool as ToolDefinition,
  globTool as ToolDefinition,
  grepTool as ToolDefinition,
  runShellCommandTool as ToolDefinition,
];
