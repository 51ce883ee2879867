// The search shims through the bundled core over the host protocol: the `shims` setting given in
// `initialize.settings` and changed with `settings/update`, the probes warmed before the first
// command (their prelude written without any tool call), and the files removed at `shutdown`.
// Which binary ran is read from logging wrappers (WAVE_VENDOR_DIR and the first PATH entry).
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildFixtureTree, LOG_VARIABLE, makeLoggingSystemBin, makeLoggingVendor, readLog, shellExecutable, type FixtureTree } from "./support/shims.js";
import { BUNDLE, bundleExists, CoreProcess, stopCores, type Message } from "./support/coreProcess.js";
import { tempDir, waitFor } from "./support/processes.js";

let tmp: string;
let tree: FixtureTree;
let treeDir: string;
let vendor: string;
let sysbin: string;
const clients: CoreProcess[] = [];

beforeAll(() => {
  if (!bundleExists()) throw new Error(`Build the bundle first (npm run build): ${BUNDLE} is missing.`);
  tmp = tempDir("wave-shims-e2e-");
  treeDir = path.join(tmp, "tree");
  tree = buildFixtureTree(treeDir);
  vendor = makeLoggingVendor(path.join(tmp, "vendor"));
  sysbin = makeLoggingSystemBin(path.join(tmp, "sysbin"));
});

afterEach(() => stopCores(clients));

/** A core whose temporary files (the shims' among them) go to its own TMPDIR. */
function serve(kind: "bash" | "zsh", tmpdir: string): CoreProcess {
  mkdirSync(tmpdir, { recursive: true });
  const home = path.join(tmp, "home");
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    TMPDIR: tmpdir,
    PATH: `${sysbin}:${process.env.PATH}`,
    WAVE_SHELL: shellExecutable(kind),
    WAVE_VENDOR_DIR: vendor,
    WAVE_OUTPUT_DIR: path.join(tmpdir, "output"),
  };
  delete env[LOG_VARIABLE];
  // Permissions are not the subject here (docs/user/permissions.md, "Modes").
  const c = new CoreProcess(["serve", "--root", treeDir, "--permission-mode", "allow-all"], { env, inheritEnv: false });
  clients.push(c);
  return c;
}

/** The logging wrappers append to logs in the test's scratch directory, outside the workspace. */
// Only the logs' folder: a bundled binary a sandboxed command could rewrite is never probed.
const logsWritable = () => ({ allowWrite: [path.join(tmp, "logs")] });

let logs = 0;
/** Runs `command` through the Bash tool; the command names its own log, so probes never land in it. */
async function ran(c: CoreProcess, command: string): Promise<{ output: string; exitCode: number; ran: string[] }> {
  mkdirSync(path.join(tmp, "logs"), { recursive: true });
  const log = path.join(tmp, "logs", `log-${++logs}`);
  const m: Message = await c.request("tools/call", { name: "Bash", arguments: { command: `export ${LOG_VARIABLE}='${log}'\n${command}` } });
  const s = (m.result as { structuredContent: { output: string; exitCode: number } }).structuredContent;
  return { output: s.output, exitCode: s.exitCode, ran: readLog(log) };
}

const shimDirs = (tmpdir: string) => readdirSync(tmpdir).filter((n) => n.startsWith("wave-shims-"));

describe("tool descriptions", () => {
  it("Bash and Grep tell models what grep -r and find skip inside Bash, how to search everything, where the system tools run, and the opt-out", async () => {
    const c = serve("bash", path.join(tmp, "tmp-descriptions"));
    await c.request("initialize", { protocolVersion: "2.0", hostInfo: { name: "e2e" } });
    const listed = (await c.request("tools/list")).result!.tools as Array<{ name: string; description: string }>;
    const described = (name: string) => listed.find((t) => t.name === name)!.description;
    for (const name of ["Bash", "Grep"]) {
      const text = described(name);
      expect(text, name).toMatch(/grep -r.*skip|skip.*ignored/);
      expect(text, name).toContain("`command grep -r ...`");
      expect(text, name).toContain("`grep -r --no-ignore-files ...`");
      expect(text, name).toMatch(/xargs, timeout, env, find -exec and nested/);
      expect(text, name).toContain("`shims` setting");
    }
    expect(described("Bash")).toMatch(/binary files .*skipped/);
    expect(described("Bash")).toContain("exits 1");
  });
});

describe.each(["bash", "zsh"] as const)("%s", (kind) => {
  it(`the shims setting: initialize.settings turns them off, settings/update on and off again (${kind})`, async () => {
    const c = serve(kind, path.join(tmp, `tmp-setting-${kind}`));
    const init = await c.request("initialize", { protocolVersion: "2.0", hostInfo: { name: "e2e" }, settings: { shims: false, sandbox: logsWritable() } });
    expect(init.error).toBeUndefined();
    const grep = `grep -rl ${tree.needle} . | sort`;

    const off = await ran(c, grep);
    expect(off.ran).toEqual(["system-grep"]);
    expect(off.output).toContain("./dist/bundle.js");

    expect((await c.request("settings/update", { settings: { shims: true } })).result).toMatchObject({ settings: { shims: true } });
    const on = await ran(c, grep);
    expect(on.ran).toEqual(["bundled-ugrep"]);
    expect(on.output.split("\n").filter(Boolean)).toEqual(tree.expected);

    await c.request("settings/update", { settings: { shims: false } });
    expect((await ran(c, `${grep}; find . -name '*.ts' >/dev/null`)).ran).toEqual(["system-grep", "system-find"]);
  });

  it(`without a setting the shims are on, warmed before the first command, and their files go at shutdown (${kind})`, async () => {
    const tmpdir = path.join(tmp, `tmp-life-${kind}`);
    const c = serve(kind, tmpdir);
    await c.request("initialize", { protocolVersion: "2.0", hostInfo: { name: "e2e" }, settings: { sandbox: logsWritable() } });
    // No tool call yet: the start-up hook probed the binaries and wrote the prelude for this shell.
    const prelude = () => {
      for (const d of shimDirs(tmpdir)) {
        for (const sub of readdirSync(path.join(tmpdir, d))) {
          const file = path.join(tmpdir, d, sub, `prelude.${kind}`);
          if (existsSync(file)) return file;
        }
      }
      return undefined;
    };
    expect(await waitFor(prelude, 15_000), `no prelude in ${tmpdir}: ${c.stderr}`).toBeTruthy();
    expect(shimDirs(tmpdir)[0]).toMatch(new RegExp(`^wave-shims-${c.child.pid}-`));

    expect((await ran(c, `grep -rl ${tree.needle} src/deep`)).ran).toEqual(["bundled-ugrep"]);

    const shutdown = await c.request("shutdown");
    expect(shutdown.error).toBeUndefined();
    // Removed by the shutdown itself, while the process still runs (it waits for `exit`).
    expect(c.child.exitCode).toBeNull();
    expect(shimDirs(tmpdir)).toEqual([]);
    c.notify("exit");
    expect(await c.exited).toEqual({ code: 0, signal: null });
  });
});
