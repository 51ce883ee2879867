import { spawn } from "node:child_process";
import { promises as fsp } from "node:fs";
import {
  appendFileSync,
  rmSync,
  truncateSync,
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
  closeSync,
} from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { physicalPath } from "../util/paths.js";
import { PathChanged, TargetChanged, writeFileAtomic } from "./atomicWrite.js";
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
    let seen: { temp: string; content: string; targetDuring: string; listing: string[] } | undefined;
    const outcome = await writeFileAtomic(target, Buffer.from("new content"), {
      hooks: {
        beforeRename: (temp) => {
          seen = { temp, content: readFileSync(temp, "utf8"), targetDuring: readFileSync(target, "utf8"), listing: readdirSync(dir) };
        },
      },
    });
    expect(outcome).toMatchObject({ path: target, created: false, method: "atomic", splitHardLinks: false });
    // The temp file is reached through the open directory (/proc/self/fd/N/…) but lives in it.
    expect(seen!.listing).toContain(path.basename(seen!.temp));
    expect(seen!.listing).toHaveLength(2);
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
    expect(physicalPath(path.join(dir, "dangling"))).toBe(path.join(dir, "made-by-write.txt"));
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
    await expect(writeFileAtomic(a, Buffer.from("nope"), { hooks: { beforeRename: () => Promise.reject(new Error("injected")) } })).rejects.toThrow("injected");
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

