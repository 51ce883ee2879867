// Core → host events. The host protocol forwards each one as a JSON-RPC notification of the same
// name; the MCP server forwards the few an MCP client understands.
export interface CoreEventMap {
  "tool/started": {
    callId: string;
    sessionId: string;
    name: string;
    arguments: Record<string, unknown>;
    startedAt: string;
  };
  "tool/finished": {
    callId: string;
    sessionId: string;
    name: string;
    isError: boolean;
    durationMs: number;
    /** A bounded summary of the result (core/callSummary.ts), never the result itself. */
    summary: unknown;
  };
  "tool/progress": {
    callId: string;
    sessionId: string;
    message?: string;
    progress?: number;
    total?: number;
  };
  /**
   * Where a running shell command writes its output, for the tool window to show it as it comes
   * (BASH-FG-3: the model still gets the output once, at the end, and no output travels in events).
   */
  "tool/output": {
    callId: string;
    sessionId: string;
    /** stdout and stderr interleaved (Bash), or stdout alone when [stderrPath] is given. */
    outputPath: string;
    stderrPath?: string;
  };
  "session/created": { sessionId: string; parentSessionId?: string; cwd: string };
  "session/disposed": { sessionId: string };
  "session/cwdChanged": { sessionId: string; cwd: string; previousCwd: string; reset: boolean };
  "workspace/directoriesChanged": { root: string; additionalDirectories: string[]; sessionId?: string };
  [other: string]: Record<string, unknown>;
}

export type CoreEventName = keyof CoreEventMap & string;
type Listener = (method: string, params: Record<string, unknown>) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();

  emit<K extends CoreEventName>(method: K, params: CoreEventMap[K]): void {
    for (const l of this.listeners) {
      try {
        l(method, params as Record<string, unknown>);
      } catch {
        // A failing listener must never break the tool that emitted the event.
      }
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
