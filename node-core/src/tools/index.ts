import type { ToolDefinition } from "../core/tool.js";
import { readTool } from "./read.js";

/** Every tool the core serves, in the order tools/list presents them. */
export const allTools: readonly ToolDefinition[] = [readTool as ToolDefinition];
