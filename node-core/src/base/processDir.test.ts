// The sweep of what gone core processes left: their output folders and the temporary files they
// noted, told apart from a live process's by pid and start time.
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NO_SUCH_PID, tempDir } from "../../test/support/processes.js";
import { processStartTime } from "../util/processIdentity.js";
import { removeStaleOutput } from "./processDir.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = tempDir("wave-sweep-");
  dirs.push(d);
  return d;
}

const goneProcess = () => NO_SUCH_PID;

describe.runIf(process.platform === "linux")("the sweep of gone cores' output folders", () => {
  it("removes the folder of every gone process, and of a process whose pid was reused; keeps live ones and what is not a core's", async () => {
    const root = scratch();
    const gone = goneProcess();
    const parent = process.ppid;
    const parentStart = processStartTime(parent)!;
    const names = {
      gone: `${gone}-123-aaaaaaaa`,
      // A live process has this pid, but it started later than the process that made the folder.
      reused: `${parent}-1-bbbbbbbb`,
      live: `${parent}-${parentStart}-cccccccc`,
      goneLegacy: `${gone}-dddddddd`,
      liveLegacy: `${parent}-eeeeeeee`,
      unrelated: "notes",
    };
    for (const n of Object.values(names)) mkdirSync(path.join(root, n, "sub"), { recursive: true });
    const removed = await removeStaleOutput(root);
    expect(removed.map((d) => path.basename(d)).sort()).toEqual([names.gone, names.reused, names.goneLegacy].sort());
    expect(readdirSync(root).sort()).toEqual([names.live, names.liveLegacy, names.unrelated].sort());
  });

  it("removes the temporary files a gone core noted (a Write cut short beside the user's file), and nothing else", async () => {
    const root = scratch();
    const work = scratch();
    const gone = goneProcess();
    const dir = path.join(root, `${gone}-77-aaaaaaaa`, "pending");
    mkdirSync(dir, { recursive: true });
    const leftover = path.join(work, `.big.bin.wave-${gone}-77-0123456789ab.tmp`);
    const userFile = path.join(work, "big.bin");
    const otherCores = path.join(work, `.big.bin.wave-${gone}-78-0123456789ab.tmp`);
    const outside = scratch();
    const target = path.join(outside, "precious");
    const link = path.join(work, `.link.wave-${gone}-77-0123456789ab.tmp`);
    for (const f of [leftover, userFile, otherCores, target]) writeFileSync(f, "x");
    symlinkSync(target, link);
    writeFileSync(path.join(dir, "n1"), leftover);
    // Notes that name something else than that process's own temporary file are not trusted.
    writeFileSync(path.join(dir, "n2"), userFile);
    writeFileSync(path.join(dir, "n3"), otherCores);
    writeFileSync(path.join(dir, "n4"), "relative/.x.wave-1-1-0.tmp");
    writeFileSync(path.join(dir, "n5"), link);
    await removeStaleOutput(root);
    expect(existsSync(leftover)).toBe(false);
    expect([userFile, otherCores, target, link].map((f) => existsSync(f))).toEqual([true, true, true, true]);
    expect(readdirSync(root)).toEqual([]);
  });
});
