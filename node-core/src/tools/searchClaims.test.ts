// What the model and the user are told about grep and find inside Bash, checked against what the
// shims really do on a real tree with node_modules, build output, a .git and a nested clone: the
// Bash and Grep descriptions and docs/user/shims.md make claims, and each claim is run here (BASH-SHIM-1,
// BASH-SHIM-8). With the bundled helpers missing the shims fall back to the system's tools and the
// claims would not hold: the test says how to assemble them.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeCores, testCore } from "../../test/support/core.js";
import { tempDir } from "../../test/support/processes.js";
import { vendorBinary } from "../util/vendor.js";
import { BASH_DESCRIPTION } from "./bash.js";
import { grepTool } from "./grep.js";

// Wrapped lines read as one: claims are compared with single spaces.
const repoDoc = (rel: string) => readFileSync(path.join(__dirname, "..", "..", "..", rel), "utf8").replace(/\s+/g, " ");
const SHIMS_DOC = repoDoc("docs/user/shims.md");
const README = repoDoc("README.md");

let root: string;
beforeAll(() => {
  for (const tool of ["ugrep", "bfs"] as const) {
    if (!vendorBinary(tool)) throw new Error(`The bundled ${tool} is missing: assemble the helpers with node-core/scripts/vendor-linux-x64.sh --portable (./scripts/setup does).`);
  }
  root = tempDir("wave-claims-");
  const files: Record<string, string> = {
    ".gitignore": "node_modules/\ndist/\n",
    "src/a.ts": "needle\n",
    "node_modules/lib/b.ts": "needle\n",
    "dist/c.ts": "needle\n",
    ".git/d.ts": "needle\n",
    "vendor/ky/.git/e.ts": "needle\n",
    "vendor/ky/k.ts": "needle\n",
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
});
afterAll(closeCores);

async function run(command: string): Promise<string[]> {
  const t = testCore({ root });
  const r = await t.bash({ command });
  return r.s.output.split("\n").filter(Boolean).sort();
}

describe("grep and find in Bash: what the descriptions and the user guide say is what they do", () => {
  it("BASH-SHIM-1 a recursive grep skips ignored files and version-control directories and prints paths without ./, as claimed", async () => {
    const claim =
      'a recursive grep (-r/-R, or a directory operand) runs a bundled grep that respects .gitignore: ignored files (node_modules, build output, ...), binary files and version-control directories (.git, ...) are skipped, and paths print without "./".';
    expect(BASH_DESCRIPTION).toContain(claim);
    expect(grepTool.description).toContain("In Bash commands, `grep -r` skips ignored and binary files too");
    expect(await run("grep -rl needle .")).toEqual(["src/a.ts", "vendor/ky/k.ts"]);
  });

  it("BASH-SHIM-8 find lists everything, node_modules, build output and .git included, with the paths as given, as claimed", async () => {
    const claim =
      "find is the bundled bfs, which reads no .gitignore and works like GNU find: it lists everything, node_modules, build output and .git included, with paths as you gave them (`find .` prints `./src/a.ts`).";
    expect(BASH_DESCRIPTION).toContain(claim);
    expect(grepTool.description).toContain("`find` does not: it lists everything, like GNU find.");
    expect(SHIMS_DOC).toContain(
      "It reads no `.gitignore`: like GNU find it lists every file (`node_modules`, build output and `.git` included) and prints paths as you gave them (`find .` prints `./src/a.ts`).",
    );
    const all = ["./.git/d.ts", "./dist/c.ts", "./node_modules/lib/b.ts", "./src/a.ts", "./vendor/ky/.git/e.ts", "./vendor/ky/k.ts"];
    expect(await run("find . -name '*.ts'")).toEqual(all);
    // The same as the system's GNU find, file for file.
    expect(await run("command find . -name '*.ts'")).toEqual(all);
    // The description's way to leave a directory out works.
    expect(await run("find . -name node_modules -prune -o -name '*.ts' -print")).toEqual(all.filter((f) => !f.includes("node_modules")));
  });

  it("no description, README or user-guide line still says find skips ignored files", () => {
    for (const [where, text] of [
      ["Bash description", BASH_DESCRIPTION],
      ["Grep description", grepTool.description],
      ["README", README],
      ["docs/user/shims.md", SHIMS_DOC],
    ] as const) {
      expect(text, where).not.toMatch(/grep( -r)?`? and `?find`? (run bundled tools that respect|skip ignored)/);
      expect(text, where).not.toMatch(/`find`[^.]*\.gitignore-aware/);
      expect(text, where).not.toMatch(/\band find run bundled tools that respect/);
      expect(text, where).not.toMatch(/`grep`, `find` and .{0,60} are shell functions that run bundled, `\.gitignore`-aware tools/);
    }
  });
});
