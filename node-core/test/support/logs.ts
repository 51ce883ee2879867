// The core's log lines in tests. The setup file (test/support/logSetup.ts) takes every record
// that would reach stderr; a test that provokes some claims them with captureLogs() and asserts
// them, and any other fails its test with the lines listed, so a passing run prints none.
import { afterAll, afterEach, beforeEach } from "vitest";
import { setConsoleSink, type LogRecord } from "../../src/util/log.js";

export interface CapturedLogs {
  /** Every record that reached the console level since the capture began. */
  readonly records: LogRecord[];
  /** `LEVEL scope: message` of each, the line stderr would have shown without the fields. */
  lines(): string[];
}

interface Capture {
  logs: CapturedLogs;
  /** Only lines matching one of these are claimed (all when empty). */
  only: RegExp[];
}

let testCaptures: Capture[] = [];
const fileCaptures: Capture[] = [];
/** Unclaimed lines of the running test, and of the file's hooks outside any test. */
let leakedInTest: LogRecord[] = [];
const leakedInFile: LogRecord[] = [];
let inTest = false;

const lineOf = (r: LogRecord) => `${r.level.toUpperCase()} ${r.scope}: ${r.message}`;

function newCapture(): CapturedLogs {
  const records: LogRecord[] = [];
  return { records, lines: () => records.map(lineOf) };
}

/**
 * Claims the core's console log lines of the running test — only those matching `only`, when
 * given (`INFO scope: message`). Called outside a test (at the top of a file), it claims them for
 * the whole file: for a line most of its tests provoke as a side effect; give the patterns then,
 * so any other line still fails its test.
 */
export function captureLogs(...only: RegExp[]): CapturedLogs {
  const logs = newCapture();
  (inTest ? testCaptures : fileCaptures).push({ logs, only });
  return logs;
}

function route(record: LogRecord): void {
  const line = lineOf(record);
  const claimed = [...testCaptures, ...fileCaptures].filter((c) => c.only.length === 0 || c.only.some((re) => re.test(line)));
  if (claimed.length === 0) (inTest ? leakedInTest : leakedInFile).push(record);
  for (const c of claimed) c.logs.records.push(record);
}

function report(where: string, leaked: LogRecord[]): void {
  const lines = leaked.map((r) => `  [wave-core] ${lineOf(r)}${r.fields && Object.keys(r.fields).length ? " " + safe(r.fields) : ""}`);
  if (lines.length > 0) {
    throw new Error(
      `${where} let ${lines.length} core log line${lines.length === 1 ? "" : "s"} reach the console. Claim them with captureLogs() (test/support/logs.ts) and assert them:\n${lines.slice(0, 20).join("\n")}`,
    );
  }
}

function safe(fields: Record<string, unknown>): string {
  try {
    return JSON.stringify(fields, (_k, v) => (v instanceof Error ? v.message : v)).slice(0, 500);
  } catch {
    return "[unserialisable]";
  }
}

/** Installed once per test file by the setup file. */
export function installLogGuard(): void {
  setConsoleSink(route);
  beforeEach(() => {
    // Lines logged between tests (a previous test's core shutting down) belong to the file.
    inTest = true;
  });
  afterEach((ctx) => {
    inTest = false;
    testCaptures = [];
    const leaked = leakedInTest;
    leakedInTest = [];
    report(`The test "${ctx.task.name}"`, leaked);
  });
  afterAll(() => report("This file's hooks (outside any test)", leakedInFile.splice(0)));
}

/**
 * The audit line a command with warnings logs when the mode lets it run without asking
 * (permissions/service.ts; asserted by the permission tests). Files whose commands carry warnings
 * only as a side effect (writes outside, `trap`, /dev/tcp) claim it for the whole file.
 */
export const ALLOWED_DESPITE_WARNINGS = /^INFO permissions: allowed despite warnings$/;

/** The sandbox service's announcements: its status changed, or no OS sandbox works here (shell/sandbox/service.ts). */
export const SANDBOX_STATUS_LINE = /^INFO sandbox: (the sandbox status changed|no OS sandbox: shell commands run unsandboxed)$/;
