// Two cores in one process (an embedding host, the tests themselves) share nothing a core owns:
// each has its own settings, its own shell engine (search-shim probes and files, start-up files)
// and its own sessions, and one core's shutdown leaves the other working.
import { getEventListeners } from "node:events";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeCores, testCore } from "../../test/support/core.js";
import { requireRealVendor } from "../../test/support/shims.js";
import { SHELL_ENGINE } from "../shell/engine.js";
import { resolveShellCached } from "../shell/resolve.js";

afterEach(closeCores);

/** What `grep` is in a Bash command of this core: a shim function, or the system file. */
async function grepKind(t: ReturnType<typeof testCore>): Promise<string> {
  // It calls grep: a command that calls no shimmed tool runs without the shims (tools/bash.plain.test.ts).
  const r = await t.bash({ command: "grep -q . /dev/null; type -t grep 2>/dev/null || whence -w grep" });
  return r.s.output.trim();
}

describe("two WaveCores in one process", () => {
  it("own their settings, shell engines and shim files; shutting one down leaves the other's in place", async () => {
    // The bundled search tools (node-core/vendor, not in git) make both cores inject shims.
    requireRealVendor();
    const a = testCore();
    const b = testCore();
    const engineA = a.core.services.get(SHELL_ENGINE);
    const engineB = b.core.services.get(SHELL_ENGINE);
    expect(engineA).not.toBe(engineB);
    expect(engineA.shims).not.toBe(engineB.shims);

    const shell = resolveShellCached(process.env);
    const preludeA = (await engineA.shimInjection(shell, true)).prelude;
    const preludeB = (await engineB.shimInjection(shell, true)).prelude;
    // This checkout ships the bundled search tools (node-core/vendor): both cores inject shims.
    expect(preludeA && existsSync(preludeA)).toBeTruthy();
    expect(preludeB && existsSync(preludeB)).toBeTruthy();
    expect(path.dirname(path.dirname(preludeA!))).not.toBe(path.dirname(path.dirname(preludeB!)));

    const shimmed = shell.kind === "bash" ? "function" : "grep: function";
    expect(await grepKind(a)).toBe(shimmed);
    expect(await grepKind(b)).toBe(shimmed);
    a.core.workspace.updateSettings({ shims: false });
    expect(await grepKind(a)).not.toBe(shimmed);
    expect(await grepKind(b)).toBe(shimmed);
    expect(b.core.workspace.setting("shims")).toBe(true);

    const exitListeners = process.listenerCount("exit");
    await a.core.shutdown();
    expect(existsSync(preludeA!)).toBe(false);
    // Its files' exit hook went with them: cores that come and go leave no listeners behind.
    expect(process.listenerCount("exit")).toBe(exitListeners - 1);
    expect(() => a.core.services.get(SHELL_ENGINE)).toThrow(/The core has ended/);
    expect(existsSync(preludeB!)).toBe(true);
    expect(await grepKind(b)).toBe(shimmed);
    expect(b.core.sessions.main.disposed).toBe(false);
  });
});

describe("calls in flight", () => {
  it("each listens to its session's end only while it runs: many at once warn of no leak and leave no listener", async () => {
    const t = testCore();
    const signal = t.core.sessions.main.signal;
    const before = getEventListeners(signal, "abort").length;
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      const calls = Array.from({ length: 25 }, (_, i) => t.call("Glob", { pattern: `*.nothing-${i}` }));
      await Promise.all(calls);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    expect(getEventListeners(signal, "abort").length).toBe(before);
  });
});
