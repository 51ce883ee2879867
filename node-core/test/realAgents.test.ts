// Real agent CLIs from npm (devDependencies) configured the way docs/user/agents.md and the plugin tell
// users to, checking that their own `mcp list` handshake reaches the IDE's listening core through
// `wave-core mcp --attach`. Neither needs an account or an API key for this.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE, type CoreProcess } from "./support/coreProcess.js";
import { startListeningCore, stateDirForTest } from "./support/listening.js";
import { makeWorkspace } from "./transcript.js";
import { scratchDir } from "./support/scratch.js";

const BIN = path.resolve(__dirname, "..", "..", "node_modules", ".bin");

function agentBinary(name: string): string {
  const file = path.join(BIN, name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm install at the repository root (it is a devDependency of node-core).`);
  return file;
}

/** Runs an agent command without blocking the event loop (the core's output keeps flowing in). */
async function run(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(file, args, { ...opts, encoding: "utf8", timeout: 90_000 }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`${path.basename(file)} ${args.join(" ")} failed: ${err.message}\n${err.stdout ?? ""}${err.stderr ?? ""}`);
  });
  return stdout + stderr;
}

const cores: CoreProcess[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

/** A home of its own, so the user's real agent configuration is neither read nor changed. */
function agentEnv(stateDir: string): NodeJS.ProcessEnv {
  const home = scratchDir("wave-agent-home-");
  return {
    ...process.env,
    HOME: home,
    WAVE_STATE_DIR: stateDir,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    ANTHROPIC_API_KEY: "",
    GEMINI_API_KEY: "",
  };
}

describe("real agents reach the IDE's core through wave-core mcp --attach", () => {
  it("Claude Code: `claude mcp add` then `claude mcp list` reports the server connected to the listening core", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await startListeningCore(root, stateDir);
    cores.push(core);
    const env = agentEnv(stateDir);
    const claude = agentBinary("claude");
    execFileSync(claude, ["mcp", "add", "--scope", "user", "wave", "--", process.execPath, BUNDLE, "mcp", "--attach"], { cwd: root, env, encoding: "utf8" });
    const config = JSON.parse(readFileSync(path.join(env.HOME!, ".claude.json"), "utf8"));
    expect(config.mcpServers.wave).toMatchObject({ type: "stdio", command: process.execPath, args: [BUNDLE, "mcp", "--attach"] });

    const list = await run(claude, ["mcp", "list"], { cwd: root, env });
    expect(list).toMatch(/wave: .*wave-core\.js mcp --attach - ✔ Connected/);
    // The handshake reached the IDE's core, not a local one: its host saw Claude Code's session.
    const opened = await core.waitFor((m) => m.method === "session/opened");
    expect(opened.params.client).toEqual({ name: "claude-code", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    await core.waitFor((m) => m.method === "session/closed" && m.params.sessionId === opened.params.sessionId);
  });

  it("Gemini CLI: `gemini mcp add` then `gemini mcp list` reports the server connected to the listening core", async () => {
    const root = makeWorkspace();
    const stateDir = stateDirForTest();
    const { core } = await startListeningCore(root, stateDir);
    cores.push(core);
    // Gemini connects to no MCP server in a folder the user has not trusted; this is the documented
    // switch for a folder trusted without its dialog.
    const env: NodeJS.ProcessEnv = { ...agentEnv(stateDir), GEMINI_CLI_TRUST_WORKSPACE: "true" };
    const gemini = agentBinary("gemini");
    execFileSync(gemini, ["mcp", "add", "--scope", "user", "--trust", "wave", process.execPath, BUNDLE, "mcp", "--attach"], { cwd: root, env, encoding: "utf8" });
    const settings = JSON.parse(readFileSync(path.join(env.HOME!, ".gemini", "settings.json"), "utf8"));
    expect(settings.mcpServers.wave).toEqual({ command: process.execPath, args: [BUNDLE, "mcp", "--attach"], trust: true });

    const list = await run(gemini, ["mcp", "list"], { cwd: root, env });
    expect(list).toMatch(/✓ wave: .*wave-core\.js mcp --attach \(stdio\) - Connected/);
    const opened = await core.waitFor((m) => m.method === "session/opened");
    expect(opened.params.client).toMatchObject({ name: expect.any(String) });
    await core.waitFor((m) => m.method === "session/closed" && m.params.sessionId === opened.params.sessionId);
  });
});
