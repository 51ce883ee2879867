import type { ToolDefinition } from "../core/tool.js";
import { bashTool } from "./bash.js";
import { readTool } from "./read.js";
import { taskStopTool } from "./taskStop.js";

/** Every tool the core serves, in the order tools/list presents them. */
export const allTools: readonly ToolDefinition[] = [bashTool as ToolDefinition, taskStopTool as ToolDefinition, readTool as ToolDefinition];
