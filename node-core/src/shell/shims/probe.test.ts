// Capability probes against real binaries: the bundled tools, and the system's (older) ugrep and
// bfs, which show the version traps the probes exist for.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveLaunch } from "./launch.js";
import { MIN_UGREP, parseRegextypes, parseVersion, ProbeCache, probeBfs, probeRg, probeUgrep, runProbe, versionAtLeast, type ProbeRunner, type Version } from "./probe.js";
import { requireRealVendor } from "../../../test/support/shims.js";

let tmp: string;
let vendor: string;

beforeAll(() => {
  vendor = path.join(requireRealVendor(), "linux-x64");
  tmp = mkdtempSync(path.join(os.tmpdir(), "wave-shims-probe-"));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function systemTool(name: string): { file: string; version: Version } | undefined {
  const r = spawnSync("sh", ["-c", `command -v ${name} && ${name} --version`], { encoding: "utf8" });
  const [file, ...rest] = r.stdout.split("\n");
  const version = parseVersion(rest.join("\n"));
  return file && version ? { file, version } : undefined;
}

function script(name: string, text: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

describe("bundled binaries", () => {
  it("the bundled ugrep passes the version floor and the behavioural .gitignore probe", async () => {
    const r = await probeUgrep(resolveLaunch(path.join(vendor, "ugrep")), runProbe);
    expect(r.ok).toBe(true);
    if (r.ok) expect(versionAtLeast(r.version, MIN_UGREP)).toBe(true);
  });

  it("the bundled bfs offers GNU find's dialect as findutils-default", async () => {
    const r = await probeBfs(resolveLaunch(path.join(vendor, "bfs")), runProbe);
    expect(r).toMatchObject({ ok: true, regextype: "findutils-default" });
    if (r.ok) {
      expect(r.regextypes).toEqual(expect.arrayContaining(["posix-extended", "emacs", "findutils-default"]));
      expect(r.optimizeO1).toBe(!versionAtLeast(r.version, [4, 1, 4]));
    }
  });

  it("the bundled rg runs", async () => {
    expect(await probeRg(resolveLaunch(path.join(vendor, "rg")), runProbe)).toMatchObject({ ok: true });
  });
});

describe("version traps, with the system's own binaries", () => {
  const ugrep = systemTool("ugrep");
  const bfs = systemTool("bfs");

  it.skipIf(!ugrep || versionAtLeast(ugrep.version, MIN_UGREP))("a system ugrep older than 7.8.2 (Debian 12: 3.11, Debian 13: 7.4) counts as missing", async () => {
    const r = await probeUgrep({ command: [ugrep!.file], requires: [ugrep!.file] }, runProbe);
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.reason).toMatch(/older than 7\.8\.2/);
  });

  it.skipIf(!bfs)("a system bfs gets the dialect and -O1 its version needs (Debian 12: 2.6 → emacs, -O1)", async () => {
    const r = await probeBfs({ command: [bfs!.file], requires: [bfs!.file] }, runProbe);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.regextype).toBe(versionAtLeast(r.version, [3, 3, 0]) ? "findutils-default" : "emacs");
    expect(r.optimizeO1).toBe(!versionAtLeast(r.version, [4, 1, 4]));
  });

  it("a ugrep that claims a good version but hangs on the probe tree counts as missing", async () => {
    const hanging = script("hanging-ugrep", `#!/bin/sh\n[ "$1" = --version ] && { echo 'ugrep 7.8.4 x86_64-pc-linux-gnu'; exit 0; }\nexec sleep 30\n`);
    const quick: ProbeRunner = (command, opts) => runProbe(command, { ...opts, timeoutMs: 500 });
    const r = await probeUgrep({ command: [hanging], requires: [hanging] }, quick);
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.reason).toMatch(/did not finish/);
  });

  it("a binary that does not run counts as missing, with the reason", async () => {
    const broken = script("broken", "#!/bin/sh\necho 'error while loading shared libraries: libonig.so.5' >&2\nexit 127\n");
    for (const probe of [probeUgrep, probeBfs, probeRg]) {
      const r = await probe({ command: [broken], requires: [broken] }, runProbe);
      expect(r).toMatchObject({ ok: false });
      if (!r.ok) expect(r.reason).toMatch(/does not run \(exit 127: error while loading shared libraries/);
    }
  });

  it("a bfs without Oniguruma (no emacs dialect) counts as missing", async () => {
    const plainBfs = script(
      "bfs-no-onig",
      `#!/bin/sh\n[ "$1" = --version ] && { echo 'bfs 4.1.4'; exit 0; }\necho 'Supported types are:\n\n  posix-basic:    POSIX basic regular expressions (BRE)\n  posix-extended: POSIX extended regular expressions (ERE)' >&2\nexit 0\n`,
    );
    const r = await probeBfs({ command: [plainBfs], requires: [plainBfs] }, runProbe);
    expect(r).toMatchObject({ ok: false });
  });
});

describe("parsing", () => {
  it("reads versions from each tool's --version", () => {
    expect(parseVersion("ugrep 7.8.4 x86_64-pc-linux-gnu +avx2")).toEqual([7, 8, 4]);
    expect(parseVersion("bfs 4.1.4\n")).toEqual([4, 1, 4]);
    expect(parseVersion("ripgrep 14.1.1 (rev 4649aa9700)")).toEqual([14, 1, 1]);
    expect(parseVersion("bfs 2.6")).toEqual([2, 6, 0]);
    expect(parseVersion("no version here")).toBeUndefined();
    expect(versionAtLeast([7, 8, 2], [7, 8, 2])).toBe(true);
    expect(versionAtLeast([7, 10, 0], [7, 8, 2])).toBe(true);
    expect(versionAtLeast([7, 4, 9], [7, 8, 2])).toBe(false);
  });

  it("reads the dialects from the real `bfs -regextype help` of the bundled and the system bfs", () => {
    for (const file of [path.join(vendor, "bfs"), systemTool("bfs")?.file].filter(Boolean) as string[]) {
      const r = spawnSync(file, ["-regextype", "help"], { encoding: "utf8" });
      const types = parseRegextypes(r.stdout + r.stderr);
      expect(types, file).toEqual(expect.arrayContaining(["posix-basic", "posix-extended", "emacs"]));
    }
    expect(parseRegextypes("  [posix-]awk:  POSIX awk\n  emacs: Emacs\n")).toEqual(["awk", "posix-awk", "emacs"]);
  });
});

describe("ProbeCache", () => {
  it("probes a binary once, and again after the file changed", async () => {
    const file = script("cached", "#!/bin/sh\necho one\n");
    const cache = new ProbeCache();
    let probes = 0;
    const probe = async () => ++probes;
    expect(await cache.get("ugrep", file, probe)).toBe(1);
    expect(await Promise.all([cache.get("ugrep", file, probe), cache.get("ugrep", file, probe)])).toEqual([1, 1]);
    writeFileSync(file, "#!/bin/sh\necho a longer script\n");
    expect(await cache.get("ugrep", file, probe)).toBe(2);
    mkdirSync(path.join(tmp, "gone"));
    expect(await cache.get("ugrep", path.join(tmp, "gone", "x"), probe)).toBe(3);
  });
});
