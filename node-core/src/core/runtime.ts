// The core itself, independent of transport: workspace, sessions, tools, in-flight calls and
// events. The host protocol server, the MCP server and the one-shot CLI all drive this object.
import { randomBytes } from "node:crypto";
import { createLogger } from "../util/log.js";
import { clipText } from "../util/text.js";
import { Services } from "../base/services.js";
import { EventBus } from "../base/events.js";
import { ToolRegistry } from "./registry.js";
import { SessionManager, type Session } from "../base/session.js";
import type { CallOrigin } from "../base/origin.js";
import { describeProbeWait, startProbeWaitClock } from "../env/index.js";
import { amendResult, errorResult, type ProgressUpdate, type ToolContext, type ToolDefinition, type ToolResult } from "./tool.js";
import { Workspace } from "../base/workspace.js";
import { PermissionService, warningsForResult, type ParsedPolicy } from "../permissions/service.js";
import { SandboxService } from "../shell/sandbox/service.js";
import type { SandboxCliOptions } from "../shell/sandbox/settings.js";
import type { PermissionAsker } from "../permissions/types.js";
import { summarizeResult, type ToolCallSummary } from "./callSummary.js";
import { DEFAULT_FINISHED_RESULT_LIMITS, FinishedResults, type FinishedResultLimits } from "./finishedResults.js";

const log = createLogger("core");

export interface CallRequest {
  name: string;
  arguments: unknown;
  sessionId?: string;
  /** Chosen by the caller so it can refer to the call (move to background) before it starts. */
  callId?: string;
  origin: CallOrigin;
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** The caller's channel for permission questions; without one the permission mode decides. */
  asker?: PermissionAsker;
}

export interface InFlightCall {
  callId: string;
  sessionId: string;
  name: string;
  arguments: Record<string, unknown>;
  startedAt: number;
  moveToBackground?: () => string | undefined;
  /** True while the call waits for its permission check (possibly the user's answer). */
  awaitingPermission?: boolean;
  /** Aborts the call as its caller's cancellation would; the caller still gets the aborted result. */
  cancel: (reason: string) => void;
}

export type ResultHook = (result: ToolResult, call: { session: Session; origin: CallOrigin; name: string }) => ToolResult;

export class UnknownSession extends Error {
  constructor(readonly sessionId: string) {
    super(`Unknown session "${sessionId}". Create it with sessions/create, or omit sessionId to use the main session.`);
    this.name = "UnknownSession";
  }
}

export class DuplicateCallId extends Error {
  constructor(readonly callId: string) {
    super(`A call with id "${callId}" is already running; call ids must be unique.`);
    this.name = "DuplicateCallId";
  }
}

export class WaveCore {
  readonly events = new EventBus();
  readonly workspace: Workspace;
  readonly sessions: SessionManager;
  readonly registry: ToolRegistry;
  readonly permissions: PermissionService;
  /** The OS sandbox shell commands run in (how each command runs, the status hosts see). */
  readonly sandbox: SandboxService;
  /** What this core owns beside its sessions (the shell engine, ...); disposed last at shutdown. */
  readonly services = new Services<void>(undefined, "The core");
  private readonly calls = new Map<string, InFlightCall>();
  /** Whole results of finished calls, for `calls/result`; only while a host may ask for them. */
  private finished: FinishedResults | undefined;
  private nextCall = 1;
  private readonly callPrefix = randomBytes(3).toString("hex");
  private shuttingDown: Promise<void> | undefined;

  constructor(opts: { root: string; additionalDirectories?: string[]; tools: readonly ToolDefinition[]; permissions?: ParsedPolicy; sandbox?: SandboxCliOptions }) {
    this.workspace = new Workspace(opts.root, opts.additionalDirectories);
    this.sessions = new SessionManager(this.workspace, this.events, this.services);
    this.registry = new ToolRegistry(opts.tools);
    this.sandbox = new SandboxService({
      workspace: this.workspace,
      events: this.events,
      cli: opts.sandbox,
      permissionMode: () => this.permissions.effectiveMode(),
    });
    this.permissions = new PermissionService({ workspace: this.workspace, sessions: this.sessions, events: this.events }, opts.permissions);
    this.onShutdown(() => this.sandbox.dispose());
  }

