import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compileGlob, globWithNode, globWithRipgrep, type GlobOutcome, type GlobRequest } from "./glob.js";
import { resolveRipgrep } from "./ripgrep.js";
import { VCS_DIRECTORIES } from "../util/vcs.js";
import { cleanTempDirs, tempDir } from "../../test/support/fsTestkit.js";

afterEach(cleanTempDirs);

/** Builds a tree; files get increasing mtimes in the order given (the last is the newest). */
function tree(files: string[]): string {
  const root = tempDir();
  const base = Date.now() / 1000 - 1000;
  files.forEach((f, i) => {
    const abs = path.join(root, f);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, f);
    utimesSync(abs, base + i, base + i);
  });
  return root;
}

const rg = resolveRipgrep();
const listers: Array<[string, (req: GlobRequest) => Promise<GlobOutcome>]> = [
  ["node walker", (req) => globWithNode(req, compileGlob(req.pattern, req.root))],
  ["ripgrep split over two processes", (req) => globWithRipgrep(req, compileGlob(req.pattern, req.root), rg!, process.env, 2)],
  ["ripgrep in one process", (req) => globWithRipgrep(req, compileGlob(req.pattern, req.root), rg!, process.env, 1)],
];

function rel(root: string, o: GlobOutcome): string[] {
  return o.matches.map((m) => path.relative(root, m.path));
}

describe("glob patterns", () => {
  it("FS-SEARCH-2 moves literal leading segments into the base and keeps the rest as the pattern", () => {
    const c = compileGlob("src/lib/**/*.ts", "/w");
    expect(c.base).toBe(path.resolve("/w/src/lib"));
    expect(c.relative).toBe("**/*.ts");
    expect(c.basenamePrefilter).toBe("*.ts");
    expect(compileGlob("/abs/dir/*.md", "/w").base).toBe(path.resolve("/abs/dir"));
    expect(compileGlob("../up/**", "/w/x").base).toBe(path.resolve("/w/up"));
    expect(compileGlob("app/[id]/page.tsx", "/w").basenamePrefilter).toBe("page.tsx");
    expect(compileGlob("**/[id].tsx", "/w").basenamePrefilter).toBeUndefined();
  });

  it("FS-SEARCH-2 prunes directories the pattern cannot enter", () => {
    const c = compileGlob("src/*/test/*.ts", "/w");
    expect(c.mayContainMatches("")).toBe(true);
    // base is /w/src; relative pattern */test/*.ts
    expect(c.mayContainMatches("pkg")).toBe(true);
    expect(c.mayContainMatches("pkg/test")).toBe(true);
    expect(c.mayContainMatches("pkg/other")).toBe(false);
    expect(c.mayContainMatches("pkg/test/deeper")).toBe(false);
    expect(compileGlob("**/x/*.ts", "/w").mayContainMatches("a/b/c")).toBe(true);
  });
});

