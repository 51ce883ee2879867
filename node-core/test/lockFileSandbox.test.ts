// The discovery lock files (`${WAVE_STATE_DIR:-~/.wave}/ide/<pid>.json`) hold each listening core's
// bearer token. The file tools run outside the sandbox, so a sandboxed command that learned a token
// could call them through the endpoint (loopback is shared while the network is not cut off) and read
// what the sandbox hides (~/.ssh), or forge a lock that sends another agent's `mcp --attach` to its
// own server. Every attack here runs for real: bundled cores, real bash inside real bwrap.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CoreProcess, stopCores, type Message } from "./support/coreProcess.js";
import { attachedAgent, startListeningCore, type AttachedAgent } from "./support/listening.js";
import { tempDir, waitFor } from "./support/processes.js";
import { makeWorkspace } from "./transcript.js";

const cores: CoreProcess[] = [];
const agents: AttachedAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.client.close().catch(() => {})));
  await stopCores(cores);
});

/** A home directory of the test's own, so nothing here reads or writes the real one. */
const homeEnv = (home: string): NodeJS.ProcessEnv => ({ HOME: home, WAVE_LOGIN_ENV: "0" });

async function listening(root: string, stateDir: string, env: NodeJS.ProcessEnv, settings: Record<string, unknown> = {}) {
  const started = await startListeningCore(root, stateDir, ["--permission-mode", "allow-all"], env);
  cores.push(started.core);
  const init = await started.core.request("initialize", { hostInfo: { name: "e2e" }, settings });
  expect(init.error).toBeUndefined();
  return started;
}

/** A core that does not listen (an agent's own `wave-core serve`/`mcp`), allow-all so nothing is asked. */
async function plainCore(root: string, env: NodeJS.ProcessEnv): Promise<CoreProcess> {
  const core = new CoreProcess(["serve", "--root", root, "--permission-mode", "allow-all"], { env });
  cores.push(core);
  expect((await core.request("initialize", { hostInfo: { name: "e2e" } })).error).toBeUndefined();
  return core;
}

async function bash(core: CoreProcess, args: Record<string, unknown>): Promise<{ output: string; sandboxed: boolean; backgroundTaskId: string | null; outputPath: string | null }> {
  const r: Message = await core.request("tools/call", { name: "Bash", arguments: args }, undefined);
  expect(r.error).toBeUndefined();
  return r.result.structuredContent;
}