  session(id: string | undefined): Session {
    const s = this.sessions.get(id);
    if (!s) throw new UnknownSession(id ?? "main");
    return s;
  }

  inFlightCalls(): InFlightCall[] {
    return [...this.calls.values()];
  }

  /** Asks a running call to continue in the background. Returns its task id, or undefined if it cannot. */
  moveToBackground(callId: string): string | undefined {
    const call = this.calls.get(callId);
    return call?.moveToBackground?.();
  }

  /**
   * Keeps the whole results of finished calls (the last `maxResults`, at most `maxBytes`) for
   * `finishedResult`: the host protocol turns this on, since `tool/finished` tells a host only a
   * summary. The MCP server and the one-shot CLI answer their caller and keep nothing.
   */
  keepFinishedResults(limits: FinishedResultLimits = DEFAULT_FINISHED_RESULT_LIMITS): void {
    if (this.finished) return;
    const store = new FinishedResults(limits);
    this.finished = store;
    this.events.subscribe((method, params) => {
      if (method === "session/disposed" && typeof params.sessionId === "string") store.dropSession(params.sessionId);
    });
  }

  /** A finished call's whole result while it is kept; undefined when unknown, not kept or dropped. */
  finishedResult(callId: string): ToolResult | undefined {
    return this.finished?.get(callId);
  }

  /** What `keepFinishedResults` keeps; undefined while nothing is kept. */
  get finishedResultLimits(): FinishedResultLimits | undefined {
    return this.finished?.limits;
  }

  /** Whether a call with this id runs now (its result is not there yet). */
  isRunning(callId: string): boolean {
    return this.calls.has(callId);
  }

  /**
   * Stops a running call from outside its caller (the host's Stop on an agent's call). The call
   * answers its caller with the aborted result. False when no such call runs.
   */
  cancelCall(callId: string, reason = "stopped by the user"): boolean {
    const call = this.calls.get(callId);
    if (!call) return false;
    call.cancel(reason);
    return true;
  }

