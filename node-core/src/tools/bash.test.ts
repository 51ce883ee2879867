// Bash in the foreground: output, exit status, fresh shells, cwd tracking, shells, schema.
// Real bash and zsh processes throughout.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { closeCores, ourProcesses, SHELLS, testCore, useShell } from "../../test/support/core.js";
import { tempDir, waitFor } from "../../test/support/processes.js";
import { InvalidToolArguments, renderInputSchema } from "../core/registry.js";
import { processOutputDir } from "../shell/outputDir.js";
import { RUNS } from "../shell/run/index.js";
import { addLogSink, type LogRecord } from "../util/log.js";
import { BASH_DEFAULT_TIMEOUT_MS, BASH_DESCRIPTION, BASH_MAX_TIMEOUT_MS, bashTool } from "./bash.js";

const logs: LogRecord[] = [];
const unsubscribe = addLogSink((r) => logs.push(r));
afterAll(unsubscribe);
afterEach(async () => {
  await closeCores();
  vi.unstubAllEnvs();
  logs.length = 0;
});

describe.each(SHELLS)("Bash tool with %s", (kind, shellPath) => {
  useShell(shellPath);

  it(`BASH-FG-1 returns stdout and stderr interleaved as produced, and the exit code (${kind})`, async () => {
    const t = testCore();
    const ok = await t.bash({ command: "echo one; echo two >&2; echo three; printf four >&2" });
    expect(ok.s.output).toBe("one\ntwo\nthree\nfour");
    expect(ok.s).toMatchObject({ success: true, exitCode: 0, signal: null, interrupted: false });
    expect(ok.isError).toBe(false);
    const fail = await t.bash({ command: "echo partial; exit 3" });
    expect(fail.s).toMatchObject({ success: false, exitCode: 3, output: "partial\n" });
    expect(fail.isError).toBe(true);
    expect(fail.text).toBe("partial\n\nExit code 3");
    const which = await t.bash({ command: kind === "zsh" ? "echo $ZSH_VERSION" : "echo $BASH_VERSION" });
    expect(which.s.output.trim()).not.toBe("");
  });

  it(`a command as long as the system passes to a shell runs, inside the sandbox too; one byte more is refused before anything starts, saying what to do (${kind})`, async () => {
    const t = testCore();
    // 131,071 bytes: Linux's limit for one argument (MAX_ARG_STRLEN less the final NUL); "é" is two bytes.
    const fits = "echo fits #" + "é".repeat((131_071 - 11) / 2);
    expect(Buffer.byteLength(fits)).toBe(131_071);
    for (const sandbox of [true, false]) {
      const r = await t.bash({ command: fits, dangerouslyDisableSandbox: !sandbox }, { origin: "host" });
      expect(r.s).toMatchObject({ success: true, output: "fits\n" });
    }
    const err = await t.call("Bash", { command: fits + "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidToolArguments);
    expect(String((err as Error).message)).toMatch(/is 131,072 bytes long; Linux passes at most 131,071 bytes to a shell as one command\. Write the script to a file/);
  });

  it(`BASH-FG-2 runs every command in a fresh shell with stdin at /dev/null (${kind})`, async () => {
    const t = testCore();
    await t.bash({ command: "export WAVE_TEST_VAR=set; my_fn() { :; }" });
    const r = await t.bash({ command: 'echo "${WAVE_TEST_VAR:-unset}"; type my_fn >/dev/null 2>&1 && echo fn || echo no-fn' });
    expect(r.s.output).toBe("unset\nno-fn\n");
    const stdin = await t.bash({ command: "cat; read line; echo read=$?; wc -c < /dev/stdin" });
    expect(stdin.s.output).toBe("read=1\n0\n");
    const heredoc = await t.bash({ command: "cat <<'EOF'\nfrom heredoc\nEOF" });
    expect(heredoc.s.output).toBe("from heredoc\n");
  });

  it(`BASH-SH-1 bashisms work, also in multi-line commands (${kind})`, async () => {
    const t = testCore();
    const r = await t.bash({
      command: ["comm -23 <(printf 'a\\nb\\n') <(echo b)", "if [[ abc == a* ]]; then echo matched; fi", "arr=(x y z)", 'echo "${#arr[@]}"', "diff <(echo 1) <(echo 1) && echo same"].join("\n"),
    });
    expect(r.s.output).toBe("a\nmatched\n3\nsame\n");
    expect(r.s.success).toBe(true);
  });

  it(`BASH-CWD-1 a cd inside the workspace persists and is reported (${kind})`, async () => {
    const t = testCore();
    const sub = path.join(t.root, "dir with spaces and 'quotes'");
    mkdirSync(sub);
    const r = await t.bash({ command: `cd ${JSON.stringify(sub)} && echo in` });
    expect(r.text).toContain(`Shell working directory changed to ${sub}`);
    expect(r.s).toMatchObject({ cwd: sub, cwdChanged: true, cwdReset: false });
    expect((await t.bash({ command: "pwd" })).s.output).toBe(sub + "\n");
    expect(t.events.some((e) => e.method === "session/cwdChanged" && e.params.cwd === sub)).toBe(true);
    // Failed commands and exit N still move the shell.
    const failed = await t.bash({ command: `cd ${JSON.stringify(t.root)}; exit 4` });
    expect(failed.s).toMatchObject({ exitCode: 4, cwd: t.root, cwdChanged: true });
  });

  it(`BASH-CWD-1 directories added at start-up, at run time and per session also keep the cwd (${kind})`, async () => {
    const extra = tempDir("wave-extra-");
    const later = tempDir("wave-later-");
    const mine = tempDir("wave-session-");
    const t = testCore({ additionalDirectories: [extra] });
    expect((await t.bash({ command: `cd ${extra}` })).s.cwd).toBe(extra);
    t.core.workspace.addDirectory(later);
    expect((await t.bash({ command: `cd ${later}` })).text).toContain(`Shell working directory changed to ${later}`);
    const sub = t.core.sessions.create({});
    sub.addDirectory(mine);
    expect((await t.bash({ command: `cd ${mine}` }, { sessionId: sub.id })).s.cwd).toBe(mine);
    // The main session was not given that directory.
    const main = await t.bash({ command: `cd ${mine}` });
    expect(main.text).toContain(`Shell cwd was reset to ${t.root}`);
    // Host settings (settings/update) can list more.
    const fromSettings = tempDir("wave-setting-");
    t.core.workspace.updateSettings({ additionalDirectories: [fromSettings] });
    expect((await t.bash({ command: `cd ${fromSettings}` })).s).toMatchObject({ cwd: fromSettings, cwdChanged: true });
  });

  it(`BASH-CWD-2 a cd outside the allowed directories resets to the original directory (${kind})`, async () => {
    const t = testCore();
    const outside = tempDir("wave-outside-");
    const r = await t.bash({ command: `cd ${outside} && pwd` });
    expect(r.s.output).toBe(outside + "\n");
    expect(r.text).toContain(`Shell cwd was reset to ${t.root}`);
    expect(r.s).toMatchObject({ cwd: t.root, cwdReset: true, cwdChanged: false });
    expect((await t.bash({ command: "pwd" })).s.output).toBe(t.root + "\n");
  });

  it(`BASH-CWD-2 a deleted working directory falls back to the original one with the notice, not a spawn error (${kind})`, async () => {
    const t = testCore();
    const sub = path.join(t.root, "soon-gone");
    mkdirSync(sub);
    await t.bash({ command: `cd ${sub}` });
    rmSync(sub, { recursive: true });
    const r = await t.bash({ command: "pwd" });
    expect(r.s.success).toBe(true);
    expect(r.s.output).toBe(t.root + "\n");
    expect(r.text).toContain(`Shell cwd was reset to ${t.root}`);
    expect(r.s.cwdReset).toBe(true);
  });

  it(`BASH-CWD-3 a directory deleted while the command ran leaves the result alone and logs at debug only (${kind})`, async () => {
    const t = testCore();
    const sub = path.join(t.root, "vanishing");
    mkdirSync(sub);
    const r = await t.bash({ command: `cd ${JSON.stringify(sub)} && rmdir ${JSON.stringify(sub)} && echo done` });
    expect(r.s).toMatchObject({ success: true, exitCode: 0, output: "done\n", cwd: t.root, cwdChanged: false });
    expect(r.text).toBe("done");
    expect(logs.filter((l) => l.level !== "debug" && l.scope.startsWith("tool:Bash"))).toEqual([]);
    expect(logs.some((l) => l.level === "debug" && l.message.startsWith("cwd tracking"))).toBe(true);
  });

  it(`does not wait for background children holding the output and lists them (${kind})`, async () => {
    const t = testCore();
    const r = await t.bash({ command: "sleep 30 & echo started" });
    expect(r.s.output).toBe("started\n");
    expect(r.s.survivors.map((s) => s.command)).toEqual(["sleep 30"]);
    expect(r.s.outputPath).not.toBeNull();
    expect(r.text).toMatch(/Still running after the shell exited .*: \d+ sleep 30/);
    const loop = await t.bash({ command: "(while :; do echo x; sleep .1; done) & echo looping" });
    expect(loop.s.output).toMatch(/^(x\n)*looping\n/);
    expect(loop.s.survivors.length).toBeGreaterThanOrEqual(1);
    // The session's end stops them (they carry the marker).
    expect(ourProcesses().length).toBeGreaterThanOrEqual(2);
    await t.core.shutdown();
    expect(ourProcesses()).toEqual([]);
  });
});

describe("Bash tool output", () => {
  it("BASH-FG-3 sends no progress and no output while running: tool/started has the command only", async () => {
    const t = testCore();
    const r = await t.bash({ command: "for i in 1 2 3; do echo $i; sleep 0.1; done", description: "count" });
    expect(r.s.output).toBe("1\n2\n3\n");
    expect(t.events.filter((e) => e.method === "tool/progress")).toEqual([]);
    const started = t.events.find((e) => e.method === "tool/started")!;
    expect(started.params.arguments).toEqual({ command: "for i in 1 2 3; do echo $i; sleep 0.1; done", description: "count" });
    expect(JSON.stringify(started.params)).not.toContain("1\\n2");
  });

  it("BASH-FG-3 the host is told where the output goes while it runs (tool/output: the path, never output); the model gets it once, at the end", async () => {
    const t = testCore();
    const pending = t.bash({ command: "echo first; sleep 1; echo second" }, { callId: "live-1" });
    expect(await waitFor(() => t.events.some((e) => e.method === "tool/output" && e.params.callId === "live-1"))).toBe(true);
    const live = t.events.find((e) => e.method === "tool/output")!.params as { outputPath: string; sessionId: string; stderrPath?: string };
    expect(Object.keys(live).sort()).toEqual(["callId", "outputPath", "sessionId"]);
    // The file fills as the command prints: the first line is there before the call answers.
    expect(await waitFor(() => existsSync(live.outputPath) && readFileSync(live.outputPath, "utf8") === "first\n")).toBe(true);
    const r = await pending;
    expect(r.s.output).toBe("first\nsecond\n");
    expect(t.events.filter((e) => e.method === "tool/progress")).toEqual([]);
    expect(t.events.findIndex((e) => e.method === "tool/output")).toBeLessThan(t.events.findIndex((e) => e.method === "tool/finished"));
    // A command started in the background has its task log instead.
    await t.bash({ command: "echo bg", run_in_background: true }, { callId: "live-2" });
    expect(t.events.some((e) => e.method === "tool/output" && e.params.callId === "live-2")).toBe(false);
  });

  it("BASH-FG-4 keeps ANSI escape sequences verbatim; the core's own texts carry none", async () => {
    const t = testCore();
    const r = await t.bash({ command: "printf '\\033[31mred\\033[0m\\n'; exit 1" });
    expect(r.s.output).toBe("\u001b[31mred\u001b[0m\n");
    const notes = r.text.slice(r.s.output.length);
    expect(notes).toBe("\nExit code 1");
    expect(notes).not.toContain("\u001b");
  });

  it("BASH-FG-5 truncates long output to head and tail and keeps the full output in the named file", async () => {
    const t = testCore();
    const r = await t.bash({ command: "seq 1 200000; echo FINAL-ERROR >&2" });
    expect(r.s.truncated).toBe(true);
    expect(r.s.output.length).toBeLessThanOrEqual(30_000);
    expect(r.s.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(r.s.output.endsWith("199999\n200000\nFINAL-ERROR\n")).toBe(true);
    expect(r.s.outputPath).toMatch(/\.log$/);
    expect(r.text).toContain(r.s.outputPath!);
    const full = readFileSync(r.s.outputPath!, "utf8");
    expect(full.split("\n")).toHaveLength(200_002);
  });

  it("removes the output file of a short command (outputPath null) and keeps a long one's", async () => {
    // Without shells started ahead: one would hold the next run's (empty) output file meanwhile.
    vi.stubEnv("WAVE_WARM_SHELL", "0");
    const t = testCore();
    const tag = t.core.sessions.main.service(RUNS).tag;
    const mine = () => readdirSync(processOutputDir()).filter((f) => f.startsWith(`run-${tag}-`) && f.endsWith(".log"));
    const r = await t.bash({ command: "echo small" });
    expect(r.s.outputPath).toBeNull();
    expect(r.s.output).toBe("small\n");
    const long = await t.bash({ command: "seq 1 100000" });
    expect(await waitFor(() => mine().length === 1)).toBe(true);
    expect(mine()).toEqual([path.basename(long.s.outputPath!)]);
    expect(existsSync(long.s.outputPath!)).toBe(true);
  });

  it("shows binary and invalid UTF-8 output safely", async () => {
    const t = testCore();
    const r = await t.bash({ command: "printf 'ok \\377\\376\\000\\001 end\\n'; head -c 300000 /dev/urandom" });
    expect(r.s.success).toBe(true);
    expect(r.s.output.startsWith("ok ")).toBe(true);
    expect(r.s.output).not.toContain("\u0000");
    expect(r.text.length).toBeLessThan(31_000);
    expect(r.text).toContain("binary data");
  });

  it("says (no output) when nothing was printed", async () => {
    const t = testCore();
    const r = await t.bash({ command: "true" });
    expect(r.text).toBe("(no output)");
    expect(r.s.output).toBe("");
  });

  it("makes git, pagers and editors non-interactive and tags every child with the run marker", async () => {
    const t = testCore();
    const r = await t.bash({
      command: [
        "git init -q repo && cd repo",
        "git -c user.email=a@b -c user.name=n commit -q --allow-empty -m one",
        "git log | cat >/dev/null",
        "git -c user.email=a@b -c user.name=n commit --allow-empty; echo commit=$?",
        'echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT $GIT_EDITOR"',
        "bash -c 'echo \"child:${WAVE_RUN_ID%%:*}:$WAVE_CORE_PID\"'",
      ].join("\n"),
    });
    expect(r.s.output).toContain("commit=1");
    expect(r.s.output).toContain("cat cat 0 true");
    expect(r.s.output).toMatch(new RegExp(`child:[0-9a-f]{8}\\.\\d+\\.\\d+:${process.pid}`));
  });

  it("works from a directory whose path has spaces and quotes", async () => {
    const root = path.join(tempDir(), `ws "with" 'quotes' and spaces`);
    mkdirSync(root);
    const t = testCore({ root });
    const r = await t.bash({ command: "pwd" });
    expect(r.s.output).toBe(root + "\n");
  });

  it("reports a missing shell as a clear error that names WAVE_SHELL", async () => {
    const saved = process.env.WAVE_SHELL;
    process.env.WAVE_SHELL = "/nonexistent/bash";
    try {
      const t = testCore();
      const r = await t.bash({ command: "echo hi" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/WAVE_SHELL is set to "\/nonexistent\/bash"/);
      expect(r.s.success).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.WAVE_SHELL;
      else process.env.WAVE_SHELL = saved;
    }
  });
});

describe("Bash timeout parameter", () => {
  const schema = renderInputSchema(bashTool.inputSchema) as { properties: Record<string, { description?: string; maximum?: number; type?: string }> };
  const timeoutDoc = schema.properties.timeout!.description!;

  it("BASH-TO-1 defaults to 120000 ms and advertises 600000 ms as the maximum", () => {
    expect(BASH_DEFAULT_TIMEOUT_MS).toBe(120_000);
    expect(BASH_MAX_TIMEOUT_MS).toBe(600_000);
    expect(timeoutDoc).toContain("default 120000 ms (2 minutes)");
    expect(timeoutDoc).toContain("maximum 600000 ms (10 minutes)");
  });

  it("BASH-TO-2 the description and the timeout parameter state the same maximum, and the default separately", () => {
    const maxima = (text: string) => [...text.matchAll(/maximum (\d+) ms \((\d+) minutes\)/g)].map((m) => `${m[1]}/${m[2]}`);
    expect(maxima(BASH_DESCRIPTION)).toEqual(["600000/10"]);
    expect(maxima(timeoutDoc)).toEqual(["600000/10"]);
    expect(BASH_DESCRIPTION).toContain("default 120000 ms (2 minutes)");
    // The default is never presented as a limit.
    for (const text of [BASH_DESCRIPTION, timeoutDoc]) {
      const limits = [...text.matchAll(/(?:up to|maximum|max\.?|at most|limit(?: of)?)\s*(\d+)/gi)].map((m) => m[1]);
      expect(limits).toEqual(["600000"]);
      expect(text).toMatch(/default 120000 ms/);
    }
    // The listed tool renders the same text.
    const t = testCore();
    const listed = t.core.registry.list().find((x) => x.name === "Bash")!;
    expect(listed.description).toBe(BASH_DESCRIPTION);
    expect(JSON.stringify(listed.inputSchema)).toContain(JSON.stringify(timeoutDoc).slice(1, -1));
  });

  it("BASH-TO-3 accepts any non-negative timeout, above 600000 too, with no maximum in the schema", async () => {
    expect(schema.properties.timeout!.maximum).toBeUndefined();
    const t = testCore();
    for (const timeout of [900_000, 600_001, 10 ** 12]) {
      const r = await t.bash({ command: "echo ok", timeout });
      expect(r.s).toMatchObject({ success: true, output: "ok\n", backgroundTaskId: null });
    }
    // A small value is used as given.
    const slow = await t.bash({ command: "echo begin; sleep 2; echo end", timeout: 700 });
    expect(slow.text).toContain("Command exceeded the timeout (0.7s)");
  });

  it("BASH-TO-4 rejects non-numbers and negative numbers without claiming a 600000 maximum", async () => {
    const t = testCore();
    for (const timeout of ["120000", -1, null, true]) {
      const err = await t.call("Bash", { command: "echo x", timeout }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidToolArguments);
      const msg = (err as Error).message;
      expect(msg).toMatch(/timeout/);
      expect(msg).not.toMatch(/600000|600,000|between 0 and/);
    }
  });

  it("rejects unknown parameters and an empty command", async () => {
    const t = testCore();
    await expect(t.call("Bash", { command: "" })).rejects.toBeInstanceOf(InvalidToolArguments);
    await expect(t.call("Bash", { command: "ls", cwd: "/" })).rejects.toBeInstanceOf(InvalidToolArguments);
  });
});

// Nothing started by these tests may outlive them.
afterAll(async () => {
  await closeCores();
  expect(await waitFor(() => ourProcesses().length === 0, 5000)).toBe(true);
});
