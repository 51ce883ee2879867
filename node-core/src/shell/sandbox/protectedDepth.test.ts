// Issue 26 §3: the sandbox's protected names at every depth of a writable folder, and the bound on
// them (git.ts PROTECTED_LIMIT): past it, the folders holding the rest are read-only whole.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { clearGitSearchCache, findGitMetadata, PROTECTED_LIMIT } from "./git.js";
import { buildPolicy } from "./policy.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  clearGitSearchCache();
});

function tree(files: string[]): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-protected-")));
  dirs.push(root);
  for (const f of files) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), "x");
  }
  return root;
}

describe("protected names below the top of a writable folder", () => {
  it("are found at any depth, not inside node_modules, and bounded", () => {
    const root = tree([".envrc", "a/.envrc", "a/b/c/d/e/f/.vscode/tasks.json", "p/.mcp.json", "node_modules/x/.envrc", "node_modules/x/node_modules/y/.npmrc", "src/index.ts"]);
    const found = findGitMetadata([root], undefined, {});
    expect(found.protectedFound.sort()).toEqual([".envrc", "a/.envrc", "a/b/c/d/e/f/.vscode", "p/.mcp.json"].map((f) => path.join(root, f)).sort());
    expect(found.protectedHolders).toEqual([]);
    expect(PROTECTED_LIMIT).toBe(256);
  });

  it("past the limit, the folders holding the rest are read-only whole, and the policy says so", () => {
    const root = tree(["a/.envrc", "b/.envrc", "c/.envrc", "d/.envrc", "d/ok.txt", "e/.mcp.json"]);
    const found = findGitMetadata([root], undefined, {}, undefined, 3);
    expect(found.protectedFound).toHaveLength(3);
    expect(found.protectedHolders.sort()).toEqual([path.join(root, "d"), path.join(root, "e")]);
    const policy = buildPolicy({
      home: undefined,
      env: {},
      allowedDirectories: [root],
      allowWrite: [],
      denyRead: [],
      tmpDir: os.tmpdir(),
      runFiles: [],
      network: "allow",
      git: found,
      systemCredentials: [],
    });
    expect(policy.readOnly).toEqual(expect.arrayContaining([path.join(root, "a/.envrc"), path.join(root, "d"), path.join(root, "e")]));
    expect(policy.notes.join("\n")).toMatch(/protected names .* read-only as a whole/);
  });
});
