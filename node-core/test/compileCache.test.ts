// The bundle's start-up loader (scripts/compileCache.cjs): the core's code compiled through V8's code
// cache kept in Wave's state directory, and never through a cache someone else could have written.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanTempDirs, tempDir } from "./support/fsTestkit.js";
import { bundleExists, CoreProcess } from "./support/coreProcess.js";
import { waitFor } from "./support/processes.js";

afterEach(cleanTempDirs);

/** Starts the core with this state directory, answers `initialize`, stays up `stayMs` (the cache is stored after 500 ms). */
async function start(stateDir: string, stayMs: number, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const core = new CoreProcess(["serve", "--root", os.tmpdir()], { env: { WAVE_STATE_DIR: stateDir, ...env } });
  try {
    const init = await core.request("initialize", {});
    expect(init.result?.serverInfo?.name).toBe("wave-core");
    await new Promise((r) => setTimeout(r, stayMs));
  } finally {
    await core.close();
  }
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((n) => /^code-[0-9a-f]{16}-v[\d.]+-\w+\.cache$/.test(n));

describe.runIf(bundleExists() && process.platform !== "win32")("compile cache", () => {
  it("stores the code cache in a private directory after the first start, and the next start uses it as it is", async () => {
    const home = tempDir();
    await start(home, 0);
    const dir = path.join(home, "cache");
    const stored = await waitFor(() => (cacheFiles(dir).length === 1 ? cacheFiles(dir)[0] : undefined)).catch(() => undefined);
    // A core that ends before half a second may leave none: the second start stores it then.
    if (!stored) await start(home, 1500);
    const [name] = cacheFiles(dir);
    expect(name).toBeDefined();
    const file = path.join(dir, name!);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const first = statSync(file);
    await start(home, 1500);
    // Accepted by V8: nothing written again.
    expect(statSync(file).ino).toBe(first.ino);
    expect(statSync(file).mtimeMs).toBe(first.mtimeMs);
  }, 30_000);

  it("a damaged cache is refused by V8: the core starts normally and writes a good one", async () => {
    const home = tempDir();
    await start(home, 1500);
    const dir = path.join(home, "cache");
    const file = path.join(dir, cacheFiles(dir)[0]!);
    const good = readFileSync(file);
    writeFileSync(file, good.subarray(0, good.length >> 1));
    const damaged = statSync(file).ino;
    await start(home, 1500);
    const rewritten = statSync(file);
    expect(rewritten.ino).not.toBe(damaged);
    expect(rewritten.size).toBeGreaterThan(good.length >> 1);
    // And that one is accepted.
    await start(home, 1500);
    expect(statSync(file).ino).toBe(rewritten.ino);
  }, 30_000);

  it("never writes (or reads) a cache in a directory others can write", async () => {
    const home = tempDir();
    const dir = path.join(home, "cache");
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o777);
    await start(home, 1500);
    expect(cacheFiles(dir)).toEqual([]);
  }, 20_000);

  it("never reads a cache file others can write, even one V8 would accept: replaces it with its own", async () => {
    const home = tempDir();
    const dir = path.join(home, "cache");
    await start(home, 1500);
    const file = path.join(dir, cacheFiles(dir)[0]!);
    chmodSync(file, 0o666);
    const planted = statSync(file).ino;
    await start(home, 1500);
    expect(statSync(file).ino).not.toBe(planted);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 40_000);

  it("WAVE_COMPILE_CACHE=0 turns it off: no directory, no file", async () => {
    const home = tempDir();
    await start(home, 1500, { WAVE_COMPILE_CACHE: "0" });
    expect(readdirSync(home)).toEqual([]);
  }, 20_000);
});
