// The tool table: JSON Schemas rendered once from the zod schemas, and argument validation that
// reports every problem with its path.
import { z } from "zod";
import type { ToolAnnotations, ToolDefinition } from "./tool.js";
import { clipText, closestName } from "../util/text.js";

const MAX_ISSUES = 10;

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotations;
}

export interface ArgumentIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

export class InvalidToolArguments extends Error {
  constructor(
    readonly tool: string,
    readonly issues: ArgumentIssue[],
  ) {
    super(`Invalid arguments for ${tool}: ${issues.map(formatIssue).join("; ")}`);
    this.name = "InvalidToolArguments";
  }
}

export class UnknownTool extends Error {
  /** The tool the caller most likely meant (`bash` → `Bash`), when one is close. */
  readonly suggestion: string | undefined;

  constructor(
    readonly tool: string,
    readonly available: string[],
  ) {
    const suggestion = closestName(tool, available);
    const shown = clipText(tool, 200);
    const meant = !suggestion ? "" : suggestion.toLowerCase() === tool.toLowerCase() ? ` Did you mean ${suggestion}? Tool names are case-sensitive.` : ` Did you mean ${suggestion}?`;
    super(`Unknown tool "${shown}".${meant} Available tools: ${available.join(", ")}.`);
    this.name = "UnknownTool";
    this.suggestion = suggestion;
  }
}

function formatIssue(issue: ArgumentIssue): string {
  const where = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
  return `${where}: ${issue.message}`;
}

/** zod's "expected string, received undefined" said as what it is: a required argument left out. */
function missingArgument(issue: { code?: string; input?: unknown; expected?: unknown }): string | undefined {
  if (issue.code !== "invalid_type" || issue.input !== undefined || typeof issue.expected !== "string") return undefined;
  const what = issue.expected === "array" || issue.expected === "object" ? `an ${issue.expected}` : `a ${issue.expected}`;
  return `missing (required: ${what})`;
}

export function renderInputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

export class ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();
  private listed: ListedTool[] | undefined;
  private listedResult: { tools: ListedTool[] } | undefined;

  constructor(tools: readonly ToolDefinition[]) {
    for (const t of tools) {
      if (this.byName.has(t.name)) throw new Error(`duplicate tool ${t.name}`);
      this.byName.set(t.name, t);
    }
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  get(name: string): ToolDefinition {
    const tool = this.byName.get(name);
    if (!tool) throw new UnknownTool(name, this.names());
    return tool;
  }

  /** Tool list as MCP `tools/list` shapes it. Rendered on first use, then cached. */
  list(): ListedTool[] {
    this.listed ??= [...this.byName.values()].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: renderInputSchema(t.inputSchema),
      ...(t.annotations ? { annotations: t.annotations } : {}),
    }));
    return this.listed;
  }

  /** `{tools: list()}`: the same object every time (protocol/ serialises it once). */
  listResult(): { tools: ListedTool[] } {
    this.listedResult ??= Object.freeze({ tools: this.list() });
    return this.listedResult;
  }

  validate(tool: ToolDefinition, args: unknown): unknown {
    const parsed = tool.inputSchema.safeParse(args ?? {}, { error: missingArgument });
    if (parsed.success) return parsed.data;
    // An issue can quote the input (an unknown key's name): a few, each bounded, say enough.
    const issues = parsed.error.issues.slice(0, MAX_ISSUES).map((i) => ({
      path: i.path.slice(0, 10).map((p) => (typeof p === "number" ? p : clipText(String(p), 200))),
      message: clipText(i.message, 500),
      code: i.code,
    }));
    if (parsed.error.issues.length > MAX_ISSUES) {
      issues.push({ path: [], message: `and ${parsed.error.issues.length - MAX_ISSUES} more problems`, code: "custom" });
    }
    throw new InvalidToolArguments(tool.name, issues);
  }
}
