// How a foreground shell-tool command ends, one way for Bash and run_shell_command: the race
// between the shell exiting, the call's timeout and the caller's cancel (plus any ending a tool
// adds, such as Bash's move to the background); what a cancel said; the output files read into
// bounded summaries; and the files removed once the result is on its way.
import { statfsSync, unlink } from "node:fs";
import path from "node:path";
import { summarizeOutput, type OutputSummary } from "./output.js";
import type { ShellRun } from "./run/index.js";
import { longTimeout } from "./timer.js";

export type RunEnding = { kind: "exit" } | { kind: "timeout" } | { kind: "abort"; reason: string };

/** What the canceller said (an Error's message or a string), for the model to read. */
export function abortReason(signal: AbortSignal): string {
  const r = signal.reason as unknown;
  if (r instanceof Error) return r.message;
  return typeof r === "string" ? r : "cancelled";
}

export interface EndingOptions<E> {
  timeoutMs: number;
  /** The call's signal: its abort ends the wait with `{kind: "abort"}`. */
  signal: AbortSignal;
  /**
   * Adds the tool's own endings: called once with `settle` (the first ending wins) and `settled`
   * (whether one already has); returns what to undo when the wait is over.
   */
  more?: (settle: (ending: E) => void, settled: () => boolean) => (() => void) | void;
}

/** Resolves with the first ending; timers and listeners are gone when it does. */
export async function awaitEnding<E = never>(run: ShellRun, opts: EndingOptions<E>): Promise<RunEnding | E> {
  let settled = false;
  const undo: Array<() => void> = [];
  const ending = await new Promise<RunEnding | E>((resolve) => {
    const settle = (e: RunEnding | E) => {
      if (settled) return;
      settled = true;
      resolve(e);
    };
    void run.exited.then(() => settle({ kind: "exit" }));
    undo.push(longTimeout(opts.timeoutMs, () => settle({ kind: "timeout" })));
    const undoMore = opts.more?.(settle, () => settled);
    if (undoMore) undo.push(undoMore);
    const onAbort = () => settle({ kind: "abort", reason: abortReason(opts.signal) });
    if (opts.signal.aborted) onAbort();
    else {
      opts.signal.addEventListener("abort", onAbort, { once: true });
      undo.push(() => opts.signal.removeEventListener("abort", onAbort));
    }
  });
  for (const u of undo) u();
  return ending;
}

/** The output file as a result shows it; a missing file is no output, an unreadable one says so. */
export function readOutputSummary(file: string | undefined, limit?: number): OutputSummary {
  const empty: OutputSummary = { text: "", truncated: false, totalBytes: 0, binary: false };
  if (!file) return empty;
  try {
    return summarizeOutput(file, limit);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return empty;
    return { ...empty, text: `[the output file could not be read: ${(err as Error).message}]` };
  }
}

/** Free space below which the disk holding a command's output counts as full. */
const FULL_DISK_BYTES = 64 * 1024;

/**
 * A sentence for a command whose output file sits on a disk that is full when it ends: what it
 * printed may be missing or cut short, and its only error message (`write error: No space left on
 * device`) went to the same full file, which leaves a bare exit code. Undefined when there is room.
 */
export function outputDiskFull(outputFile: string, statfs: (dir: string) => { bsize: number; bavail: number; bfree: number } = statfsSync): string | undefined {
  const dir = path.dirname(outputFile);
  let free: number;
  try {
    const st = statfs(dir);
    // Root may still write into the blocks reserved for it; everyone else stops at bavail.
    free = (process.getuid?.() === 0 ? st.bfree : st.bavail) * st.bsize;
  } catch {
    return undefined;
  }
  if (free >= FULL_DISK_BYTES) return undefined;
  return `The disk holding the command's output (${dir}) is full (${free.toLocaleString("en-US")} bytes free): what the command printed is missing or cut short, and a failed write may be why it failed. Free space on that disk, or set WAVE_OUTPUT_DIR to a directory on one with room, then run the command again.`;
}

/**
 * Removes output files after the result is on its way: nobody waits for the unlink, which runs
 * off the event loop (a large file takes a while to free). A leftover in our own output
 * directory is removed with it.
 */
export function removeFilesLater(files: ReadonlyArray<string | undefined>): void {
  setImmediate(() => {
    for (const f of files) if (f) unlink(f, () => {});
  });
}
