import { describe, expect, it } from "vitest";
import { explainEnding, signalName, signalNumber, type Ending } from "./explain.js";
import { spawnFailureKind } from "../base/toolErrors.js";

const ending = (e: Partial<Ending>): Ending => ({ exitCode: 0, signal: null, timedOut: false, timeoutMs: 120_000, stderrTail: "", ...e });

describe("explainEnding (RSC-4)", () => {
  it.each<[string, Partial<Ending>, string | undefined, RegExp | undefined]>([
    ["success", {}, undefined, undefined],
    ["timeout wins over the signal it caused", { timedOut: true, signal: "SIGTERM", exitCode: null, timeoutMs: 2500 }, "timeout", /^Command timed out after 2\.5 s and was killed/],
    ["cancelled", { cancelled: "user stop", signal: "SIGTERM", exitCode: null }, "aborted", /^Command was cancelled \(user stop\)/],
    ["killed by a signal", { signal: "SIGKILL", exitCode: null }, "command_killed", /^Command was killed by signal 9 \(SIGKILL\) before it finished\. SIGKILL comes from .*out-of-memory killer\.$/],
    ["file size limit signal", { signal: "SIGXFSZ", exitCode: null }, "out_of_resources", /signal 25 \(SIGXFSZ\): it ran out of resources \(the file size limit/],
    [
      "command not found",
      { exitCode: 127, stderrTail: "bash: line 1: frobnicate: command not found" },
      "command_not_found",
      /^Command not found \(exit code 127\): `frobnicate` is not installed or not on PATH\./,
    ],
    ["missing script", { exitCode: 127, stderrTail: "bash: line 1: ./run.sh: No such file or directory" }, "command_not_found", /`\.\/run\.sh` does not exist/],
    ["127 without evidence", { exitCode: 127 }, "command_not_found", /^Command not found \(exit code 127, bash's status/],
    [
      "a library that cannot load for lack of descriptors is not 'not found'",
      { exitCode: 127, stderrTail: "cat: error while loading shared libraries: libc.so.6: cannot open shared object file: Error 24" },
      "out_of_resources",
      /Too many files are open/,
    ],
    [
      "not executable",
      { exitCode: 126, stderrTail: "bash: line 1: ./x.sh: Permission denied" },
      "not_executable",
      /^Permission denied \(exit code 126\): `\.\/x\.sh` was found but could not be executed \(Permission denied\)/,
    ],
    ["a directory", { exitCode: 126, stderrTail: "bash: line 1: ./src: Is a directory" }, "not_executable", /\(Is a directory\)/],
    [
      "syntax error at run time",
      { exitCode: 2, stderrTail: "bash: -c: line 3: syntax error near unexpected token `)'" },
      "syntax_error",
      /^Syntax error \(exit code 2\): `bash: -c: line 3: syntax error near unexpected token `\)'`/,
    ],
    ["exit 2 without a syntax error", { exitCode: 2, stderrTail: "ls: cannot access 'x'" }, "command_failed", /^Command exited with code 2\.$/],
    ["fork failure", { exitCode: 254, stderrTail: "bash: fork: retry: Resource temporarily unavailable" }, "out_of_resources", /Too many processes are running/],
    ["disk full", { exitCode: 1, stderrTail: "cp: error writing 'x': No space left on device" }, "out_of_resources", /Free disk space/],
    ["memory", { exitCode: 134, stderrTail: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory" }, "out_of_resources", /Free memory/],
    ["a child killed by SIGKILL", { exitCode: 137 }, "command_failed", /^Exit code 137: a process of the command was probably killed by signal 9 \(SIGKILL\)\./],
    ["a child over the file size limit", { exitCode: 153 }, "out_of_resources", /signal 25 \(SIGXFSZ\), a resource limit/],
    ["a plain failure", { exitCode: 1 }, "command_failed", /^Command exited with code 1\.$/],
    ["exit 200 is no signal", { exitCode: 200 }, "command_failed", /^Command exited with code 200\.$/],
  ])("%s", (_name, e, kind, message) => {
    const f = explainEnding(ending(e));
    expect(f?.kind).toBe(kind);
    if (message) expect(f?.message).toMatch(message);
  });

  it("maps signal names and numbers, and spawn error codes", () => {
    expect(signalNumber("SIGTERM")).toBe(15);
    expect(signalNumber(null)).toBeNull();
    expect(signalName(9)).toBe("SIGKILL");
    expect(["EAGAIN", "ENOMEM", "EMFILE", "ENFILE", "ENOSPC"].map(spawnFailureKind)).toEqual(Array(5).fill("out_of_resources"));
    expect(spawnFailureKind("spawn /bin/bash EAGAIN")).toBe("out_of_resources");
    expect(spawnFailureKind("ENOENT")).toBe("spawn_failed");
    expect(spawnFailureKind(undefined)).toBe("spawn_failed");
  });
});
