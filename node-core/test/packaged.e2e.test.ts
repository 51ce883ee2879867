// The core as the plugin zip ships it (HOST-4): `core/wave-core.js` with `core/vendor/` beside it, no
// node_modules anywhere above, started in a launcher-like environment (a bare PATH, a fake HOME).
// It must do by itself everything HOST-2 gives the core: probe the login environment, shim grep with
// the vendored ugrep, and run the file tools.
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkVendorDir } from "../scripts/check-vendor.mjs";
import { makeFakeHome, secretValue, writeProfile, type FakeHome } from "./support/loginEnv.js";
import { BUNDLE, bundleExists, CoreProcess } from "./support/coreProcess.js";
import { tempDir } from "./support/processes.js";

const repoVendor = path.resolve(__dirname, "..", "vendor");
const platformDir = `${process.platform}-${process.arch}`;

let tmp: string;
let pluginCore: string;
let workspace: string;
let fake: FakeHome;
let core: CoreProcess | undefined;

beforeAll(() => {
  if (!bundleExists()) throw new Error(`Build the core first (npm run build): ${BUNDLE} is missing.`);
  if (!existsSync(path.join(repoVendor, platformDir, "ugrep"))) {
    throw new Error(`Assemble the vendor directory first (node-core/scripts/vendor-linux-x64.sh --portable): ${repoVendor}/${platformDir}/ugrep is missing.`);
  }
  // The zip ships what `gradle buildPlugin` accepts: the same check, on the folder this test packages.
  const { problems } = checkVendorDir(repoVendor);
  if (problems.length > 0) {
    throw new Error(`${repoVendor} is not what the plugin may ship; rebuild it with node-core/scripts/vendor-linux-x64.sh --portable:\n  ${problems.join("\n  ")}`);
  }
  tmp = realpathSync(tempDir("wave-packaged-"));
  // The sandbox layout of plugin-kotlin/build.gradle.kts (prepareSandbox): <plugin>/core/{wave-core.js,vendor/}.
  pluginCore = path.join(tmp, "wave-tools", "core");
  mkdirSync(pluginCore, { recursive: true });
  cpSync(BUNDLE, path.join(pluginCore, "wave-core.js"));
  cpSync(repoVendor, path.join(pluginCore, "vendor"), { recursive: true, dereference: true });

  workspace = path.join(tmp, "project");
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  mkdirSync(path.join(workspace, "node_modules", "dep"), { recursive: true });
  writeFileSync(path.join(workspace, ".gitignore"), "node_modules\n");
  writeFileSync(path.join(workspace, "src", "app.js"), "const needle = 1;\n");
  writeFileSync(path.join(workspace, "node_modules", "dep", "index.js"), "const needle = 2;\n");
});

afterAll(() => {
  core?.kill();
  fake?.cleanup();
});

describe("the core as packaged in the plugin zip", () => {
  it("HOST-4 HOST-2 runs from core/wave-core.js with core/vendor beside it: login environment adopted, grep shimmed by the vendored ugrep, files written and read", async () => {
    fake = makeFakeHome();
    const agentSocket = secretValue("agent");
    writeProfile(fake, "bash", { rc: [`export SSH_AUTH_SOCK='${agentSocket}'`, 'export PATH="$HOME/tools/bin:$PATH"'] });
    fake.write("tools/bin/hello-from-profile", "#!/bin/sh\necho profile tool ran\n", true);

    // No WAVE_VENDOR_DIR, no WAVE_LOGIN_ENV=0: what a Dock-launched IDE passes on.
    core = new CoreProcess(["serve", "--root", workspace, "--permission-mode", "allow-all"], {
      bundle: path.join(pluginCore, "wave-core.js"),
      cwd: tmp,
      inheritEnv: false,
      env: { HOME: fake.home, SHELL: "/bin/bash", PATH: "/usr/bin:/bin", LANG: "C.UTF-8", TMPDIR: tmp },
    });
    await core.request("initialize", { hostInfo: { name: "packaged-e2e" } });

    const env = await core.request("env/status");
    const settled = env.result.state === "pending" ? (await core.waitFor((m) => m.method === "env/statusChanged", 20_000)).params : env.result;
    expect(settled).toMatchObject({ state: "ok", shell: "/bin/bash" });
    expect(settled.adoptedKeys).toContain("SSH_AUTH_SOCK");
    // env/status names the helpers this copy uses: the ones beside it, not the repository's.
    const helpers = (await core.request("env/status")).result.searchHelpers;
    expect(helpers.platform).toBe(platformDir);
    for (const tool of ["ugrep", "bfs", "rg"]) {
      expect(helpers.tools.find((t: { tool: string }) => t.tool === tool)).toMatchObject({ state: "active", path: path.join(pluginCore, "vendor", platformDir, tool) });
    }

    const bash = await core.request("tools/call", {
      name: "Bash",
      arguments: { command: 'echo "sock=$SSH_AUTH_SOCK"; hello-from-profile; grep -rn needle .; declare -f grep' },
    });
    const out: string = bash.result.structuredContent.output;
    expect(bash.result.structuredContent.exitCode).toBe(0);
    expect(out).toContain(`sock=${agentSocket}`);
    expect(out).toContain("profile tool ran");
    // The grep function (loaded by its first use) calls the ugrep beside this copy of the bundle,
    // which skips the ignored node_modules.
    expect(out).toContain(path.join(pluginCore, "vendor", platformDir));
    expect(out).toContain("src/app.js:1:const needle = 1;");
    expect(out).not.toContain("needle = 2");

    const file = path.join(workspace, "src", "new.txt");
    const write = await core.request("tools/call", { name: "Write", arguments: { file_path: file, content: "written by the packaged core\n" } });
    expect(write.result.isError).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("written by the packaged core\n");
    const read = await core.request("tools/call", { name: "Read", arguments: { file_path: file } });
    expect(read.result.content[0].text).toContain("written by the packaged core");

    expect((await core.close()).code).toBe(0);
  }, 40_000);
});