describe("atomic writes bound to what was checked", () => {
  it("refuses to write when the path now leads elsewhere than the approved real path", async () => {
    const dir = tempDir();
    const elsewhere = tempDir("wave-elsewhere-");
    symlinkSync(elsewhere, path.join(dir, "sub"));
    const asked = path.join(dir, "sub", "f.txt");
    const err = await writeFileAtomic(asked, Buffer.from("x"), { approvedPath: asked }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PathChanged);
    expect((err as Error).message).toContain(`now leads to ${path.join(elsewhere, "f.txt")}, not to ${asked}`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("creates missing directories one by one inside the checked one", async () => {
    const dir = tempDir();
    const target = path.join(dir, "a", "b", "c.txt");
    const outcome = await writeFileAtomic(target, Buffer.from("deep"), { approvedPath: target, expected: { kind: "absent" } });
    expect(outcome).toMatchObject({ path: target, created: true, method: "atomic" });
    expect(readFileSync(target, "utf8")).toBe("deep");
  });

  it("without leave to change every name, a hard-linked file is replaced under this name only", async () => {
    const dir = tempDir();
    const a = path.join(dir, "a.txt");
    const other = path.join(dir, "other.txt");
    writeFileSync(a, "old");
    linkSync(a, other);
    const outcome = await writeFileAtomic(a, Buffer.from("new"), { keepHardLinks: false });
    expect(outcome).toMatchObject({ method: "atomic", splitHardLinks: true });
    expect(readFileSync(a, "utf8")).toBe("new");
    expect(readFileSync(other, "utf8")).toBe("old");
    expect(statSync(other).nlink).toBe(1);
  });

  it("a file that appeared since the caller looked is not replaced", async () => {
    const dir = tempDir();
    const target = path.join(dir, "new.txt");
    const err = await writeFileAtomic(target, Buffer.from("mine"), {
      expected: { kind: "absent" },
      hooks: { beforeRename: () => writeFileSync(target, "theirs") },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetChanged);
    expect((err as TargetChanged).how).toBe("appeared");
    expect(readFileSync(target, "utf8")).toBe("theirs");
    expect(readdirSync(dir)).toEqual(["new.txt"]);
  });

  it("lines appended after the caller read the file stop the rename (checked at the last moment)", async () => {
    const dir = tempDir();
    const target = path.join(dir, "log.txt");
    writeFileSync(target, "one\n");
    const stat = statSync(target);
    const err = await writeFileAtomic(target, Buffer.from("ONE\n"), {
      expected: { kind: "file", stat, bytes: Buffer.from("one\n") },
      hooks: { beforeRename: () => appendFileSync(target, "two\n") },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetChanged);
    expect(readFileSync(target, "utf8")).toBe("one\ntwo\n");
    expect(readdirSync(dir)).toEqual(["log.txt"]);
  });

  it.each([
    [
      "an editor's save (a new file renamed over it)",
      (target: string) => {
        writeFileSync(`${target}.swp`, "one\n");
        renameSync(`${target}.swp`, target);
      },
    ],
    ["a truncation", (target: string) => truncateSync(target, 0)],
    ["a removal", (target: string) => rmSync(target)],
  ])("%s after the caller read the file stops the rename", async (_what, change) => {
    const dir = tempDir();
    const target = path.join(dir, "f.txt");
    writeFileSync(target, "one\n");
    const stat = statSync(target);
    const err = await writeFileAtomic(target, Buffer.from("mine\n"), {
      expected: { kind: "file", stat, bytes: Buffer.from("one\n") },
      hooks: { beforeRename: () => change(target) },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetChanged);
    expect(existsSync(target) ? readFileSync(target, "utf8") : "(gone)").not.toBe("mine\n");
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("whileFlushing runs once, after the new bytes are in the temporary file and before the rename; its exception stops nothing", async () => {
    const dir = tempDir();
    const target = path.join(dir, "f.txt");
    writeFileSync(target, "old\n");
    const seen: string[] = [];
    const outcome = await writeFileAtomic(target, Buffer.from("new\n"), {
      whileFlushing: () => {
        const temps = readdirSync(dir).filter((n) => n !== "f.txt");
        seen.push(`${readFileSync(target, "utf8")}|${temps.map((t) => readFileSync(path.join(dir, t), "utf8")).join(",")}`);
        throw new Error("the caller's own failure");
      },
    });
    expect(outcome.method).toBe("atomic");
    expect(seen).toEqual(["old\n|new\n"]);
    expect(readFileSync(target, "utf8")).toBe("new\n");
    // An in-place rewrite (several hard links) has no temporary file to flush: not called.
    linkSync(target, path.join(dir, "other-name.txt"));
    let called = 0;
    const inPlace = await writeFileAtomic(target, Buffer.from("newer\n"), { whileFlushing: () => void called++ });
    expect(inPlace.method).toBe("in-place");
    expect(called).toBe(0);
  });

  it.each([
    [
      "a same-size rewrite",
      (target: string) => {
        const fd = openSync(target, "r+");
        writeSync(fd, "bbbb", 0);
        closeSync(fd);
      },
      "bbbb",
    ],
    ["an append (the expected bytes still start the file)", (target: string) => appendFileSync(target, "tail"), "aaaatail"],
  ])("%s that kept the mtime is caught by comparing the bytes", async (_what, change, after) => {
    const dir = tempDir();
    const target = path.join(dir, "same.txt");
    writeFileSync(target, "aaaa");
    // A whole-second mtime can be set back exactly.
    utimesSync(target, 1_700_000_000, 1_700_000_000);
    const stat = statSync(target);
    const err = await writeFileAtomic(target, Buffer.from("mine"), {
      expected: { kind: "file", stat, bytes: Buffer.from("aaaa") },
      hooks: {
        beforeRename: () => {
          change(target);
          utimesSync(target, 1_700_000_000, 1_700_000_000);
        },
      },
    }).catch((e: unknown) => e);
    expect(statSync(target).mtimeMs).toBe(stat.mtimeMs);
    expect(err).toBeInstanceOf(TargetChanged);
    expect(readFileSync(target, "utf8")).toBe(after);
  });

  it("a write to the replaced file between the last check and the rename is put back (with lines appended since), and reported stale", async () => {
    const dir = tempDir();
    const target = path.join(dir, "held.txt");
    writeFileSync(target, "line 1\n");
    const stat = statSync(target);
    let logger: number | undefined;
    const err = await writeFileAtomic(target, Buffer.from("edited\n"), {
      expected: { kind: "file", stat, bytes: Buffer.from("line 1\n") },
      hooks: {
        // A logger holding the file open: its next line goes to the file it opened, whatever the name holds.
        beforeRename: () => void (logger = openSync(target, "a")),
        afterRename: () => {
          writeSync(logger!, "line 2\n");
          closeSync(logger!);
          // And a line appended by name, which lands in the new file before the undo.
          appendFileSync(target, "line 3\n");
        },
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetChanged);
    expect(readFileSync(target, "utf8")).toBe("line 1\nline 2\nline 3\n");
    expect(statSync(target).mode & 0o7777).toBe(stat.mode & 0o7777);
    expect(readdirSync(dir)).toEqual(["held.txt"]);
  });

  for (const pinDirectory of [true, false]) {
    it(`a directory moved away right after the rename is noticed and the write undone (${pinDirectory ? "pinned" : "portable"})`, async () => {
      const base = tempDir();
      const dir = path.join(base, "dir");
      mkdirSync(dir);
      const target = path.join(dir, "f.txt");
      writeFileSync(target, "before");
      const err = await writeFileAtomic(target, Buffer.from("after"), {
        pinDirectory,
        hooks: { afterRename: () => renameSync(dir, path.join(base, "moved")) },
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PathChanged);
      if (pinDirectory) {
        // Through the open directory the undo reaches the file where it went.
        expect((err as Error).message).toContain(`its directory is now at ${path.join(base, "moved")}`);
        expect((err as Error).message).toContain("the previous content is back");
        expect(readFileSync(path.join(base, "moved", "f.txt"), "utf8")).toBe("before");
      } else {
        expect((err as Error).message).toMatch(/was moved or replaced while it was being written/);
      }
      expect(readdirSync(path.join(base, "moved"))).toEqual(["f.txt"]);
    });
  }

  it("a new file whose directory moved away right after the rename is removed again", async () => {
    const base = tempDir();
    const dir = path.join(base, "dir");
    mkdirSync(dir);
    const err = await writeFileAtomic(path.join(dir, "new.txt"), Buffer.from("x"), {
      hooks: { afterRename: () => renameSync(dir, path.join(base, "moved")) },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toContain("the new file was removed");
    expect(readdirSync(path.join(base, "moved"))).toEqual([]);
  });
});
