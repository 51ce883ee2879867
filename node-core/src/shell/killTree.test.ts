import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive, processesWithEnv, waitFor } from "../../test/support/processes.js";
import { addLogSink, type LogRecord } from "../util/log.js";
import { captureLogs } from "../../test/support/logs.js";
import { decodeConsoleOutput, parseChcp } from "./consoleText.js";
import { killTree, TASKKILL_NOT_FOUND } from "./killTree.js";
import type { ExecOutcome } from "../util/platform.js";
import { platformWith } from "../../test/support/platform.js";

const logs: LogRecord[] = [];
const unsubscribe = addLogSink((r) => logs.push(r));
afterEach(() => {
  logs.length = 0;
});
process.on("exit", unsubscribe);

let seq = 0;
/** Starts `bash -c script` as its own process group, tagged with a fresh marker. */
function startTree(script: string) {
  const marker = `killtest-${process.pid}-${++seq}`;
  const child = spawn("bash", ["-c", script], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, WAVE_RUN_ID: marker },
  });
  return { child, marker, pid: child.pid! };
}

function tagged(marker: string) {
  return processesWithEnv("WAVE_RUN_ID", marker);
}

function pgidOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

// A three-level tree in which every level ignores SIGTERM.
const TERM_IGNORING_TREE = `trap '' TERM; bash -c 'trap "" TERM; bash -c "trap \\"\\" TERM; sleep 300" & sleep 300' & sleep 300 & wait`;

