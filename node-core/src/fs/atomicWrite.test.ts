import { spawn } from "node:child_process";
import { promises as fsp } from "node:fs";
import { chmodSync, chownSync, existsSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveWriteTarget, writeFileAtomic } from "./atomicWrite.js";
import { cleanTempDirs, tempDir } from "../../test/support/fsTestkit.js";

afterEach(cleanTempDirs);

/**
 * Writes alternately all-"a" and all-"b" content while a separate process reads the file in a
 * loop, until the reader has made at least 400 reads. Returns how many reads were torn.
 */
async function raceReaderAgainst(target: string, write: (data: Buffer) => Promise<unknown>): Promise<{ reads: number; bad: number }> {
  const size = 256 * 1024;
  const A = Buffer.alloc(size, "a");
  const B = Buffer.alloc(size, "b");
  writeFileSync(target, A);
  const reader = spawn(
    process.execPath,
    [
      "-e",
      `const fs=require("fs");const f=process.argv[1];let reads=0,bad=0;
       process.stdin.on("data",()=>{process.stdout.write(JSON.stringify({reads,bad})+"\\n");process.exit(0)});
       process.stdout.write("ready\\n");
       (function loop(){for(let i=0;i<20;i++){let d;try{d=fs.readFileSync(f)}catch{continue}reads++;
       if(d.length!==${size}||!(d.every(c=>c===97)||d.every(c=>c===98)))bad++;}
       process.stdout.write(reads+"\\n");setImmediate(loop)})();`,
      target,
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  let out = "";
  let reads = 0;
  reader.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    const nums = out.split("\n").filter((l) => /^\d+$/.test(l));
    if (nums.length > 0) reads = Number(nums[nums.length - 1]);
  });
  while (!out.includes("ready")) await new Promise((r) => setTimeout(r, 5));
  const deadline = Date.now() + 20_000;
  for (let i = 0; reads < 400 && Date.now() < deadline; i++) await write(i % 2 ? A : B);
  out = "";
  reader.stdin.write("stop\n");
  await new Promise((r) => reader.once("exit", r));
  const last = out.split("\n").find((l) => l.startsWith("{"));
  return JSON.parse(last!) as { reads: number; bad: number };
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

describe("atomic writes", () => {
  it("FS-ATOMIC-1 writes a complete temp file in the target's directory, then renames it over the target", async () => {
    const dir = tempDir();
    const target = path.join(dir, "file.txt");
    writeFileSync(target, "old");
    const inodeBefore = statSync(target).ino;
    let seen: { temp: string; content: string; targetDuring: string } | undefined;
    const outcome = await writeFileAtomic(target, Buffer.from("new content"), {
      hooks: {
        beforeRename: (temp) => {
          seen = { temp, content: readFileSync(temp, "utf8"), targetDuring: readFileSync(target, "utf8") };
        },
      },
    });
    expect(outcome).toEqual({ path: target, created: false, method: "atomic" });
    expect(path.dirname(seen!.temp)).toBe(dir);
    expect(seen!.content).toBe("new content");
    expect(seen!.targetDuring).toBe("old");
    expect(readFileSync(target, "utf8")).toBe("new content");
    expect(statSync(target).ino).not.toBe(inodeBefore);
    expect(readdirSync(dir)).toEqual(["file.txt"]);
  });

  it("FS-ATOMIC-2 a failure between the temp write and the rename leaves the target unchanged and no temp file", async () => {
    const dir = tempDir();
    const target = path.join(dir, "keep.txt");
    writeFileSync(target, "precious");
    await expect(
      writeFileAtomic(target, Buffer.from("half"), {
        hooks: {
          beforeRename: () => {
            throw Object.assign(new Error("injected: disk vanished"), { code: "EIO" });
          },
        },
      }),
    ).rejects.toThrow("injected");
    expect(readFileSync(target, "utf8")).toBe("precious");
    expect(readdirSync(dir)).toEqual(["keep.txt"]);
  });

  it("FS-ATOMIC-2 a rename that fails for real (target became a directory) cleans up the temp file", async () => {
    const dir = tempDir();
    const target = path.join(dir, "t");
    writeFileSync(target, "x");
    await expect(
      writeFileAtomic(target, Buffer.from("y"), {
        hooks: {
          beforeRename: async () => {
            const { rmSync, mkdirSync } = await import("node:fs");
            rmSync(target);
            mkdirSync(target);
            writeFileSync(path.join(target, "inside"), "z");
          },
        },
      }),
    ).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["t"]);
    expect(readdirSync(target)).toEqual(["inside"]);
  });

  it("FS-ATOMIC-1 keeps the original mode (0755) and owner, and creates new files and parent directories", async () => {
    const dir = tempDir();
    const script = path.join(dir, "run.sh");
    writeFileSync(script, "#!/bin/sh\necho old\n");
    chmodSync(script, 0o755);
    if (isRoot) chownSync(script, 65534, 65534);
    await writeFileAtomic(script, Buffer.from("#!/bin/sh\necho new\n"));
    const st = statSync(script);
    expect(st.mode & 0o7777).toBe(0o755);
    if (isRoot) expect([st.uid, st.gid]).toEqual([65534, 65534]);

    const fresh = path.join(dir, "a", "b", "new.txt");
    expect(await writeFileAtomic(fresh, Buffer.from("hi"))).toMatchObject({ created: true, method: "atomic" });
    expect(readFileSync(fresh, "utf8")).toBe("hi");
  });

  it("FS-ATOMIC-1 writes through a chain of symlinks to the real file; the links survive", async () => {
    const dir = tempDir();
    const real = path.join(dir, "real.txt");
    writeFileSync(real, "old");
    symlinkSync("real.txt", path.join(dir, "link1"));
    symlinkSync(path.join(dir, "link1"), path.join(dir, "link2"));
    const outcome = await writeFileAtomic(path.join(dir, "link2"), Buffer.from("new"));
    expect(outcome.path).toBe(real);
    expect(lstatSync(path.join(dir, "link2")).isSymbolicLink()).toBe(true);
    expect(lstatSync(path.join(dir, "link1")).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe("new");
    // A dangling link is written through too: its target is created.
    symlinkSync("made-by-write.txt", path.join(dir, "dangling"));
    expect(await resolveWriteTarget(path.join(dir, "dangling"))).toBe(path.join(dir, "made-by-write.txt"));
    await writeFileAtomic(path.join(dir, "dangling"), Buffer.from("via link"));
    expect(readFileSync(path.join(dir, "made-by-write.txt"), "utf8")).toBe("via link");
  });

  it("FS-ATOMIC-1 rewrites a file with several hard links in place so every name sees the change", async () => {
    const dir = tempDir();
    const a = path.join(dir, "a.txt");
    const b = path.join(dir, "b.txt");
    writeFileSync(a, "old content that is longer");
    linkSync(a, b);
    const ino = statSync(a).ino;
    const outcome = await writeFileAtomic(a, Buffer.from("new"));
    expect(outcome.method).toBe("in-place");
    expect(readFileSync(b, "utf8")).toBe("new");
    expect(statSync(a).ino).toBe(ino);
    expect(statSync(a).nlink).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt"]);
  });

  it("FS-ATOMIC-2 a failed in-place write of a hard-linked file cleans up and keeps the old content", async () => {
    const dir = tempDir();
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "keep me");
    linkSync(a, path.join(dir, "b.txt"));
    await expect(
      writeFileAtomic(a, Buffer.from("nope"), { hooks: { beforeRename: () => Promise.reject(new Error("injected")) } }),
    ).rejects.toThrow("injected");
    expect(readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("keep me");
    expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt"]);
  });

  it("FS-ATOMIC-2 a concurrent reader only ever sees the old or the new content, never a torn file", async () => {
    const dir = tempDir();
    const target = path.join(dir, "hot.txt");
    const result = await raceReaderAgainst(target, (data) => writeFileAtomic(target, data));
    expect(result.reads).toBeGreaterThanOrEqual(400);
    expect(result.bad).toBe(0);
    expect(readdirSync(dir)).toEqual(["hot.txt"]);
  });

  it("FS-ATOMIC-2 the same reader does catch torn reads of a plain in-place write (the check can fail)", async () => {
    const target = path.join(tempDir(), "plain.txt");
    const result = await raceReaderAgainst(target, (data) => fsp.writeFile(target, data));
    expect(result.bad).toBeGreaterThan(0);
  });

  it("FS-ATOMIC-1 refuses to replace a directory", async () => {
    const dir = tempDir();
    await expect(writeFileAtomic(dir, Buffer.from("x"))).rejects.toMatchObject({ code: "EISDIR" });
    expect(existsSync(dir)).toBe(true);
  });
});
