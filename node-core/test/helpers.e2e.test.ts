// The bundled search helpers of whichever platform runs this test, used through the core the way an
// agent uses them. The release workflow (.github/workflows/release.yml) runs it on every platform's
// runner against the vendor/<platform>-<arch> folder it has just built (WAVE_VENDOR_DIR); here it runs
// against node-core/vendor. Each helper must pass the core's own start-up checks (version, how ugrep
// applies .gitignore files, bfs's regex dialects), and grep -r, find and the Grep tool must then
// skip what .gitignore ignores.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformTag } from "../src/util/vendor.js";
import { BUNDLE, bundleExists, CoreProcess } from "./support/coreProcess.js";
import { tempDir } from "./support/processes.js";

const vendorDir = process.env.WAVE_VENDOR_DIR ?? path.resolve(__dirname, "..", "vendor");
const windows = process.platform === "win32";
// bfs has no Windows build: Git Bash's GNU find serves find there.
const expected = windows ? ["ugrep", "rg"] : ["ugrep", "bfs", "rg"];

let workspace: string;
let core: CoreProcess | undefined;

beforeAll(() => {
  if (!bundleExists()) throw new Error(`Build the core first (npm run build): ${BUNDLE} is missing.`);
  // node-core/vendor is not in git: a fresh clone has it only after ./scripts/setup.
  for (const tool of expected) {
    const file = path.join(vendorDir, platformTag(), windows ? `${tool}.exe` : tool);
    if (!existsSync(file)) throw new Error(`${file} is missing: run ./scripts/setup (or node-core/scripts/vendor-linux-x64.sh) to assemble the vendor directory, or set WAVE_VENDOR_DIR.`);
  }
  workspace = tempDir("wave-helpers-e2e-");
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  mkdirSync(path.join(workspace, "generated"), { recursive: true });
  writeFileSync(path.join(workspace, ".gitignore"), "generated\n");
  writeFileSync(path.join(workspace, "src", "keep.txt"), "needle kept\n");
  writeFileSync(path.join(workspace, "generated", "drop.txt"), "needle ignored\n");
});

afterAll(() => {
  core?.kill();
});

describe(`bundled search helpers for ${platformTag()}`, () => {
  it("are active, and grep -r, find and Grep skip what .gitignore ignores", async () => {
    core = new CoreProcess(["serve", "--root", workspace, "--permission-mode", "allow-all"], {
      cwd: workspace,
      env: { WAVE_VENDOR_DIR: vendorDir, WAVE_LOGIN_ENV: "0" },
    });
    await core.request("initialize", { hostInfo: { name: "helpers-e2e" } });

    const helpers = (await core.request("env/status")).result.searchHelpers;
    for (const tool of expected) {
      const status = helpers.tools.find((t: { tool: string }) => t.tool === tool);
      expect(status, JSON.stringify(helpers)).toMatchObject({ state: "active" });
      expect(status.path.startsWith(vendorDir), status.path).toBe(true);
    }

    const grep = await core.request("tools/call", { name: "Bash", arguments: { command: "grep -rn needle ." } });
    const grepOut: string = grep.result.structuredContent.output;
    expect(grepOut).toContain("src/keep.txt:1:needle kept");
    expect(grepOut).not.toContain("needle ignored");

    if (!windows) {
      const find = await core.request("tools/call", { name: "Bash", arguments: { command: "find . -regex '.*\\(keep\\|drop\\)\\.txt' | sort" } });
      // bfs prints both: find does not read .gitignore (it is only faster); the regex dialect is GNU find's.
      expect(find.result.structuredContent.output.trim().split("\n")).toEqual(["./generated/drop.txt", "./src/keep.txt"]);
    }

    const grepTool = await core.request("tools/call", { name: "Grep", arguments: { pattern: "needle", output_mode: "files_with_matches" } });
    const files = JSON.stringify(grepTool.result);
    expect(files).toContain("keep.txt");
    expect(files).not.toContain("drop.txt");

    expect((await core.close()).code).toBe(0);
  }, 40_000);
});
