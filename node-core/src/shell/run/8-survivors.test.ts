// Each survivor strategy on its own, on real runs: real bash, real bwrap, real processes left behind.
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ALLOWED_DESPITE_WARNINGS, captureLogs } from "../../../test/support/logs.js";
import { closeCores, ourProcesses, testCore } from "../../../test/support/core.js";
import { bwrapWorks, tempDir, waitFor } from "../../../test/support/processes.js";
import { hostPlatform } from "../../util/platform.js";
import { ShellEngine } from "../engine.js";
import { PROCESS_TOKEN, processOutputDir } from "../outputDir.js";
import { lastAllocatedPid, linuxProcessTable, procCommandLine } from "../processTable.js";
import type { RunSpec } from "./1-request.js";
import { RUNS } from "./2-session.js";
import { startShellRun } from "./4-launcher.js";
import type { ShellRun } from "./7-handle.js";
import { inSandboxNamespace, markedAmongNewPids, markedTree, nothingStartedSince, type SurvivorScan } from "./8-survivors.js";

captureLogs(ALLOWED_DESPITE_WARNINGS);

const engine = new ShellEngine();
const started: ShellRun[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.stop()));
  await closeCores();
});
afterAll(async () => {
  engine.dispose();
  expect(await waitFor(() => ourProcesses().length === 0, 5000)).toBe(true);
});

let seq = 0;
async function ended(command: string, extra: Partial<RunSpec> = {}): Promise<{ run: ShellRun; scan: SurvivorScan }> {
  const runId = `${PROCESS_TOKEN}.survivors.${++seq}`;
  const run = await startShellRun({ command, cwd: tempDir(), runId, outputPath: path.join(processOutputDir(), `survivors-${seq}.log`), trackCwd: false, shimsEnabled: false, engine, ...extra });
  started.push(run);
  await run.exited;
  return { run, scan: run.survivorScan()! };
}

const commands = (pids: number[] | undefined) => pids?.map((p) => procCommandLine(p));
const table = linuxProcessTable;

describe.runIf(hostPlatform().name === "linux")("survivor strategies, each on its own", () => {
  it("markedTree finds what stayed in the group and what left it, by the run's marker; nothing for a clean run", async () => {
    const grouped = await ended("sleep 311 & echo x");
    expect(commands(await markedTree(grouped.scan, table))).toEqual(["sleep 311"]);
    const escaped = await ended("setsid sleep 312 & echo x");
    expect(commands(await markedTree(escaped.scan, table))).toEqual([expect.stringMatching(/^(setsid )?sleep 312$/)]);
    const clean = await ended("echo clean");
    expect(await markedTree(clean.scan, table)).toEqual([]);
  });

  it("markedAmongNewPids answers only once the group is empty, from the pids handed out since", async () => {
    const grouped = await ended("sleep 313 & echo x");
    expect(markedAmongNewPids(grouped.scan, table)).toBeUndefined();
    const escaped = await ended("setsid sleep 314 & echo x");
    await waitFor(() => escaped.run.pid !== undefined && !groupAlive(escaped.run.pid));
    expect(commands(markedAmongNewPids(escaped.scan, table) as number[])).toEqual([expect.stringMatching(/^(setsid )?sleep 314$/)]);
    // Too old for the pid range to be trusted: it does not answer.
    expect(markedAmongNewPids({ ...escaped.scan, durationMs: 60_000 }, table)).toBeUndefined();
  });

  it("nothingStartedSince answers none only while no pid was handed out after the floor", async () => {
    const { scan } = await ended("true");
    // Other programs on the machine take pids too: the floor is read now, just before asking.
    let answer: number[] | undefined;
    for (let i = 0; i < 20 && answer === undefined; i++) answer = nothingStartedSince({ ...scan, pidFloor: lastAllocatedPid()! }, table) as number[] | undefined;
    expect(answer).toEqual([]);
    expect(nothingStartedSince({ ...scan, pidFloor: lastAllocatedPid()! - 1 }, table)).toBeUndefined();
  });

  it("inSandboxNamespace is for sandboxed runs only", async () => {
    const { scan } = await ended("true");
    expect(inSandboxNamespace(scan, table)).toBeUndefined();
  });

  it.runIf(bwrapWorks())("inSandboxNamespace finds a sandboxed run's survivors below its namespace's reaper, and none once it is empty", async () => {
    const t = testCore();
    await t.bash({ command: "true" });
    const sandbox = (await waitFor(() => t.core.sessions.main.service(RUNS).ahead.waiting))!.spec.sandbox!;
    const left = await ended("sleep 315 & echo x", { sandbox, cwd: t.root });
    expect(left.scan.sandboxed).toBe(true);
    expect(commands(inSandboxNamespace(left.scan, table) as number[])).toEqual(["sleep 315"]);
    await left.run.stop();
    expect(inSandboxNamespace(left.scan, table)).toEqual([]);
    const clean = await ended("echo clean", { sandbox, cwd: t.root });
    expect(await waitFor(() => (inSandboxNamespace(clean.scan, table) as number[] | undefined)?.length === 0)).toBe(true);
  });
});

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