describe.each(listers)("glob listing with the %s", (name, list) => {
  if (name.startsWith("ripgrep") && !rg) throw new Error("ripgrep is required for these tests (npm ci installs @vscode/ripgrep)");

  it("FS-SEARCH-2 returns matching files newest first, including gitignored ones, never .git", async () => {
    const root = tree([".gitignore", "src/old.ts", "node_modules/dep/index.ts", "src/deep/er/new.ts", ".git/hooks/x.ts", "src/readme.md", ".hidden/h.ts"]);
    writeFileSync(path.join(root, ".gitignore"), "node_modules\n.hidden\n");
    const o = await list({ pattern: "**/*.ts", root, limit: 100, timeoutMs: 10_000 });
    expect(rel(root, o)).toEqual([".hidden/h.ts", "src/deep/er/new.ts", "node_modules/dep/index.ts", "src/old.ts"]);
    expect(o.total).toBe(4);
    expect(o.timedOut).toBe(false);
  });

  it("FS-SEARCH-2 never lists a file inside a VCS directory, at any depth and whatever the pattern; a root inside one lists it", async () => {
    const vcs = VCS_DIRECTORIES.flatMap((d) => [`${d}/top.ts`, `vendor/ky/${d}/objects/ab/cd.ts`, `a/b/c/${d}/HEAD`]);
    const root = tree(["src/a.ts", "vendor/ky/index.ts", "vendor/ky/.gitmodules", "wt/.git", ...vcs]);
    const patterns = ["**/*", "**", "*/**/*", "vendor/**", "vendor/ky/**/*", "**/*.ts", "**/HEAD", "**/.git/**", "**/{.git,src}/**/*", "*/*/*/*/*/*", "**/objects/**", "a/b/c/**"];
    for (const pattern of patterns) {
      const o = await list({ pattern, root, limit: 1000, timeoutMs: 10_000 });
      const leaked = rel(root, o).filter((f) =>
        f
          .split(path.sep)
          .slice(0, -1)
          .some((s) => (VCS_DIRECTORIES as readonly string[]).includes(s)),
      );
      expect({ pattern, leaked }).toEqual({ pattern, leaked: [] });
      expect(o.total).toBe(o.matches.length);
    }
    // A worktree's `.git` *file* is not a directory: it is listed.
    expect(rel(root, await list({ pattern: "**/.git", root, limit: 100, timeoutMs: 10_000 }))).toEqual(["wt/.git"]);
    // path given inside a VCS directory: that directory is listed (rg and ugrep search a directory named on their command line).
    const inside = path.join(root, "vendor/ky/.git");
    expect(rel(inside, await list({ pattern: "**/*", root: inside, limit: 100, timeoutMs: 10_000 }))).toEqual(["objects/ab/cd.ts"]);
  });

  it("FS-SEARCH-2 '*.ts' matches only the top directory; braces and limits work", async () => {
    const root = tree(["a.ts", "b.tsx", "c.js", "sub/d.ts"]);
    expect(rel(root, await list({ pattern: "*.ts", root, limit: 100, timeoutMs: 10_000 }))).toEqual(["a.ts"]);
    const braces = await list({ pattern: "**/*.{ts,tsx}", root, limit: 2, timeoutMs: 10_000 });
    expect(rel(root, braces)).toEqual(["sub/d.ts", "b.tsx"]);
    expect(braces.total).toBe(3);
  });

  it("FS-SEARCH-2 matches Next.js-style names with brackets and parentheses literally", async () => {
    const root = tree(["app/[id]/page.tsx", "app/(group)/layout.tsx", "app/i/page.tsx", "app/[...slug]/page.tsx"]);
    expect(rel(root, await list({ pattern: "app/[id]/page.tsx", root, limit: 100, timeoutMs: 10_000 }))).toContain("app/[id]/page.tsx");
    expect(rel(root, await list({ pattern: "app/(group)/*.tsx", root, limit: 100, timeoutMs: 10_000 }))).toEqual(["app/(group)/layout.tsx"]);
    expect(rel(root, await list({ pattern: "app/[...slug]/*.tsx", root, limit: 100, timeoutMs: 10_000 }))).toEqual(["app/[...slug]/page.tsx"]);
  });

  it("FS-SEARCH-2 survives symlink loops and still lists files reached through links", async () => {
    const root = tree(["real/a.ts", "other/b.ts"]);
    symlinkSync("..", path.join(root, "real", "up")); // loop back to the root
    symlinkSync(path.join(root, "other"), path.join(root, "real", "to-other"));
    symlinkSync(path.join(root, "real"), path.join(root, "other", "to-real")); // mutual loop
    const o = await list({ pattern: "**/*.ts", root, limit: 100, timeoutMs: 10_000 });
    const found = rel(root, o);
    expect(found).toContain("real/a.ts");
    expect(found).toContain("other/b.ts");
    expect(found).toContain("real/to-other/b.ts");
    expect(found.length).toBeLessThan(10);
  });

  it("FS-SEARCH-2 picks the newest across many directories and counts every match, with and without an exact pre-filter", async () => {
    const names: string[] = [];
    for (let d = 0; d < 12; d++) for (let f = 0; f < 6; f++) names.push(`d${d}/sub${f % 2}/f${f}-${d}.${f % 3 === 0 ? "md" : "js"}`);
    // tree() gives increasing mtimes in list order: shuffle deterministically so dirs interleave.
    const shuffled = names
      .map((n, i) => [((i * 7919) % 101) + i / 1000, n] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, n]) => n);
    const root = tree(shuffled);
    const jsNewestFirst = [...shuffled].reverse().filter((n) => n.endsWith(".js"));
    const all = await list({ pattern: "**/*.js", root, limit: 5, timeoutMs: 10_000 });
    expect(rel(root, all)).toEqual(jsNewestFirst.slice(0, 5));
    expect(all.total).toBe(jsNewestFirst.length);
    const some = await list({ pattern: "**/f1-*.js", root, limit: 3, timeoutMs: 10_000 });
    const f1 = jsNewestFirst.filter((n) => path.basename(n).startsWith("f1-"));
    expect(rel(root, some)).toEqual(f1.slice(0, 3));
    expect(some.total).toBe(f1.length);
    const nested = await list({ pattern: "d1*/sub1/*.js", root, limit: 100, timeoutMs: 10_000 });
    expect(rel(root, nested).sort()).toEqual(jsNewestFirst.filter((n) => /^d1\d*\/sub1\//.test(n)).sort());
  });

  it("FS-SEARCH-2 stops at the time limit and reports partial results", async () => {
    const files = Array.from({ length: 400 }, (_, i) => `d${i % 40}/f${i}.js`);
    const root = tree(files);
    const o = await list({ pattern: "**/*.js", root, limit: 100, timeoutMs: 0 });
    expect(o.timedOut).toBe(true);
    expect(o.total).toBeLessThan(400);
  });
});

