// run_shell_command (SPEC RSC-1..5) with real bash processes, real process groups, real files.
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ALLOWED_DESPITE_WARNINGS, captureLogs } from "../../test/support/logs.js";
import { closeCores, NO_SANDBOX, ourProcesses, testCore, type TestCore } from "../../test/support/core.js";
import type { SandboxCliOptions } from "../shell/sandbox/settings.js";
import { isAlive, tempDir, waitFor } from "../../test/support/processes.js";
import { InvalidToolArguments, renderInputSchema } from "../core/registry.js";
import { resultText, type ToolResult } from "../core/tool.js";
import type { PermissionPrompt } from "../permissions/types.js";
import { parsePolicy } from "../permissions/service.js";
import { readProcEntry } from "../shell/processTable.js";
import { outputBudget, RSC_DEFAULT_TIMEOUT_MS, RSC_DESCRIPTION, runShellCommandTool, type RunShellCommandStructured } from "./runShellCommand.js";

// Commands here carry permission warnings only as a side effect (allow-all): their audit line is claimed.
captureLogs(ALLOWED_DESPITE_WARNINGS);

afterEach(closeCores);
afterAll(async () => {
  expect(await waitFor(() => ourProcesses().length === 0, 5000)).toBe(true);
});

type Rsc = ToolResult & {
  text: string;
  s: RunShellCommandStructured;
};

async function rsc(t: TestCore, args: Record<string, unknown>, opts: { signal?: AbortSignal } = {}): Promise<Rsc> {
  const r = await t.call("run_shell_command", args, opts);
  return { ...r, text: resultText(r), s: r.structuredContent as RunShellCommandStructured };
}

/** The value of one `Name: value` line of the result text. */
function field(text: string, name: string): string {
  const names = ["Command", "Directory", "Stdout", "Stderr", "Error", "Exit Code", "Signal", "Background PIDs", "Process Group PGID"];
  const start = text.indexOf(`\n${name}: `) >= 0 ? text.indexOf(`\n${name}: `) + 1 : text.startsWith(`${name}: `) ? 0 : -1;
  if (start < 0) throw new Error(`no ${name} line in:\n${text}`);
  const from = start + name.length + 2;
  const next = names.map((n) => text.indexOf(`\n${n}: `, from)).filter((i) => i >= 0);
  const end = next.length ? Math.min(...next) : text.indexOf("\n", from) >= 0 ? text.indexOf("\n", from) : text.length;
  return text.slice(from, end);
}

function workspace(sandbox?: SandboxCliOptions): { t: TestCore; root: string } {
  const t = testCore({ sandbox });
  mkdirSync(path.join(t.root, "sub", "deeper"), { recursive: true });
  return { t, root: t.root };
}

