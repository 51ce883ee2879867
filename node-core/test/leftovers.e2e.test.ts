// Nothing left behind: a core removes its output folder however it exits (when it lives to do
// so), and what a core killed with SIGKILL left — its folder, a temporary file beside a file it
// was writing — goes with the next core's start-up sweep. The real bundle, real signals.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE, CoreProcess } from "./support/coreProcess.js";
import { tempDir, waitFor } from "./support/processes.js";

const cores: CoreProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.kill();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(prefix: string): string {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
}

/** A workspace and an output root of the test's own. */
function setUp(): { root: string; out: string } {
  const base = scratch("wave-leftovers-");
  const root = path.join(base, "ws");
  spawnSync("mkdir", ["-p", root]);
  return { root, out: path.join(base, "out") };
}

function serve(root: string, out: string): CoreProcess {
  const core = new CoreProcess(["serve", "--root", root, "--permission-mode", "allow-all"], { env: { WAVE_OUTPUT_DIR: out } });
  cores.push(core);
  return core;
}

const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe("a core's output folder", () => {
  it("is removed when the core exits: stdin closed, SIGTERM, the host's shutdown, a one-shot call", async () => {
    const { root, out } = setUp();
    for (const end of ["stdin", "SIGTERM", "shutdown"] as const) {
      const core = serve(root, out);
      const r = await core.request("tools/call", { name: "Bash", arguments: { command: "echo hi; sleep 30 &" } });
      expect(r.result.structuredContent.output).toBe("hi\n");
      expect(entries(out)).toHaveLength(1);
      expect(entries(path.join(out, entries(out)[0]!)).length).toBeGreaterThan(0);
      if (end === "stdin") await core.close();
      else if (end === "SIGTERM") core.child.kill("SIGTERM");
      else {
        await core.request("shutdown");
        core.notify("exit");
      }
      await core.exited;
      expect(entries(out), end).toEqual([]);
    }
    const call = spawnSync(process.execPath, [BUNDLE, "call", "Bash", '{"command":"echo once"}', "--root", root], { env: { ...process.env, WAVE_OUTPUT_DIR: out }, encoding: "utf8" });
    expect(call.stdout).toBe("once\n");
    expect(entries(out)).toEqual([]);
  });

  it("of a core killed with SIGKILL, and the temporary file of the 50 MB Write it was in, are removed by the next core", async () => {
    const { root, out } = setUp();
    const target = path.join(root, "big.txt");
    // The kill must land while the temporary file exists: try until it does (the write takes a while).
    let leftover: string | undefined;
    let killedFolders: string[] = [];
    for (let attempt = 0; attempt < 5 && !leftover; attempt++) {
      writeFileSync(target, "old\n");
      const core = serve(root, out);
      await core.request("initialize", {});
      await core.request("tools/call", { name: "Read", arguments: { file_path: "big.txt" } });
      core.send({ jsonrpc: "2.0", id: "w", method: "tools/call", params: { name: "Write", arguments: { file_path: "big.txt", content: "n".repeat(50 * 1024 * 1024) } } });
      const deadline = Date.now() + 20_000;
      while (!leftover && Date.now() < deadline && !core.received.some((m) => m.id === "w")) {
        leftover = readdirSync(root).find((n) => n.endsWith(".tmp"));
        if (!leftover) await new Promise((r) => setTimeout(r, 1));
      }
      killedFolders = entries(out);
      core.child.kill("SIGKILL");
      await core.exited;
      if (leftover && !existsSync(path.join(root, leftover))) leftover = undefined;
    }
    expect(leftover, "no attempt caught the Write in the middle").toMatch(/^\.big\.txt\.wave-\d+-\d+-[0-9a-f]{12}\.tmp$/);
    // The target itself is the old file or the new one, whole.
    const content = readFileSync(target, "utf8");
    expect(content === "old\n" || content.length === 50 * 1024 * 1024).toBe(true);
    expect(killedFolders.length).toBeGreaterThan(0);
    expect(entries(out)).toEqual(expect.arrayContaining(killedFolders));

    const next = serve(root, out);
    await next.request("initialize", {});
    expect(await waitFor(() => !existsSync(path.join(root, leftover!)), 15_000)).toBe(true);
    expect(await waitFor(() => !entries(out).some((n) => killedFolders.includes(n)), 15_000)).toBe(true);
    expect(readdirSync(root)).toEqual(["big.txt"]);
    await next.close();
    expect(entries(out)).toEqual([]);
  }, 120_000);
});