describe("splitting a listing across rg processes", () => {
  it("FS-SEARCH-2 deals entries round-robin, goes one level deeper for a finer split, and never splits around symlinks", async () => {
    const { partitionForListing } = await import("./glob.js");
    const root = tree(["a/x/1.js", "a/y/2.js", "a/z/2.js", "b/w/3.js", "b/4.js", "top.js", ".git/x"]);
    const plan = partitionForListing(root, 2);
    expect(plan.groups).toHaveLength(2);
    expect(
      plan.groups
        .flat()
        .map((p) => path.relative(root, p))
        .sort(),
    ).toEqual(["a/x", "a/y", "a/z", "b/w"]);
    expect(plan.files.map((p) => path.relative(root, p)).sort()).toEqual(["b/4.js", "top.js"]);
    // Directories holding only files are not worth splitting further.
    const flat = tree(["p/1.js", "q/2.js"]);
    expect(
      partitionForListing(flat, 2)
        .groups.flat()
        .map((p) => path.relative(flat, p))
        .sort(),
    ).toEqual(["p", "q"]);
    expect(partitionForListing(root, 1)).toEqual({ groups: [[root]], files: [] });
    // A directory holding a symlink is passed whole, never split into its entries.
    symlinkSync("..", path.join(root, "a", "up"));
    expect(
      partitionForListing(root, 2)
        .groups.flat()
        .map((p) => path.relative(root, p)),
    ).toContain("a");
    symlinkSync("a", path.join(root, "toplink"));
    expect(partitionForListing(root, 2)).toEqual({ groups: [[root]], files: [] });
  });
});

describe("ripgrep's sort order", () => {
  it("FS-SEARCH-2 the ripgrep these tests list with sorts across directories (14 or later)", async () => {
    const { ripgrepSortsGlobally } = await import("./glob.js");
    expect(await ripgrepSortsGlobally(rg!, process.env)).toBe(true);
  });

  it("FS-SEARCH-2 uses --sortr modified only with a ripgrep that really sorts across directories", async () => {
    const { ripgrepSortsGlobally } = await import("./glob.js");
    const { execFileSync } = await import("node:child_process");
    const root = tree(["b/older.js", "a/middle.js", "c/newest.js"]);
    // Directory times run against the file times, so a per-directory sort cannot pass for a global one.
    const t = Date.now() / 1000;
    utimesSync(path.join(root, "b"), t, t);
    utimesSync(path.join(root, "a"), t - 2000, t - 2000);
    utimesSync(path.join(root, "c"), t - 3000, t - 3000);
    const candidates = [rg, { path: "/usr/bin/rg", source: "PATH" as const }].filter((c, i, all) => c && all.findIndex((x) => x?.path === c.path) === i);
    for (const candidate of candidates) {
      let listed: string[];
      try {
        listed = execFileSync(candidate!.path, ["--files", "--no-config", "--sortr", "modified", root], { encoding: "utf8" }).trim().split("\n");
      } catch {
        continue; // not installed here
      }
      const globallySorted = listed.map((p) => path.relative(root, p)).join(",") === "c/newest.js,a/middle.js,b/older.js";
      expect(await ripgrepSortsGlobally(candidate!, process.env)).toBe(globallySorted);
    }
  });
});