describe("RSC-1 parameters: command via bash -c, description, directory relative to the root", () => {
  it("RSC-1 the schema the model sees: command required; description, directory and timeout optional", () => {
    const schema = renderInputSchema(runShellCommandTool.inputSchema) as { properties: Record<string, { description?: string }>; required: string[]; additionalProperties: boolean };
    expect(Object.keys(schema.properties)).toEqual(["command", "description", "directory", "timeout", "dangerouslyDisableSandbox"]);
    expect(schema.required).toEqual(["command"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.directory!.description).toMatch(/relative to the project root.*Must already exist/);
    expect(RSC_DESCRIPTION).toContain("`bash -c <command>`");
    expect(RSC_DESCRIPTION).toContain(`default ${RSC_DEFAULT_TIMEOUT_MS}`);
  });

  it("RSC-1 refuses invalid arguments with what to fix", async () => {
    const { t } = workspace();
    await expect(t.call("run_shell_command", {})).rejects.toBeInstanceOf(InvalidToolArguments);
    await expect(t.call("run_shell_command", { command: "" })).rejects.toThrow(/command must be a non-empty string/);
    await expect(t.call("run_shell_command", { command: "true", timeout: 0 })).rejects.toThrow(/timeout must be a positive number/);
    await expect(t.call("run_shell_command", { command: "true", cwd: "x" })).rejects.toThrow(/cwd/);
  });

  it("RSC-1 always runs bash -c, even when the Bash tool's shell is zsh", async () => {
    const saved = process.env.WAVE_SHELL;
    process.env.WAVE_SHELL = "/usr/bin/zsh";
    try {
      const { t } = workspace();
      const r = await rsc(t, { command: 'echo "${BASH_VERSION:+bash}${ZSH_VERSION:+zsh} $0"; shopt -q extglob; echo "extglob=$?"' });
      expect(r.s.stdout).toMatch(/^bash \S*bash\nextglob=1\n$/);
      const bash = await t.bash({ command: "echo ${ZSH_VERSION:+zsh}" });
      expect(bash.s.output).toBe("zsh\n");
    } finally {
      if (saved === undefined) delete process.env.WAVE_SHELL;
      else process.env.WAVE_SHELL = saved;
    }
  });

  it("RSC-1 runs in the root, or in `directory` below it; the session's cd does not move it", async () => {
    const { t, root } = workspace();
    expect((await rsc(t, { command: "pwd -P" })).s).toMatchObject({ stdout: `${root}\n`, directory: "(root)" });
    const sub = await rsc(t, { command: "pwd -P", directory: "sub/./deeper/../deeper" });
    expect(sub.s).toMatchObject({ stdout: `${path.join(root, "sub", "deeper")}\n`, directory: "sub/deeper", error: null });
    expect(field(sub.text, "Directory")).toBe("sub/deeper");
    await t.bash({ command: "cd sub" });
    expect(t.core.sessions.main.cwd).toBe(path.join(root, "sub"));
    expect((await rsc(t, { command: "pwd -P", directory: "deeper" })).s.errorKind).toBe("not_found");
    expect((await rsc(t, { command: "pwd -P" })).s.stdout).toBe(`${root}\n`);
    // A name that merely starts with two dots stays inside.
    mkdirSync(path.join(root, "..cache"));
    expect((await rsc(t, { command: "pwd -P", directory: "..cache" })).s).toMatchObject({ stdout: `${path.join(root, "..cache")}\n`, directory: "..cache" });
    // A symlink that stays inside the root is fine; where it leads is where the command runs.
    symlinkSync(path.join(root, "sub"), path.join(root, "alias"));
    expect((await rsc(t, { command: "pwd -P", directory: "alias" })).s).toMatchObject({ stdout: `${path.join(root, "sub")}\n`, directory: "sub" });
  });

  it("RSC-1 refuses absolute paths, `..` escapes, symlink escapes, missing directories and files, running nothing", async () => {
    const { t, root } = workspace();
    const outside = tempDir("wave-rsc-outside-");
    symlinkSync(outside, path.join(root, "escape"));
    writeFileSync(path.join(root, "file.txt"), "x");
    const marker = path.join(outside, "ran");
    const cases: Array<[string, string, RegExp]> = [
      [path.join(root, "sub"), "invalid_argument", /^directory must be relative to the project root \(.*\), but ".*\/sub" is absolute\. Use "sub" instead\.$/],
      ["/etc", "invalid_argument", /"\/etc" is absolute\. It is outside the project; commands run only inside it\.$/],
      ["~/x", "invalid_argument", /names a place under the home directory/],
      ["../", "outside_workspace", /^directory "\.\.\/" leads outside the project root/],
      ["sub/../../x", "outside_workspace", /leads outside the project root/],
      ["escape", "outside_workspace", /goes through a symlink that leads outside the project root, to .*wave-rsc-outside-/],
      ["escape/inner", "not_found", /does not exist/],
      ["nope/deeper", "not_found", /^directory "nope\/deeper" does not exist \(.*\)\. Create it first \(mkdir -p nope\/deeper\)/],
      ["file.txt", "not_a_directory", /is a file, not a directory/],
      ["file.txt/x", "not_a_directory", /part of the path .* is a file/],
    ];
    for (const [directory, kind, message] of cases) {
      const r = await rsc(t, { command: `touch ${marker}`, directory });
      expect(r.isError, directory).toBe(true);
      expect(r.s.errorKind, directory).toBe(kind);
      expect(r.s.error, directory).toMatch(message);
      expect(field(r.text, "Error")).toBe(r.s.error);
      expect(field(r.text, "Directory")).toBe(directory);
      expect(r.s).toMatchObject({ pgid: null, exitCode: null, stdout: "" });
    }
    expect(existsSync(marker)).toBe(false);
  });
});

// Pids as the command itself prints them: without a sandbox, whose PID namespace numbers them its
// own way (src/shell/sandbox/sandbox.test.ts has the sandbox's groups and survivors).
describe("RSC-2 its own process group; & starts background processes", () => {
  it("RSC-2 the command leads its own process group: PGID is the shell, and the group really is", async () => {
    const { t } = workspace(NO_SANDBOX);
    const r = await rsc(t, { command: "echo $$; ps -o pgid= -p $$; ps -o pgid= -p $PPID" });
    const [shellPid, ownGroup, parentGroup] = r.s.stdout
      .trim()
      .split("\n")
      .map((l) => Number(l.trim()));
    expect(r.s.pgid).toBe(shellPid);
    expect(ownGroup).toBe(shellPid);
    // The core is in another group: signalling the command's group can never reach it.
    expect(parentGroup).toBe(readProcEntry(process.pid)!.pgid);
    expect(parentGroup).not.toBe(shellPid);
    expect(field(r.text, "Process Group PGID")).toBe(String(shellPid));
  });

  it("RSC-2 & leaves background processes running: their PIDs come from the process table, in the command's group", async () => {
    const { t } = workspace(NO_SANDBOX);
    const r = await rsc(t, { command: "sleep 300 & echo $!; (sleep 301 &); setsid sleep 302 & echo started" });
    const echoed = Number(r.s.stdout.split("\n")[0]);
    expect(r.isError).toBe(false);
    expect(r.s.backgroundPids).toHaveLength(3);
    expect(r.s.backgroundPids).toContain(echoed);
    const byCommand = Object.fromEntries(r.s.backgroundProcesses.map((p) => [p.command.replace(/^setsid /, ""), p.pid]));
    expect(Object.keys(byCommand).sort()).toEqual(["sleep 300", "sleep 301", "sleep 302"]);
    for (const pid of r.s.backgroundPids) expect(isAlive(pid)).toBe(true);
    // Without job control they stay in the command's group, except the one that called setsid.
    expect(readProcEntry(byCommand["sleep 300"]!)!.pgid).toBe(r.s.pgid);
    expect(readProcEntry(byCommand["sleep 301"]!)!.pgid).toBe(r.s.pgid);
    // setsid may not have run yet when the shell exits (the scan found it by its marker); it leaves soon after.
    expect(await waitFor(() => readProcEntry(byCommand["sleep 302"]!)!.pgid !== r.s.pgid)).toBe(true);
    expect(field(r.text, "Background PIDs")).toBe(r.s.backgroundPids.join(", "));
    // Their output keeps going to the files the result names, so those are kept.
    expect(r.s.stdoutPath && existsSync(r.s.stdoutPath)).toBe(true);
    expect(r.text).toContain(`Output of the background processes keeps going to ${r.s.stdoutPath} and ${r.s.stderrPath}.`);

    // `kill -- -PGID`, as the description says, stops the group.
    process.kill(-r.s.pgid!, "SIGTERM");
    expect(await waitFor(() => !isAlive(byCommand["sleep 300"]!) && !isAlive(byCommand["sleep 301"]!))).toBe(true);
    expect(isAlive(byCommand["sleep 302"]!)).toBe(true);
    // The session's end stops what is left.
    await t.core.sessions.main.dispose();
    expect(await waitFor(() => !isAlive(byCommand["sleep 302"]!))).toBe(true);
  });

  it("RSC-2 a command whose background processes finished leaves no PIDs and no files", async () => {
    const { t } = workspace();
    const r = await rsc(t, { command: "sleep 0.1 & wait; echo done" });
    expect(r.s).toMatchObject({ backgroundPids: [], stdoutPath: null, stderrPath: null, stdout: "done\n" });
    expect(field(r.text, "Background PIDs")).toBe("(none)");
  });
});

describe("RSC-3 the result: every field, in the text and in structuredContent", () => {
  it("RSC-3 lists Command, Directory, Stdout, Stderr, Error, Exit Code, Signal, Background PIDs, PGID, in that order", async () => {
    const { t } = workspace();
    const r = await rsc(t, { command: "printf 'a\\nb\\n'; echo oops >&2", description: "print" });
    const lines = r.text.split("\n");
    expect(lines[0]).toBe("Command: printf 'a\\nb\\n'; echo oops >&2");
    expect(lines.slice(1)).toEqual([
      "Directory: (root)",
      "Stdout: a",
      "b",
      "Stderr: oops",
      "Error: (none)",
      "Exit Code: 0",
      "Signal: (none)",
      "Background PIDs: (none)",
      `Process Group PGID: ${r.s.pgid}`,
    ]);
    expect(r.s).toMatchObject({ command: "printf 'a\\nb\\n'; echo oops >&2", directory: "(root)", stdout: "a\nb\n", stderr: "oops\n", error: null, exitCode: 0, signal: null, backgroundPids: [] });
    expect(r.isError).toBe(false);
  });

  it("RSC-3 empty streams read (empty); a quiet failing command has an Error and its exit code", async () => {
    const { t } = workspace();
    const r = await rsc(t, { command: "exit 3" });
    expect(field(r.text, "Stdout")).toBe("(empty)");
    expect(field(r.text, "Stderr")).toBe("(empty)");
    expect(field(r.text, "Exit Code")).toBe("3");
    expect(field(r.text, "Error")).toBe("Command exited with code 3.");
    expect(r.s).toMatchObject({ errorKind: "command_failed", exitCode: 3, stdout: "", stderr: "" });
    expect(r.isError).toBe(true);
  });

  it("RSC-3 stdout and stderr are captured apart, each in the order it was written", async () => {
    const { t } = workspace();
    const r = await rsc(t, { command: "for i in $(seq 1 300); do echo out$i; echo err$i >&2; done; (echo sub-out; echo sub-err >&2) | cat" });
    const seq = (p: string) => Array.from({ length: 300 }, (_, i) => `${p}${i + 1}`);
    expect(r.s.stdout.trimEnd().split("\n")).toEqual([...seq("out"), "sub-out"]);
    expect(r.s.stderr.trimEnd().split("\n")).toEqual([...seq("err"), "sub-err"]);
  });

  it("RSC-3 large output stays in its file: both streams cut to the budget, head and tail kept, the files named", async () => {
    const { t } = workspace();
    const r = await rsc(t, { command: "seq 1 400000; seq 1 100000 | sed 's/^/e/' >&2" });
    expect(r.s.stdoutTruncated).toBe(true);
    expect(r.s.stderrTruncated).toBe(true);
    expect(r.s.stdout.length + r.s.stderr.length).toBeLessThanOrEqual(30_000);
    expect(r.s.stdout.startsWith("1\n2\n3\n")).toBe(true);
    expect(r.s.stdout.endsWith("399999\n400000\n")).toBe(true);
    expect(r.s.stderr.endsWith("e100000\n")).toBe(true);
    expect(r.s.stdout).toContain(`Full output (${(r.s.stdoutBytes / 1024 / 1024).toFixed(1)} MiB): ${r.s.stdoutPath}`);
    expect(readFileSync(r.s.stdoutPath!, "utf8").length).toBe(r.s.stdoutBytes);
    expect(r.s.stdoutBytes).toBe(2_688_895);
  });

  it("RSC-3 the budget: small streams whole, a small stream beside a large one whole, two large ones 2:1", () => {
    expect(outputBudget(100, 100)).toEqual({ stdout: 30_000, stderr: 30_000 });
    expect(outputBudget(1_000_000, 500)).toEqual({ stdout: 29_500, stderr: 30_000 });
    expect(outputBudget(400, 1_000_000)).toEqual({ stdout: 30_000, stderr: 29_600 });
    expect(outputBudget(1_000_000, 1_000_000)).toEqual({ stdout: 20_000, stderr: 10_000 });
  });
});

describe("RSC-4 each error is reported clearly, and differently", () => {
  // Without a sandbox: inside one, a shell killed by a signal reads as exit status 128+N (bwrap's report).
  it("RSC-4 unknown command, syntax error, non-zero exit, not executable, signal, timeout, out of resources", async () => {
    const { t, root } = workspace(NO_SANDBOX);
    writeFileSync(path.join(root, "script.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(path.join(root, "script.sh"), 0o644);
    const marker = path.join(root, "ran-before-syntax-error");
    const cases: Array<[Record<string, unknown>, string, RegExp, Partial<RunShellCommandStructured>]> = [
      [{ command: "wave-no-such-tool --version" }, "command_not_found", /^Command not found \(exit code 127\): `wave-no-such-tool` is not installed or not on PATH\./, { exitCode: 127 }],
      [{ command: "./missing.sh" }, "command_not_found", /^Command not found \(exit code 127\): `\.\/missing\.sh` does not exist\./, { exitCode: 127 }],
      [
        { command: `touch ${marker}; if true; then echo` },
        "syntax_error",
        /^Syntax error: bash cannot parse the command, so nothing ran \(line \d+: syntax error: unexpected end of file\)\./,
        { exitCode: null, pgid: null },
      ],
      [{ command: "echo 'unterminated" }, "syntax_error", /unexpected EOF while looking for matching `''/, { exitCode: null }],
      [{ command: "echo partial; exit 5" }, "command_failed", /^Command exited with code 5\.$/, { exitCode: 5, stdout: "partial\n" }],
      [
        { command: "./script.sh" },
        "not_executable",
        /^Permission denied \(exit code 126\): `\.\/script\.sh` was found but could not be executed \(Permission denied\)\. Make it executable \(chmod \+x\)/,
        { exitCode: 126 },
      ],
      [
        { command: "echo before; kill -KILL $$" },
        "command_killed",
        /^Command was killed by signal 9 \(SIGKILL\) before it finished\. SIGKILL comes from/,
        { exitCode: null, signal: 9, signalName: "SIGKILL", stdout: "before\n" },
      ],
      [{ command: "sleep 0.01; kill -SEGV $$" }, "command_killed", /^Command was killed by signal 11 \(SIGSEGV\) before it finished\. SIGSEGV is a crash/, { exitCode: null, signal: 11 }],
      [{ command: "sh -c 'kill -TERM $$'; exit $?" }, "command_failed", /^Exit code 143: a process of the command was probably killed by signal 15 \(SIGTERM\)\.$/, { exitCode: 143, signal: null }],
      [
        { command: "ulimit -n 4; echo x > a.txt; echo y > b.txt" },
        "out_of_resources",
        /^The system ran out of resources \(exit code 1\): `.*Too many open files`\. Too many files are open/,
        { exitCode: 1 },
      ],
      [
        { command: "ulimit -f 1; head -c 100000 /dev/zero > big.bin" },
        "out_of_resources",
        /^(The system ran out of resources \(exit code 153\): `.*File size limit exceeded.*`\. Free disk space|Exit code 153: a process of the command was killed by signal 25 \(SIGXFSZ\), a resource limit)/,
        { exitCode: 153 },
      ],
    ];
    const kinds = new Set<string>();
    const messages = new Set<string>();
    for (const [args, kind, message, fields] of cases) {
      const r = await rsc(t, args);
      expect(r.isError, String(args.command)).toBe(true);
      expect(r.s.errorKind, String(args.command)).toBe(kind);
      expect(r.s.error, String(args.command)).toMatch(message);
      expect(r.s, String(args.command)).toMatchObject(fields);
      expect(field(r.text, "Error")).toBe(r.s.error);
      expect(field(r.text, "Exit Code")).toBe(r.s.exitCode === null ? "(none)" : String(r.s.exitCode));
      kinds.add(kind);
      messages.add(r.s.error!);
    }
    expect(existsSync(marker)).toBe(false);
    expect(kinds.size).toBe(6);
    expect(messages.size).toBe(cases.length);
  });

  it("RSC-4 a timeout kills the whole tree, background processes included, and the result says so", async () => {
    const { t } = workspace();
    const r = await rsc(t, { command: "echo started; sleep 300 & bash -c 'trap \"\" TERM; sleep 301' & sleep 302", timeout: 400 });
    expect(r.isError).toBe(true);
    expect(r.s).toMatchObject({ errorKind: "timeout", timedOut: true, exitCode: null, backgroundPids: [], stdout: "started\n", timeoutMs: 400 });
    expect(r.s.error).toMatch(/^Command timed out after 0\.4 s and was killed with every process it started \(SIGTERM, then SIGKILL a second later\)\./);
    expect(field(r.text, "Signal")).toMatch(/^(15 \(SIGTERM\)|9 \(SIGKILL\))$/);
    expect(ourProcesses()).toEqual([]);
  });

  it("RSC-4 a cancelled call stops the tree and returns what was printed", async () => {
    const { t } = workspace();
    const ctl = new AbortController();
    const pending = rsc(t, { command: "echo so-far; sleep 300 & sleep 301" }, { signal: ctl.signal });
    expect(await waitFor(() => ourProcesses().filter((p) => p.command === "sleep 301").length === 1)).toBe(true);
    ctl.abort(new Error("user pressed stop"));
    const r = await pending;
    expect(r.s).toMatchObject({ errorKind: "aborted", interrupted: true, stdout: "so-far\n" });
    expect(r.s.error).toMatch(/^Command was cancelled \(user pressed stop\); it and every process it started were stopped\./);
    expect(ourProcesses()).toEqual([]);
  });
});

describe("RSC progress: the latest output about once a second", () => {
  it("RSC progress: updates carry the output tail, at most one per second of run time", async () => {
    const { t } = workspace();
    const r = await t.call("run_shell_command", { command: "for i in $(seq 1 60); do echo line$i; echo warn$i >&2; sleep 0.05; done" }, { callId: "p1" });
    const s = r.structuredContent as RunShellCommandStructured;
    const updates = t.events.filter((e) => e.method === "tool/progress" && e.params.callId === "p1").map((e) => e.params as { message: string; progress: number });
    // The loop prints for about three seconds: some updates came, never more than one per second.
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(Math.floor(s.durationMs / 1000) + 1);
    for (const u of updates) expect(u.message).toMatch(/line\d+\n\[stderr\]\n(.*\n)*warn\d+$/);
    const seconds = updates.map((u) => u.progress);
    expect([...seconds].sort((a, b) => a - b)).toEqual(seconds);
    expect(new Set(seconds).size).toBe(seconds.length);
    // Each update shows at most the last 20 lines of each stream.
    for (const u of updates) expect(u.message.split("\n").length).toBeLessThanOrEqual(41);
  });
});

describe("RSC live output for the tool window", () => {
  it("RSC the host is told the stdout and stderr files while the command runs (tool/output), and they fill as it prints", async () => {
    const { t } = workspace();
    const pending = t.call("run_shell_command", { command: "echo out1; echo err1 >&2; sleep 1; echo out2" }, { callId: "l1" });
    expect(await waitFor(() => t.events.some((e) => e.method === "tool/output" && e.params.callId === "l1"))).toBe(true);
    const live = t.events.find((e) => e.method === "tool/output")!.params as { outputPath: string; stderrPath: string };
    expect(await waitFor(() => readFileSync(live.outputPath, "utf8") === "out1\n" && readFileSync(live.stderrPath, "utf8") === "err1\n")).toBe(true);
    const s = (await pending).structuredContent as RunShellCommandStructured;
    expect(s.stdout).toBe("out1\nout2\n");
  });
});

describe("RSC-5 the user approves before anything runs", () => {
  it("RSC-5 asks with the command, description, directory (resolved against the root) and warnings; deny runs nothing", async () => {
    const t = testCore({ permissions: await parsePolicy({ mode: "ask" }) });
    mkdirSync(path.join(t.root, "sub"));
    mkdirSync(path.join(t.root, "sub", "sub"));
    await t.core.callTool({ name: "Bash", arguments: { command: "cd sub" }, origin: "host", asker: async () => ({ decision: "allow-once" }) });
    const prompts: PermissionPrompt[] = [];
    const marker = path.join(t.root, "ran");
    const r = await t.core.callTool({
      name: "run_shell_command",
      arguments: { command: `touch ${marker} && rm -rf ~/old`, directory: "sub", description: "tidy" },
      origin: "host",
      asker: async (prompt) => {
        prompts.push(prompt);
        return { decision: "deny", message: "not my home" };
      },
    });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({
      tool: "run_shell_command",
      kind: "command",
      command: `touch ${marker} && rm -rf ~/old`,
      description: "tidy",
      directory: path.join(t.root, "sub"),
      warnings: [{ id: "delete-outside-workspace" }],
    });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toMatch(/^Permission denied: the user did not allow run_shell_command to run `touch .*`\. The user said: not my home\./);
    expect(existsSync(marker)).toBe(false);
  });

  it("RSC-5 a command that cannot run is refused without a question; allow rules let a command run without one", async () => {
    // No sandbox: inside one, a command without warnings runs without a question anyway.
    const t = testCore({ permissions: await parsePolicy({ mode: "ask", allow: ["echo:*", "printf:*"] }), sandbox: NO_SANDBOX });
    let asked = 0;
    const asker = async () => {
      asked++;
      return { decision: "allow-once" as const };
    };
    const call = (args: Record<string, unknown>) => t.core.callTool({ name: "run_shell_command", arguments: args, origin: "host", asker });
    expect(((await call({ command: "make", directory: "/etc" })).structuredContent as RunShellCommandStructured).errorKind).toBe("invalid_argument");
    expect(((await call({ command: "make; if" })).structuredContent as RunShellCommandStructured).errorKind).toBe("syntax_error");
    expect(asked).toBe(0);
    const ok = (await call({ command: "echo hi | sed s/hi/ho/" })).structuredContent as RunShellCommandStructured;
    expect(asked).toBe(1);
    expect(ok.stdout).toBe("ho\n");
    expect(((await call({ command: "echo a && printf b" })).structuredContent as RunShellCommandStructured).stdout).toBe("a\nb");
    expect(asked).toBe(1);
  });
});
