// An agent attached to the IDE's core: `Bash` `echo hi` from an MCP client through
// `wave-core mcp --attach` → Streamable HTTP → a listening `serve --listen` core, against the same
// call through a direct `wave-core mcp` (goal: p50 ≤ 1.5×). Calls alternate, so both paths see the
// same machine load.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { coreBundle, median, nowMs, percentile, report, startCore } from "./lib.mjs";

const root = mkdtempSync(path.join(os.tmpdir(), "wave-bench-attach-"));
const stateDir = mkdtempSync(path.join(os.tmpdir(), "wave-bench-state-"));
// Not the developer's own login profile: its speed is not the subject.
const env = { ...process.env, WAVE_STATE_DIR: stateDir, WAVE_LOG_LEVEL: "warn", WAVE_LOGIN_ENV: "0" };

async function mcpClient(args, cwd) {
  const client = new Client({ name: "bench-agent", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [coreBundle, ...args], cwd, env, stderr: "ignore" }));
  return client;
}

async function waitForLock(pid) {
  const file = path.join(stateDir, "ide", `${pid}.json`);
  for (let i = 0; i < 200; i++) {
    if (readdirSync(stateDir).includes("ide") && readdirSync(path.join(stateDir, "ide")).includes(`${pid}.json`)) return JSON.parse(readFileSync(file, "utf8"));
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the listening core wrote no lock file");
}

const call = (client) => client.callTool({ name: "Bash", arguments: { command: "echo hi" } });
const check = (result) => {
  if (result.isError || result.content[0].text !== "hi") throw new Error(`unexpected result: ${JSON.stringify(result)}`);
};

const ide = startCore(["--root", root, "--listen", "127.0.0.1:0", "--allow", "echo:*"], { env });
await ide.request("initialize", { hostInfo: { name: "bench-host" } });
await waitForLock(ide.child.pid);
const attached = await mcpClient(["mcp", "--attach"], root);
const direct = await mcpClient(["mcp", "--root", root, "--allow", "echo:*"], root);
try {
  for (let i = 0; i < 20; i++) {
    check(await call(attached));
    check(await call(direct));
  }
  const viaAttach = [];
  const viaDirect = [];
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 60; i++) {
      let t = nowMs();
      check(await call(attached));
      viaAttach.push(nowMs() - t);
      t = nowMs();
      check(await call(direct));
      viaDirect.push(nowMs() - t);
    }
  }
  report({
    name: "Bash echo hi via mcp --attach → listening core (p50)",
    value: median(viaAttach),
    baseline: median(viaDirect),
    baselineName: "direct wave-core mcp p50",
    goal: 1.5,
  });
  console.log(`  (p90: ${percentile(viaAttach, 90).toFixed(2)} ms vs ${percentile(viaDirect, 90).toFixed(2)} ms, ${viaAttach.length} calls each)`);
} finally {
  await attached.close();
  await direct.close();
  await ide.close();
}