  /**
   * Validates and runs one tool call. Throws UnknownTool, InvalidToolArguments, UnknownSession or
   * DuplicateCallId for caller errors (each transport maps them); tool failures come back as
   * `isError` results.
   *
   * The steps, numbered as the code below marks them:
   *  1. Wait for a starting core's sandbox check, so that from `tool/started` on the call's own
   *     steps are as quick as without a sandbox (an early Ctrl+B finds its handler).
   *  2. Validate: the tool, its arguments against the schema, the session, a free call id. A
   *     caller error throws here; nothing has been announced.
   *  3. Announce: the call is in flight (calls/list, cancel, move to background) and
   *     `tool/started` goes out. From here on the call ends with a result, never a throw.
   *  4. Prepare: the tool's `prepare` works out the call's facts once (its directory, whether the
   *     command parses, its sandbox plan). That one value goes to steps 5 and 6.
   *  5. Permission: the tool's `permission` says from the input and the prepared value what the
   *     call needs; the permission layer decides, asking the person behind the call when it must.
   *     A refusal is the call's result and nothing runs.
   *  6. Run: the tool's `run` with the same prepared value and the approved outcome
   *     (`ctx.permission`); a tool that starts processes is told when the login environment held
   *     it up.
   *  7. Settle: an abort or a throw in steps 4-6 becomes the aborted or internal-error result; the
   *     call leaves the in-flight table and stops listening for its caller's and session's end.
   *  8. Amend: the result hooks (background-task notices, ...) shape the result.
   *  9. Finish: the result is kept for `calls/result` and `tool/finished` goes out.
   */
  async callTool(req: CallRequest): Promise<ToolResult> {
    // 1. Wait for a starting core's sandbox check.
    await this.sandbox.whenChecked();

    // 2. Validate.
    const tool = this.registry.get(req.name);
    const input = this.registry.validate(tool, req.arguments);
    const session = this.session(req.sessionId);
    const callId = req.callId ?? `${this.callPrefix}-${this.nextCall++}`;
    if (this.calls.has(callId)) throw new DuplicateCallId(callId);

    // 3. Announce.
    const controller = new AbortController();
    const abort = (reason: unknown) => controller.abort(reason);
    const onCallerAbort = () => abort(req.signal?.reason ?? new Error("cancelled"));
    const onSessionAbort = () => abort(new Error(`session ${session.id} ended`));
    if (req.signal?.aborted) onCallerAbort();
    req.signal?.addEventListener("abort", onCallerAbort, { once: true });
    session.signal.addEventListener("abort", onSessionAbort, { once: true });

    const args = shownArguments((req.arguments ?? {}) as Record<string, unknown>);
    const call: InFlightCall = {
      callId,
      sessionId: session.id,
      name: tool.name,
      arguments: args,
      startedAt: Date.now(),
      cancel: (reason) => abort(new Error(reason)),
    };
    this.calls.set(callId, call);
    this.events.emit("tool/started", {
      callId,
      sessionId: session.id,
      name: tool.name,
      arguments: args,
      startedAt: new Date(call.startedAt).toISOString(),
    });

    let result: ToolResult;
    try {
      const ctx = this.toolContext(req, call, session, controller.signal);

      // 4. Prepare.
      const prepared = await tool.prepare?.(input, ctx);

      // 5. Permission.
      const needed = await tool.permission?.(input, ctx, prepared);
      if (needed) {
        call.awaitingPermission = true;
        try {
          ctx.permission = await ctx.checkPermission(needed);
        } finally {
          call.awaitingPermission = false;
        }
      }
      const permission = ctx.permission;
      if (permission && !permission.allowed) {
        result = errorResult(controller.signal.aborted ? "aborted" : permission.asked ? "denied_by_user" : "denied_by_policy", permission.message, {
          warnings: warningsForResult(permission.decision.warnings),
          ...(controller.signal.aborted ? { interrupted: true } : {}),
        });
      } else {
        // 6. Run. The tool waits for the login environment itself (childEnvironment) and may be
        // moved to the background meanwhile; this only times that wait.
        const waited = tool.startsProcesses ? startProbeWaitClock() : undefined;
        result = await tool.run(input, ctx, prepared);
        const wait = waited?.();
        const note = describeProbeWait(wait);
        if (note && wait) {
          result = amendResult(result, [...result.content, { type: "text", text: note }], {
            loginEnvironment: { waitedMs: Math.round(wait.waitedMs), state: wait.status.state },
          });
        }
      }
    } catch (err) {
      // 7. Settle: an abort or a throw is the call's result.
      if (controller.signal.aborted) {
        const why = (controller.signal.reason as Error | undefined)?.message ?? "cancelled";
        result = errorResult("aborted", `The ${tool.name} call was aborted before it finished (${why}).`, { interrupted: true });
      } else {
        log.error("tool threw", { tool: tool.name, callId, error: err });
        result = errorResult(
          "internal_error",
          `Internal error in ${tool.name}: ${clipText((err as Error)?.message ?? String(err), 2000)}. This is a bug in wave-core; the call had no effect beyond what its output shows. Retry, or report it with the core's log.`,
        );
      }
    } finally {
      // 7. Settle: the call is no longer in flight.
      this.calls.delete(callId);
      req.signal?.removeEventListener("abort", onCallerAbort);
      session.signal.removeEventListener("abort", onSessionAbort);
    }

    // 8. Amend.
    for (const hook of this.resultHooks) {
      try {
        result = hook(result, { session, origin: req.origin, name: tool.name });
      } catch (err) {
        log.error("a result hook failed", { tool: tool.name, callId, error: err });
      }
    }

    // 9. Finish. Serialising a result (megabytes for an image) is work only a host reads the
    // outcome of: the size and the summary are computed when the store or a listener first asks, once.
    const done = result;
    let json: string | undefined;
    let bytes: number | undefined;
    const resultJson = () => (json ??= JSON.stringify(done));
    const resultBytes = () => (bytes ??= Buffer.byteLength(resultJson(), "utf8"));
    // A session that ended while its call finished keeps nothing: its results were dropped with it.
    if (this.finished && !session.disposed) this.finished.keep(callId, session.id, resultJson(), resultBytes());
    let summary: ToolCallSummary | undefined;
    this.events.emit("tool/finished", {
      callId,
      sessionId: session.id,
      name: tool.name,
      isError: result.isError,
      durationMs: Date.now() - call.startedAt,
      get summary() {
        return (summary ??= summarizeResult(done, resultBytes()));
      },
    });
    return result;
  }