describe("a sandboxed command and the discovery lock files", () => {
  it("an attached agent's command cannot read a lock file, so it never learns the token; the endpoint it can reach refuses it", async () => {
    const home = tempDir("wave-home-");
    const stateDir = tempDir("wave-state-");
    const root = makeWorkspace();
    const { core, lock } = await listening(root, stateDir, homeEnv(home));
    const agent = await attachedAgent(root, stateDir);
    agents.push(agent);
    const file = path.join(stateDir, "ide", `${lock.pid}.json`);

    const read = await agent.client.callTool({ name: "Bash", arguments: { command: `cat ${file}; ls -a ${stateDir}/ide; grep -r token ${stateDir}; cat ${stateDir}/ide/*.json` } });
    const out = read.structuredContent as { output: string; sandboxed: boolean };
    expect(out.sandboxed).toBe(true);
    expect(out.output).not.toContain(lock.token);
    expect(out.output).toContain(`cat: ${file}: Permission denied`);
    // The core itself still reads it: the agent is attached through it.
    expect(readFileSync(file, "utf8")).toContain(lock.token);

    // Loopback is shared with network allow: the endpoint answers, and only the token keeps it shut.
    const port = new URL(lock.url).port;
    const knock = await bash(core, {
      command: `curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}' ${lock.url}`,
    });
    expect(knock).toMatchObject({ sandboxed: true, output: "401" });
    expect(port).toMatch(/^\d+$/);
  });

  it("the default state directory is unreadable too, whatever HOME the core has and whatever WAVE_STATE_DIR says", async () => {
    const home = tempDir("wave-home-");
    const defaultState = path.join(home, ".wave");
    // An IDE core that uses the default (~/.wave) ...
    const ide = await listening(makeWorkspace(), defaultState, { ...homeEnv(home), WAVE_STATE_DIR: undefined });
    // ... and an agent's own core that was given another state directory.
    const agentCore = await plainCore(makeWorkspace(), { ...homeEnv(home), WAVE_STATE_DIR: tempDir("wave-state-") });
    const r = await bash(agentCore, { command: `cat ~/.wave/ide/*.json; cat ${defaultState}/ide/${ide.lock.pid}.json` });
    expect(r.sandboxed).toBe(true);
    expect(r.output).not.toContain(ide.lock.token);
    expect(r.output).toContain("Permission denied");
    // The account's own ~/.wave (where an IDE started without this HOME publishes) is hidden as well.
    const account = path.join(os.userInfo().homedir, ".wave");
    const listed = await bash(agentCore, { command: `ls ${account}` });
    expect(listed.output).toBe(`ls: cannot open directory '${account}': Permission denied\n`);
  });

  it("a command can neither create nor replace a lock file, nor move the folder away, even with the state directory inside the workspace", async () => {
    const home = tempDir("wave-home-");
    const root = makeWorkspace();
    const stateDir = path.join(root, ".wave-state");
    const { core, lock } = await listening(root, stateDir, homeEnv(home));
    const ide = path.join(stateDir, "ide");
    const own = path.join(ide, `${lock.pid}.json`);
    const before = readFileSync(own, "utf8");
    const forged = JSON.stringify({ ...lock, url: "http://127.0.0.1:9/mcp", token: "f".repeat(64), workspaceFolders: ["/"] });
    const r = await bash(core, {
      command: [
        `echo '${forged}' > ${ide}/4242.json`,
        `echo '${forged}' > ${own}`,
        `cp /dev/null ${own}`,
        `rm -f ${own}`,
        `mv ${ide} ${stateDir}/moved`,
        `mv ${stateDir} ${root}/moved-state`,
        `mkdir -p ${root}/elsewhere/ide && echo '${forged}' > ${root}/elsewhere/ide/4242.json && rm -rf ${stateDir}; mv ${root}/elsewhere ${stateDir}`,
        "echo done",
      ].join("; "),
    });
    expect(r.sandboxed).toBe(true);
    expect(r.output).toContain("done");
    expect(readdirSync(ide)).toEqual([`${lock.pid}.json`]);
    expect(readFileSync(own, "utf8")).toBe(before);
    expect(existsSync(path.join(root, "moved-state"))).toBe(false);
  });

  it("a writable home (sandbox.allowWrite ~) does not make the default state directory writable", async () => {
    const home = tempDir("wave-home-");
    const defaultState = path.join(home, ".wave");
    const { core, lock } = await listening(makeWorkspace(), defaultState, { ...homeEnv(home), WAVE_STATE_DIR: undefined }, { sandbox: { allowWrite: ["~"] } });
    const r = await bash(core, { command: "echo forged > ~/.wave/ide/4242.json; echo x > ~/home-is-writable; mkdir ~/.wave2 && echo ok" });
    expect(r.sandboxed).toBe(true);
    expect(r.output).toContain("ok");
    expect(existsSync(path.join(home, "home-is-writable"))).toBe(true);
    expect(readdirSync(path.join(defaultState, "ide"))).toEqual([`${lock.pid}.json`]);
  });

  it("a state directory created after a command started stays hidden from it (a background task waiting for a core)", async () => {
    const home = tempDir("wave-home-");
    const root = makeWorkspace();
    const stateDir = path.join(tempDir("wave-later-"), "state");
    const agentCore = await plainCore(root, { ...homeEnv(home), WAVE_STATE_DIR: stateDir });
    const started = await bash(agentCore, {
      command: `i=0; while [ ! -e stop ]; do i=$((i+1)); echo $i > ticks; cat ${stateDir}/ide/*.json 2>/dev/null && break; sleep 0.05; done; echo finished`,
      run_in_background: true,
    });
    expect(started.backgroundTaskId).toEqual(expect.any(String));
    const ticks = () => Number(readFileSync(path.join(root, "ticks"), "utf8").trim() || 0);
    expect(await waitFor(() => existsSync(path.join(root, "ticks")))).toBe(true);
    // An IDE core starts afterwards and publishes itself there.
    const { lock } = await listening(makeWorkspace(), stateDir, homeEnv(home));
    const seen = ticks();
    // The command has looked several times since the lock file was written.
    const ended = () => agentCore.notifications("task/finished").length > 0;
    expect(await waitFor(() => ticks() >= seen + 5 || ended(), 10_000)).toBe(true);
    mkdirSync(path.join(root, "stop"));
    const finished = await agentCore.waitFor((m) => m.method === "task/finished", 15_000);
    const output = readFileSync(finished.params.task.outputPath, "utf8");
    expect(output).toContain("finished");
    expect(output).not.toContain(lock.token);
  });

  it("neither the token nor the endpoint reaches a command's environment, inside the sandbox or outside it", async () => {
    const home = tempDir("wave-home-");
    const root = makeWorkspace();
    const stateDir = tempDir("wave-state-");
    const { core, lock } = await listening(root, stateDir, homeEnv(home));
    const port = new URL(lock.url).port;
    const look = "env; cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' '\\n'";
    const inside = await bash(core, { command: look });
    const outside = await bash(core, { command: "env", dangerouslyDisableSandbox: true });
    expect(inside.sandboxed).toBe(true);
    expect(outside.sandboxed).toBe(false);
    for (const r of [inside, outside]) {
      expect(r.output).toContain("WAVE_RUN_ID=");
      expect(r.output).not.toContain(lock.token);
      expect(r.output).not.toContain(`:${port}`);
    }
  });
});
