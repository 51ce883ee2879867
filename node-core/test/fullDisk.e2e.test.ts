// A command whose output cannot be written because the disk is full: the bundled core on a real,
// tiny tmpfs holding both the workspace and the output directory (mounted here, as root, and
// removed afterwards). Without the note, the result was a bare "Exit code 1": the command's own
// "No space left on device" went to the same full file.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE, bundleExists } from "./support/coreProcess.js";
import { tempDir } from "./support/processes.js";

const asRoot = process.getuid?.() === 0;
let disk: string | undefined;

beforeAll(() => {
  if (!bundleExists()) throw new Error(`Build the bundle first (npm run build): ${BUNDLE} is missing.`);
  if (!asRoot) return;
  disk = tempDir("wave-fulldisk-");
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", disk], { encoding: "utf8" });
  if (mounted.status !== 0) throw new Error(`could not mount a tmpfs at ${disk}: ${mounted.stderr}`);
  mkdirSync(path.join(disk, "ws"));
});

afterEach(() => {
  if (disk) rmSync(path.join(disk, "ws", "fill.bin"), { force: true });
});

afterAll(() => {
  if (!disk) return;
  spawnSync("umount", [disk]);
  rmSync(disk, { recursive: true, force: true });
});

function call(tool: string, args: Record<string, unknown>) {
  const run = spawnSync(process.execPath, [BUNDLE, "call", tool, JSON.stringify(args), "--root", path.join(disk!, "ws"), "--sandbox", "off", "--json"], {
    encoding: "utf8",
    env: { ...process.env, WAVE_OUTPUT_DIR: path.join(disk!, "out"), WAVE_LOGIN_ENV: "0" },
    timeout: 60_000,
  });
  return { status: run.status, result: JSON.parse(run.stdout) as { content: Array<{ text: string }>; structuredContent: Record<string, unknown>; isError: boolean } };
}

describe.skipIf(!asRoot)("a full disk under the command's output (a real 1 MB tmpfs; needs root to mount it)", () => {
  // The command fills the disk itself (the core needs a little room to start), then prints.
  const FILL = "head -c 2000000 /dev/zero > fill.bin; echo 'the answer is 42'";

  it("BASH-FG-1 Bash says the output disk is full, and where, instead of a bare exit code", () => {
    const { status, result } = call("Bash", { command: FILL });
    const text = result.content[0]!.text;
    const outDir = path.join(disk!, "out");
    expect(status).toBe(1);
    expect(text).toMatch(
      /^Exit code 1\nThe disk holding the command's output \(([^)]+)\) is full \(\d[\d,]* bytes free\): what the command printed is missing or cut short, and a failed write may be why it failed\. Free space on that disk, or set WAVE_OUTPUT_DIR to a directory on one with room, then run the command again\.\nRan outside the sandbox: sandbox mode is off\.$/,
    );
    expect(/\(([^)]+)\) is full/.exec(text)![1]!.startsWith(outDir + path.sep)).toBe(true);
    expect(result.structuredContent).toMatchObject({ errorKind: "out_of_resources", exitCode: 1 });
  });

  it("RSC-4 run_shell_command's Error says it too", () => {
    const { result } = call("run_shell_command", { command: FILL });
    expect(result.structuredContent).toMatchObject({ errorKind: "out_of_resources", exitCode: 1 });
    expect(result.structuredContent.error).toMatch(/^Command exited with code 1\. The disk holding the command's output \(.+\) is full \(/);
  });

  it("BASH-FG-1 a disk already full when the command would start: out_of_resources, saying where, and nothing ran", () => {
    spawnSync("bash", ["-c", `head -c 2000000 /dev/zero > ${path.join(disk!, "ws", "fill.bin")}`]);
    for (const tool of ["Bash", "run_shell_command"]) {
      const { result } = call(tool, { command: "touch ran" });
      expect(result.structuredContent.errorKind, tool).toBe("out_of_resources");
      expect(result.content[0]!.text, tool).toMatch(
        /Could not write the command's files in .+ \(ENOSPC\): the disk holding it is full\. Free space on that disk, or set WAVE_OUTPUT_DIR to a directory on one with room; nothing ran\./,
      );
    }
  });

  it("BASH-FG-1 with room on the disk, the same command prints and says nothing of the disk", () => {
    const { result } = call("Bash", { command: "echo 'the answer is 42'" });
    expect(result.content[0]!.text).toBe("the answer is 42\nRan outside the sandbox: sandbox mode is off.");
  });
});
