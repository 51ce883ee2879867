// The contract every tool implements: a zod input schema (rendered to JSON Schema for agents), a
// model-facing description, and a run function that turns validated input into an MCP-shaped result.
import { z } from "zod";
import type { CallOrigin } from "../base/origin.js";
import type { Logger } from "../util/log.js";
import type { Session } from "../base/session.js";
import type { Workspace } from "../base/workspace.js";
import type { EventBus } from "../base/events.js";
import type { PermissionOutcome, PermissionRequest } from "../permissions/types.js";
import type { SandboxService } from "../shell/sandbox/service.js";
import { commandLengthProblem } from "../shell/invocation.js";
import { hostPlatform } from "../util/platform.js";
import type { ToolErrorKind } from "../base/toolErrors.js";

export type { ToolErrorKind } from "../base/toolErrors.js";

export type TextContent = { type: "text"; text: string };
export type ImageContent = { type: "image"; data: string; mimeType: string };
export type ToolContent = TextContent | ImageContent;

/** A call that did what was asked (a command that ran and exited 0, a file read, a search, ...). */
export interface ToolSuccess {
  content: ToolContent[];
  structuredContent: Record<string, unknown>;
  isError: false;
}

/** What every error result's structuredContent holds: the kind code decides from, and the text. */
export interface ErrorFields {
  errorKind: ToolErrorKind;
  /** The message. Left out only by a Bash command that ran and failed: its output and exit code say it. */
  error?: string;
  [key: string]: unknown;
}

/**
 * A failed call. The type makes the kind mandatory: a result with `isError: true` and no
 * `errorKind` does not compile (node-core/PROTOCOL.md, "Error kinds").
 */
export interface ToolFailure {
  content: ToolContent[];
  structuredContent: ErrorFields;
  isError: true;
}

export type ToolResult = ToolSuccess | ToolFailure;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ProgressUpdate {
  message?: string;
  progress?: number;
  total?: number;
}

export interface ToolContext {
  readonly callId: string;
  readonly session: Session;
  readonly workspace: Workspace;
  readonly events: EventBus;
  /** The core's OS sandbox: how shell commands of this call run. */
  readonly sandbox: SandboxService;
  readonly origin: CallOrigin;
  /** Aborted when the caller cancels the call, the session is disposed or the core shuts down. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Reports progress to whoever is listening (host notification or MCP progress). */
  progress(update: ProgressUpdate): void;
  /**
   * Tells the host where the running command writes its output (the files exist from now on and
   * grow as it prints). Only the host hears it — never an MCP client, so the model still gets the
   * output once, when the command ends (BASH-FG-3).
   */
  liveOutput(files: { outputPath: string; stderrPath?: string }): void;
  /**
   * Lets the host move this call to the background (Ctrl+B). The handler must make the pending
   * call resolve promptly; it returns the task id it handed the work to.
   */
  setMoveToBackgroundHandler(handler: (() => string | undefined) | undefined): void;
  /**
   * Asks the permission layer (and, when it must, the person behind this call) whether this call
   * may run a command or write a path. Tools that declare `permission` are checked before `run`;
   * this is for checks that only become known while running.
   */
  checkPermission(request: PermissionRequest): Promise<PermissionOutcome>;
  /**
   * The check the runtime made before `run` for the tool's declared `permission`: what was
   * approved (a writer binds itself to the path that was judged).
   */
  permission?: PermissionOutcome;
}

/**
 * A tool. `P` is what `prepare` makes of one call (nothing for a tool without it): the
 * runtime calls `prepare` once per call and hands its value to `permission` and to `run`, so
 * what the check judged (a resolved directory, a sandbox plan) is what the run uses, with no
 * state kept beside the call.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType, P = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: S;
  readonly annotations?: ToolAnnotations;
  /**
   * The call's own facts, worked out once before the permission check: where it runs, whether
   * its command parses, the sandbox plan it runs under. Expected failures belong in the value
   * (`run` turns them into its error result); a throw is an internal error of the call.
   */
  prepare?(input: z.output<S>, ctx: ToolContext): P | Promise<P>;
  /**
   * What this call needs permission for (a command, or a file outside the allowed directories);
   * undefined when nothing. The runtime checks it before `run`, so a denied call never starts.
   */
  permission?(input: z.output<S>, ctx: ToolContext, prepared: P): PermissionRequest | undefined | Promise<PermissionRequest | undefined>;
  /**
   * Starts child processes (a shell, ripgrep), which wait for the login shell's environment
   * (BASH-ENV-7's bounded wait): when that wait held the call up long, the runtime says so in the
   * result.
   */
  readonly startsProcesses?: boolean;
  run(input: z.output<S>, ctx: ToolContext, prepared: P): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodType, P = unknown>(def: ToolDefinition<S, P>): ToolDefinition<S, P> {
  return def;
}

const NUL_ADVICE = {
  path: "which no file or directory name can hold. Remove it and retry.",
  command: "which cannot be passed to a shell. Remove it; to produce a NUL byte, let the command write one (printf '\\0').",
  pattern: "which cannot be passed to the search. Remove it; to match a NUL byte in a Grep pattern, write \\x00.",
} as const;

/**
 * A string a tool hands to the operating system: a path, a command, or a search argument. A NUL
 * character cannot get there (system calls end strings at it), so every such field refuses it at
 * validation, with what to do, instead of failing deep inside with Node's own wording.
 */
export function osString(kind: keyof typeof NUL_ADVICE): z.ZodString {
  const s = z.string().refine((v) => !v.includes("\0"), { message: `contains a NUL character (\\0), ${NUL_ADVICE[kind]}` });
  if (kind === "command") {
    return s.superRefine((v, issue) => {
      const problem = commandLengthProblem(v, hostPlatform().name);
      if (problem) issue.addIssue({ code: "custom", message: problem });
    });
  }
  return kind === "path" ? s.max(MAX_PATH_CHARS, `is longer than ${MAX_PATH_CHARS} characters, more than a file system accepts in a path. Check the path.`) : s;
}

/**
 * Longer paths exist on no file system we run on (PATH_MAX is 4096 on Linux, 1024 on macOS), and
 * every file tool repeats its path in the result: the limit keeps results bounded too.
 */
export const MAX_PATH_CHARS = 4096;

export function textResult(text: string, structuredContent: Record<string, unknown> = {}): ToolSuccess {
  return { content: [{ type: "text", text }], structuredContent, isError: false };
}

/**
 * A failed call the model should read: say what went wrong and what to do next. `kind` is what a
 * host or an agent decides from (base/toolErrors.ts); the text is what they read.
 */
export function errorResult(kind: ToolErrorKind, text: string, structuredContent: Record<string, unknown> = {}): ToolFailure {
  return { content: [{ type: "text", text }], structuredContent: { ...structuredContent, error: text, errorKind: kind }, isError: true };
}

/**
 * The result with other content and more structured fields (sandbox notes, task notices): a
 * success stays a success, an error keeps its text and its kind whatever `fields` holds.
 */
export function amendResult(result: ToolResult, content: ToolContent[], fields: Record<string, unknown>): ToolResult {
  if (!result.isError) return { content, structuredContent: { ...result.structuredContent, ...fields }, isError: false };
  const s = result.structuredContent;
  return { content, structuredContent: { ...s, ...fields, error: s.error, errorKind: s.errorKind }, isError: true };
}

/** Joins the text parts of a result (images are described, not dumped). */
export function resultText(result: ToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}, ${Math.round((c.data.length * 3) / 4)} bytes]`)).join("\n");
}
