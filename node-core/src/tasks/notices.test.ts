import { describe, expect, it } from "vitest";
import { formatTaskNotice, formatTaskNotices } from "./notices.js";
import type { TaskInfo } from "./manager.js";

const base: TaskInfo = {
  taskId: "b1a2b3c",
  sessionId: "main",
  command: "npm test",
  origin: "background",
  status: "completed",
  startedAt: "2026-01-01T00:00:00.000Z",
  endedAt: "2026-01-01T00:01:00.000Z",
  runtimeMs: 60_000,
  exitCode: 0,
  signal: null,
  outputPath: "/tmp/wave-core-me/1-abcd/b1a2b3c.log",
  survivors: [],
};

describe("task notices", () => {
  it("BASH-BG-6 say which task ended, how, and where its output is", () => {
    expect(formatTaskNotice(base)).toBe("Background task b1a2b3c completed (exit code 0): npm test. Output: /tmp/wave-core-me/1-abcd/b1a2b3c.log");
    expect(formatTaskNotice({ ...base, status: "failed", exitCode: 2 })).toContain("failed (exit code 2)");
    expect(formatTaskNotice({ ...base, status: "failed", exitCode: null, signal: "SIGSEGV" })).toContain("was killed by SIGSEGV");
    expect(formatTaskNotice({ ...base, status: "killed", exitCode: null, signal: "SIGTERM" })).toContain("was stopped by the user");
    expect(formatTaskNotice({ ...base, survivors: [{ pid: 42, command: "node server.js" }] })).toMatch(/Still running after it ended: 42 \(node server\.js\)$/);
    expect(formatTaskNotice({ ...base, command: "a\nb" + "x".repeat(200) })).toMatch(/: a ⏎ bx+…\. Output/);
    expect(formatTaskNotices([base, { ...base, taskId: "b9" }]).split("\n")).toHaveLength(4);
  });
});