  /** What a tool sees of its call: the session, the core's services, and the call's channels. */
  private toolContext(req: CallRequest, call: InFlightCall, session: Session, signal: AbortSignal): ToolContext {
    const { callId } = call;
    return {
      callId,
      session,
      workspace: this.workspace,
      events: this.events,
      sandbox: this.sandbox,
      origin: req.origin,
      signal,
      log: createLogger(`tool:${call.name}`),
      progress: (update) => {
        this.events.emit("tool/progress", { callId, sessionId: session.id, ...update });
        req.onProgress?.(update);
      },
      liveOutput: (files) => {
        this.events.emit("tool/output", { callId, sessionId: session.id, ...files });
      },
      setMoveToBackgroundHandler: (handler) => {
        call.moveToBackground = handler;
      },
      checkPermission: (request) => this.permissions.check({ ...request, sessionId: session.id }, { signal, asker: req.asker, callId, origin: req.origin }),
    };
  }

  /** Stops every process tree and disposes every session. Safe to call more than once. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      await runShutdownHooks(this.shutdownStartHooks);
      await this.sessions.disposeAll();
      await runShutdownHooks(this.shutdownHooks.reverse());
      await this.services.dispose();
    })();
    return this.shuttingDown;
  }

  private readonly shutdownHooks: Array<() => Promise<void> | void> = [];
  private readonly shutdownStartHooks: Array<() => Promise<void> | void> = [];
  private readonly resultHooks: ResultHook[] = [];

  /** Lets a concern amend every tool result before it is returned (e.g. background-task notices). */
  addResultHook(hook: ResultHook): void {
    this.resultHooks.push(hook);
  }

  /** Runs first when the core shuts down, before any session ends (e.g. to stop taking new clients). */
  onShutdownStart(hook: () => Promise<void> | void): void {
    this.shutdownStartHooks.push(hook);
  }

  /** Runs after all sessions are disposed (e.g. to stop a watchdog). */
  onShutdown(hook: () => Promise<void> | void): void {
    this.shutdownHooks.push(hook);
  }
}

/** String arguments longer than this are cut where the host is shown a call (PROTOCOL.md "tool/started"). */
export const SHOWN_ARGUMENT_CHARS = 4096;

/**
 * A call's arguments as `tool/started` and `calls/list` show them: a Write's 2 MB `content` would
 * cost the host (and the pipe) as much as the write itself, and the host shows a call by its path,
 * pattern or command, so long strings are cut, saying how much is left out.
 */
function shownArguments(args: Record<string, unknown>): Record<string, unknown> {
  let shown: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === "string" && value.length > SHOWN_ARGUMENT_CHARS) {
      shown ??= { ...args };
      shown[key] = clipText(value, SHOWN_ARGUMENT_CHARS);
    }
  }
  return shown ?? args;
}

/** Runs each hook in turn; one that fails is logged and the next still runs. */
async function runShutdownHooks(hooks: ReadonlyArray<() => Promise<void> | void>): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook();
    } catch (err) {
      log.error("shutdown hook failed", { error: err });
    }
  }
}
