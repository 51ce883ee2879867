// How a foreground command ends, with real shells: the first of exit, timeout, cancel or a tool's
// own ending wins, and nothing of the wait (timer, abort listener) outlives it.
import { getEventListeners } from "node:events";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir, waitFor } from "../../test/support/processes.js";
import { ShellEngine } from "./engine.js";
import { abortReason, awaitEnding, readOutputSummary, removeFilesLater } from "./outcome.js";
import { PROCESS_TOKEN, processOutputDir } from "./outputDir.js";
import { startShellRun } from "./run/index.js";

const engine = new ShellEngine();
afterAll(() => engine.dispose());

let seq = 0;
function start(command: string) {
  const n = ++seq;
  return startShellRun({
    command,
    cwd: tempDir(),
    runId: `${PROCESS_TOKEN}.9998.${n}`,
    outputPath: path.join(processOutputDir(), `outcome-${n}.log`),
    trackCwd: false,
    shimsEnabled: false,
    engine,
  });
}

describe("awaitEnding", () => {
  it("ends with the exit, and leaves no abort listener behind", async () => {
    const signal = new AbortController().signal;
    const run = await start("echo done");
    expect(await awaitEnding(run, { timeoutMs: 60_000, signal })).toEqual({ kind: "exit" });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("ends with the timeout while the command still runs", async () => {
    const run = await start("sleep 30");
    expect(await awaitEnding(run, { timeoutMs: 50, signal: new AbortController().signal })).toEqual({ kind: "timeout" });
    expect(run.running).toBe(true);
    await run.stop();
  });

  it("ends with a cancel, saying what the canceller said; an already cancelled call ends at once", async () => {
    const controller = new AbortController();
    const run = await start("sleep 30");
    const ending = awaitEnding(run, { timeoutMs: 60_000, signal: controller.signal });
    controller.abort(new Error("user stop"));
    expect(await ending).toEqual({ kind: "abort", reason: "user stop" });
    expect(await awaitEnding(run, { timeoutMs: 60_000, signal: controller.signal })).toEqual({ kind: "abort", reason: "user stop" });
    await run.stop();
    const text = new AbortController();
    text.abort("session ended");
    expect(abortReason(text.signal)).toBe("session ended");
    const none = new AbortController();
    none.abort(42);
    expect(abortReason(none.signal)).toBe("cancelled");
  });

  it("ends with the tool's own ending, undoes it afterwards, and a later ending changes nothing", async () => {
    const run = await start("sleep 30");
    let settleLater: ((e: { kind: "user" }) => void) | undefined;
    let wasSettled: (() => boolean) | undefined;
    let undone = false;
    const ending = awaitEnding<{ kind: "user" }>(run, {
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      more: (settle, settled) => {
        settleLater = settle;
        wasSettled = settled;
        return () => (undone = true);
      },
    });
    expect(wasSettled!()).toBe(false);
    settleLater!({ kind: "user" });
    expect(await ending).toEqual({ kind: "user" });
    expect(undone).toBe(true);
    expect(wasSettled!()).toBe(true);
    await run.stop();
  });
});

describe("output files", () => {
  it("a missing file is no output; an unreadable one says so", () => {
    const dir = tempDir();
    expect(readOutputSummary(path.join(dir, "gone.log"))).toEqual({ text: "", truncated: false, totalBytes: 0, binary: false });
    expect(readOutputSummary(undefined).text).toBe("");
    expect(readOutputSummary(dir).text).toMatch(/^\[the output file could not be read: .*EISDIR/);
  });

  it("are removed after the current turn, not during it", async () => {
    const file = path.join(tempDir(), "out.log");
    writeFileSync(file, "x");
    removeFilesLater([file, undefined]);
    expect(existsSync(file)).toBe(true);
    expect(await waitFor(() => !existsSync(file), 2000)).toBe(true);
  });
});
