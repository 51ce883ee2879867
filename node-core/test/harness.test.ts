// The test harness itself: what every test can rely on about the machine it runs on and what it
// leaves there. A test that runs the developer's own login profile is slow at best (every first
// Bash call waits for it) and at worst leaves a lock that makes every later login shell wait 60 s.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE } from "./support/coreProcess.js";
import { NO_SUCH_PID, processesOfCore, waitFor, waitingShellGroups } from "./support/processes.js";
import { stdioTransport } from "./support/mcpStdio.js";
import { makeWorkspace } from "./transcript.js";

const NODE_CORE = path.join(__dirname, "..");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts|mjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

describe("tests never run the developer's own login profile", () => {
  it("every test process has WAVE_LOGIN_ENV=0 (vitest.config.mts), which the cores it starts inherit", () => {
    expect(process.env.WAVE_LOGIN_ENV).toBe("0");
  });

  it("no test starts an MCP server with the SDK's stdio transport directly (it would drop WAVE_LOGIN_ENV); they use test/support/mcpStdio.ts", () => {
    const direct = [...sourceFiles(path.join(NODE_CORE, "test")), ...sourceFiles(path.join(NODE_CORE, "src"))]
      .filter((f) => !f.endsWith(path.join("support", "mcpStdio.ts")) && !f.endsWith("harness.test.ts"))
      .filter((f) => /new StdioClientTransport\(/.test(readFileSync(f, "utf8")))
      .map((f) => path.relative(NODE_CORE, f));
    expect(direct).toEqual([]);
    // The benchmarks give every server their whole environment themselves.
    const benches = sourceFiles(path.join(NODE_CORE, "bench")).flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(/new StdioClientTransport\(\{([^)]*)\)/g)].map((m) => [path.basename(f), /\benv\b/.test(m[1]!)] as const),
    );
    expect(benches.length).toBeGreaterThan(0);
    expect(benches.filter(([, withEnv]) => !withEnv)).toEqual([]);
  });

  it("an MCP server started through the harness's transport sees WAVE_LOGIN_ENV=0", async () => {
    const root = makeWorkspace();
    const client = new Client({ name: "harness", version: "1" });
    await client.connect(stdioTransport({ command: process.execPath, args: [BUNDLE, "mcp", "--root", root, "--permission-mode", "allow-all"], stderr: "pipe" }));
    try {
      const r = await client.callTool({ name: "Bash", arguments: { command: 'echo "[${WAVE_LOGIN_ENV-unset}]"' } });
      expect((r.content as Array<{ text: string }>)[0]!.text).toBe("[0]");
    } finally {
      await client.close();
    }
  });
});

describe("tests look only at what they made, never at the whole machine", () => {
  const others: ChildProcess[] = [];
  afterEach(() => {
    for (const c of others.splice(0)) c.kill("SIGKILL");
  });

  /** A process of someone else's on the machine: its own group, the given argv and environment. */
  function someoneElses(argv0: string, env: Record<string, string>): ChildProcess {
    const child = spawn("/bin/bash", ["-c", 'exec -a "$0" sleep 300', argv0], { detached: true, stdio: "ignore", env: { PATH: process.env.PATH!, ...env } });
    others.push(child);
    return child;
  }

  it("a shell another core started ahead (another test file, the developer's IDE) is not one of the test's own", async () => {
    const other = someoneElses("bash -c __wave_warm_command", { WAVE_RUN_ID: "0badc0de.7.1" });
    // It is a waiting shell, seen as one machine-wide...
    expect(await waitFor(() => waitingShellGroups().has(other.pid!))).toBe(true);
    // ...but not among those of this process's cores.
    expect(waitingShellGroups({ markedWith: "feedface." }).has(other.pid!)).toBe(false);
    expect(waitingShellGroups({ markedWith: "0badc0de." }).has(other.pid!)).toBe(true);
  });

  it("the processes of core 1234 are not those of core 12345", async () => {
    const other = someoneElses("sleep-of-another-core", { WAVE_CORE_PID: "12345" });
    expect(await waitFor(() => processesOfCore(12345).some((p) => p.pid === other.pid))).toBe(true);
    expect(processesOfCore(1234).some((p) => p.pid === other.pid)).toBe(false);
  });

  it("a pid for a process that is gone is one no process can get meanwhile", () => {
    expect(NO_SUCH_PID).toBeGreaterThan(Number(readFileSync("/proc/sys/kernel/pid_max", "utf8")));
    expect(() => process.kill(NO_SUCH_PID, 0)).toThrow(/ESRCH/);
  });
});