describe("process-tree termination (POSIX, real processes)", () => {
  it("BASH-KILL-1 stops the shell and all its descendants, never just the shell", async () => {
    const t = startTree(`node -e 'const {spawn}=require("child_process"); spawn("sleep",["300"],{stdio:"ignore"}); spawn("sleep",["301"],{stdio:"ignore"}); setInterval(()=>{},1000)' & wait`);
    // Four processes may be there before the last forked child has exec'd `sleep 301`: wait for what is checked.
    const before = await waitFor(() => {
      const procs = tagged(t.marker);
      return procs.length >= 4 && procs.some((p) => p.command === "sleep 301") ? procs : undefined;
    });
    expect(before!.map((p) => p.command).join("\n")).toMatch(/sleep 301/);
    const report = await killTree({ pid: t.pid, label: "test tree" });
    expect(report.forced).toBe(false);
    expect(tagged(t.marker)).toEqual([]);
    for (const p of before!) expect(isAlive(p.pid)).toBe(false);
  });

  it("BASH-KILL-2 signals the process group: SIGTERM, then SIGKILL one second later", async () => {
    const t = startTree(TERM_IGNORING_TREE);
    expect(pgidOf(t.pid)).toBe(t.pid); // detached: the shell leads its own group
    await waitFor(() => tagged(t.marker).length >= 5);
    const sent: Array<{ target: number; sig: string; at: number }> = [];
    const report = await killTree({ pid: t.pid, label: "term-ignoring tree" }, { sendSignal: (target, sig) => (sent.push({ target, sig, at: Date.now() }), process.kill(target, sig)) });
    expect(report.forced).toBe(true);
    expect(tagged(t.marker)).toEqual([]);
    // The group is addressed as a group, TERM first; KILL follows after the one-second grace.
    expect(sent[0]).toMatchObject({ target: -t.pid, sig: "SIGTERM" });
    const firstKill = sent.find((s) => s.sig === "SIGKILL")!;
    expect(firstKill.target).toBe(-t.pid);
    expect(firstKill.at - sent[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("BASH-KILL-2 also stops descendants that left the group (setsid) through the marker", async () => {
    const t = startTree(`setsid sleep 300 & setsid bash -c 'sleep 301 & wait' & sleep 302 & wait`);
    const procs = await waitFor(() => (tagged(t.marker).length >= 5 ? tagged(t.marker) : undefined));
    expect(procs!.some((p) => pgidOf(p.pid) !== t.pid)).toBe(true);
    await killTree({ pid: t.pid, marker: { runId: t.marker }, label: "escaping tree" });
    expect(tagged(t.marker)).toEqual([]);
  });

  it("BASH-KILL-2 finds re-parented survivors of an exited shell by marker alone", async () => {
    const t = startTree(`setsid sleep 300 & exit 0`);
    await new Promise((r) => t.child.once("exit", r));
    // An empty list is no answer yet: mid-exec, a process's environment cannot be read.
    const left = await waitFor(() => (tagged(t.marker).length > 0 ? tagged(t.marker) : undefined));
    expect(left?.length).toBe(1);
    await killTree({ pid: undefined, marker: { prefix: t.marker }, label: "stragglers" });
    expect(tagged(t.marker)).toEqual([]);
  });

  it("BASH-KILL-6 a target that is already gone is not an error: debug log only", async () => {
    const t = startTree("exit 0");
    await new Promise((r) => t.child.once("exit", r));
    const report = await killTree({ pid: t.pid, label: "gone" });
    expect(report.signalled).toBe(0);
    expect(logs.filter((l) => l.level === "error")).toEqual([]);
    expect(logs.some((l) => l.level === "debug" && l.message === "nothing left to stop")).toBe(true);
  });

  it("BASH-KILL-6 a process that vanishes between scan and signal is logged at debug", async () => {
    const t = startTree("sleep 300");
    await waitFor(() => tagged(t.marker).length === 1);
    const report = await killTree(
      { pid: t.pid, label: "racy" },
      {
        sendSignal: (target, sig) => {
          process.kill(target, "SIGKILL");
          const err = Object.assign(new Error("kill ESRCH"), { code: "ESRCH" });
          if (sig === "SIGTERM") throw err;
        },
      },
    );
    expect(report.remaining).toEqual([]);
    expect(logs.some((l) => l.level === "debug" && l.message === "process already gone")).toBe(true);
    expect(logs.filter((l) => l.level === "error")).toEqual([]);
  });

  it("BASH-KILL-7 a failed termination is logged at error level with the process and falls back to the direct child", async () => {
    const printed = captureLogs();
    const t = startTree("sleep 300");
    await waitFor(() => tagged(t.marker).length === 1);
    let fallback: string | undefined;
    const report = await killTree(
      { pid: t.pid, label: "command `sleep 300`", killDirectChild: (sig) => ((fallback = sig), t.child.kill(sig)) },
      {
        graceMs: 50,
        sendSignal: () => {
          throw Object.assign(new Error("kill EPERM"), { code: "EPERM" });
        },
      },
    );
    expect(report).toBeDefined();
    const err = logs.find((l) => l.level === "error" && l.message === "could not signal a process of the tree");
    expect(err?.fields).toMatchObject({ target: "command `sleep 300`", code: "EPERM" });
    expect(fallback).toBe("SIGKILL");
    expect(printed.lines()).toEqual(["ERROR kill: could not signal a process of the tree", "ERROR kill: processes of the tree survived SIGKILL"]);
    await waitFor(() => !isAlive(t.pid));
    expect(isAlive(t.pid)).toBe(false);
  });
});

describe("process-tree termination on Windows (injected taskkill, recorded outputs)", () => {
  const gbk = (hex: string) => Buffer.from(hex, "hex");
  // Recorded from a Chinese Windows (code page 936).
  const NOT_FOUND_GBK = gbk("b4edcef33a20c3bbd3d0d5d2b5bdbdf8b3cc20223432343222a1a30d0a"); // 错误: 没有找到进程 "4242"。
  const ACCESS_DENIED_GBK = gbk("b4edcef33a20cedeb7a8d6d5d6b92050494420ceaa203432343220b5c4bdf8b3cca1a30d0ad4add2f23a20bedcbef8b7c3cecaa1a30d0a");

  function windows(outcome: ExecOutcome) {
    const calls: Array<{ file: string; args: string[] }> = [];
    const platform = platformWith({
      name: "win32",
      exec: async (file, args) => {
        calls.push({ file, args });
        return outcome;
      },
    });
    return { platform, calls };
  }

  it("BASH-KILL-3 runs taskkill /PID <pid> /T /F once", async () => {
    const w = windows({ exitCode: 0, stdout: Buffer.from("SUCCESS"), stderr: Buffer.alloc(0) });
    const report = await killTree({ pid: 4242, label: "bash.exe" }, { platform: w.platform, codePage: 936 });
    expect(w.calls).toEqual([{ file: "taskkill", args: ["/PID", "4242", "/T", "/F"] }]);
    expect(report.forced).toBe(true);
  });

  it("BASH-KILL-6 taskkill exit 128 means not found: debug log with the decoded message, no error", async () => {
    const w = windows({ exitCode: TASKKILL_NOT_FOUND, stdout: Buffer.alloc(0), stderr: NOT_FOUND_GBK });
    let fallback = false;
    await killTree({ pid: 4242, label: "bash.exe", killDirectChild: () => (fallback = true) }, { platform: w.platform, codePage: 936 });
    const debug = logs.find((l) => l.message === "taskkill: the process no longer exists");
    expect(debug?.level).toBe("debug");
    expect(debug?.fields?.output).toBe('错误: 没有找到进程 "4242"。');
    expect(logs.filter((l) => l.level === "error")).toEqual([]);
    expect(fallback).toBe(false);
  });

  it("BASH-KILL-7 other taskkill failures are errors with the GBK output decoded, then the direct child is killed", async () => {
    const printed = captureLogs();
    const w = windows({ exitCode: 1, stdout: Buffer.alloc(0), stderr: ACCESS_DENIED_GBK });
    let fallback: string | undefined;
    await killTree({ pid: 4242, label: "bash.exe (npm test)", killDirectChild: (s) => (fallback = s) }, { platform: w.platform, codePage: 936 });
    const err = logs.find((l) => l.level === "error");
    expect(err?.message).toBe("taskkill failed");
    expect(err?.fields).toMatchObject({ pid: 4242, target: "bash.exe (npm test)", exitCode: 1 });
    expect(err?.fields?.output).toBe("错误: 无法终止 PID 为 4242 的进程。\r\n原因: 拒绝访问。");
    expect(printed.lines()).toEqual(["ERROR kill: taskkill failed"]);
    expect(fallback).toBe("SIGKILL");
  });

  it("BASH-KILL-7 taskkill that cannot start is an error and falls back; killTree never throws", async () => {
    const printed = captureLogs();
    const enoent = Object.assign(new Error("spawn taskkill ENOENT"), { code: "ENOENT" });
    const w = windows({ exitCode: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: enoent });
    let fallback = false;
    await expect(killTree({ pid: 7, label: "x", killDirectChild: () => (fallback = true) }, { platform: w.platform })).resolves.toBeDefined();
    expect(logs.find((l) => l.level === "error")?.message).toBe("taskkill could not run");
    expect(printed.lines()).toEqual(["ERROR kill: taskkill could not run"]);
    expect(fallback).toBe(true);
  });

  it("decodes console output: UTF-8 when valid, else the code page (GBK), chcp parsing", async () => {
    expect(await decodeConsoleOutput(gbk("b3c9b9a63a20d2d1d6d5d6b92050494420313233"), 936)).toBe("成功: 已终止 PID 123");
    expect(await decodeConsoleOutput(gbk("b3c9b9a63a20d2d1d6d5d6b92050494420313233"), undefined)).toBe("成功: 已终止 PID 123");
    expect(await decodeConsoleOutput(Buffer.from("hello 世界"), 936)).toBe("hello 世界");
    expect(await decodeConsoleOutput(Buffer.from([0x82]), 437)).toBe("é");
    expect(parseChcp("Active code page: 936\r\n")).toBe(936);
    expect(parseChcp(await decodeConsoleOutput(gbk("bbeeb6afb4fac2ebd2b33a20393336"), 936))).toBe(936);
  });
});
