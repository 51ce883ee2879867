// realPath inside one decision (withPathMemo) resolves each component once; it must land exactly
// where physicalPath (the writers' resolution) does, for every kind of path the gate meets.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { physicalPath } from "../util/paths.js";
import { realPath, withPathMemo } from "./paths.js";

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-memo-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("realPath with the per-decision memo", () => {
  it("agrees with physicalPath on links, dangling links, chains, `..` in targets, loops, files used as folders and /proc links", () => {
    const ws = path.join(base, "ws");
    mkdirSync(path.join(ws, "deep", "er"), { recursive: true });
    mkdirSync(path.join(base, "elsewhere"));
    writeFileSync(path.join(ws, "file"), "");
    symlinkSync(path.join(base, "elsewhere"), path.join(ws, "out"));
    symlinkSync("../elsewhere/new.txt", path.join(ws, "dangling"));
    symlinkSync("out", path.join(ws, "chain"));
    symlinkSync("deep/er/../../out", path.join(ws, "dots"));
    symlinkSync("deep/er", path.join(ws, "er"));
    symlinkSync("er/../../file", path.join(ws, "physical-dots"));
    symlinkSync("loop-b", path.join(ws, "loop-a"));
    symlinkSync("loop-a", path.join(ws, "loop-b"));
    const paths = [
      ws,
      path.join(ws, "file"),
      path.join(ws, "missing", "deeper", "x.txt"),
      path.join(ws, "out", "x"),
      path.join(ws, "dangling"),
      path.join(ws, "chain", "a", "b"),
      path.join(ws, "dots"),
      path.join(ws, "physical-dots"),
      path.join(ws, "file", "below"),
      path.join(ws, "deep", "..", "out"),
      `/proc/self/root${ws}/out`,
      `/proc/${process.pid}/cwd`,
      "/",
    ];
    withPathMemo(() => {
      for (const p of paths) expect(realPath(p), p).toBe(physicalPath(p));
      // Asked again in the same decision: the memo answers the same.
      for (const p of paths) expect(realPath(p), p).toBe(physicalPath(p));
      expect([path.join(ws, "loop-a", "x"), path.join(ws, "loop-b", "x")]).toContain(realPath(path.join(ws, "loop-a", "x")));
    });
  });

  it("forgets between decisions: a link changed after one decision is seen by the next", () => {
    const dir = path.join(base, "changing");
    mkdirSync(path.join(dir, "one"), { recursive: true });
    mkdirSync(path.join(dir, "two"));
    symlinkSync("one", path.join(dir, "current"));
    expect(withPathMemo(() => realPath(path.join(dir, "current", "f")))).toBe(path.join(dir, "one", "f"));
    rmSync(path.join(dir, "current"));
    symlinkSync("two", path.join(dir, "current"));
    expect(withPathMemo(() => realPath(path.join(dir, "current", "f")))).toBe(path.join(dir, "two", "f"));
  });
});
