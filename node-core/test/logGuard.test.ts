// The check that keeps a passing run free of core log lines (test/support/logs.ts): a test that
// lets one reach the console fails, naming the line; a test that claims and asserts it passes.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const NODE_CORE = path.join(__dirname, "..");
const CONFIG = path.join(__dirname, "fixtures", "log-guard", "vitest.config.mts");

describe("the log guard", () => {
  it("fails a test that lets a core log line reach the console and passes one that captures it", () => {
    const vitest = path.join(NODE_CORE, "..", "node_modules", "vitest", "vitest.mjs");
    const run = spawnSync(process.execPath, [vitest, "run", "--config", CONFIG, "--reporter=json"], { cwd: NODE_CORE, encoding: "utf8", timeout: 60_000 });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as {
      testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
    };
    const results = report.testResults.flatMap((f) => f.assertionResults);
    expect(results.map((r) => [r.title.split(":")[0], r.status])).toEqual([
      ["fails", "failed"],
      ["fails", "failed"],
      ["passes", "passed"],
      ["passes", "passed"],
    ]);
    expect(results[0]!.failureMessages.join("\n")).toContain(
      'The test "fails: a warning reaches the console" let 1 core log line reach the console. Claim them with captureLogs() (test/support/logs.ts) and assert them:\n  [wave-core] WARN fixture: disk nearly full {"free":1}',
    );
    expect(results[1]!.failureMessages.join("\n")).toContain("[wave-core] ERROR fixture: tool threw");
    // Nothing reached the console itself.
    expect(run.stderr).not.toContain("[wave-core]");
    expect(run.status).toBe(1);
  });
});
