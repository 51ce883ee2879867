// docs/requirements.md is the list of requirements, each with where it is built and tested. This
// keeps it true: every ID that code or a test cites is listed, every listed ID is cited by a test,
// and the files it names exist (the test files among them citing the ID).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(__dirname, "..", "..");
const DOC = path.join(repo, "docs", "requirements.md");
const KOTLIN_MAIN = "plugin-kotlin/src/main/kotlin/dev/wavetools/wave/";
const KOTLIN_TEST = "plugin-kotlin/src/test/kotlin/dev/wavetools/wave/";

interface Row {
  id: string;
  statement: string;
  implemented: string[];
  tested: string[];
}

function expand(p: string): string {
  if (p.startsWith("kt:")) return KOTLIN_MAIN + p.slice(3);
  if (p.startsWith("kt-test:")) return KOTLIN_TEST + p.slice(8);
  return p;
}

function paths(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => expand(m[1]!));
}

function readDoc(): { rows: Row[]; groups: string[] } {
  const rows: Row[] = [];
  const groups: string[] = [];
  for (const line of readFileSync(DOC, "utf8").split("\n")) {
    const group = /^## .*\(([A-Z]+(?:-[A-Z]+)*)\)$/.exec(line);
    if (group) groups.push(group[1]!);
    const cells = line.split(" | ");
    if (!line.startsWith("| ") || cells.length !== 4 || !/^\| [A-Z]+(-[A-Z]+)*-\d+$/.test(cells[0]!)) continue;
    rows.push({ id: cells[0]!.slice(2), statement: cells[1]!, implemented: paths(cells[2]!), tested: paths(cells[3]!.replace(/ \|$/, "")) });
  }
  return { rows, groups };
}

/** Source, test and script files of both halves of the project (what can cite an ID). */
function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name === "build" || name === "dist" || name === "vendor") continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|mts|mjs|kt|kts)$/.test(name)) out.push(full);
    }
  };
  for (const dir of ["node-core/src", "node-core/test", "node-core/bench", "node-core/scripts", "plugin-kotlin/src", "plugin-kotlin/scripts"]) {
    walk(path.join(repo, dir));
  }
  return out.filter((f) => f !== __filename);
}

const isTestFile = (f: string) => /\.test\.ts$|Test\.kt$/.test(f);
const rel = (f: string) => path.relative(repo, f).split(path.sep).join("/");

function citing(id: string, text: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9-])${id}(?![A-Za-z0-9-])`).test(text);
}

describe("docs/requirements.md", () => {
  const { rows, groups } = readDoc();
  const ids = new Set(rows.map((r) => r.id));
  const files = sources().map((f) => ({ file: rel(f), text: readFileSync(f, "utf8") }));
  const families = [...new Set(groups.map((g) => g.split("-")[0]!))];
  const cited = new RegExp(`(?<![A-Za-z0-9_-])(?:${families.join("|")})(?:-[A-Z]+)*-\\d+(?![A-Za-z0-9-])`, "g");

  it("lists each requirement once, with a statement, under its group", () => {
    expect(rows.length).toBeGreaterThan(90);
    expect(rows.length).toBe(ids.size);
    for (const r of rows) {
      expect(r.statement.length, r.id).toBeGreaterThan(20);
      expect(
        groups.some((g) => r.id.startsWith(`${g}-`)),
        r.id,
      ).toBe(true);
    }
  });

  it("lists every ID that code and tests cite", () => {
    const unlisted = new Map<string, string>();
    for (const { file, text } of files) {
      for (const m of text.matchAll(cited)) if (!ids.has(m[0])) unlisted.set(m[0], file);
      // A test named after an ID of a family this file does not know yet counts too.
      for (const m of text.matchAll(/(?:\bit\(\s*["'`]|\bfun `)([A-Z][A-Z0-9]*(?:-[A-Z]+)*-\d+)\b/g)) {
        if (!ids.has(m[1]!)) unlisted.set(m[1]!, file);
      }
    }
    expect(Object.fromEntries(unlisted), "add these to docs/requirements.md").toEqual({});
  });

  it("names only groups it has when code cites a whole group", () => {
    const groupRef = new RegExp(`(?<![A-Za-z0-9_-])(?:${families.join("|")})-[A-Z]+(?![A-Za-z0-9_-])`, "g");
    const unknown = new Map<string, string>();
    for (const { file, text } of files) for (const m of text.matchAll(groupRef)) if (!groups.includes(m[0])) unknown.set(m[0], file);
    expect(Object.fromEntries(unknown)).toEqual({});
  });

  it("has every listed requirement cited by a test", () => {
    const tests = files.filter((f) => isTestFile(f.file));
    const untested = rows.filter((r) => !tests.some((t) => citing(r.id, t.text))).map((r) => r.id);
    expect(untested, "no test cites these").toEqual([]);
  });

  it("names files that exist, and test files that cite the requirement", () => {
    for (const r of rows) {
      expect(r.implemented.length, r.id).toBeGreaterThan(0);
      expect(r.tested.length, r.id).toBeGreaterThan(0);
      for (const p of [...r.implemented, ...r.tested]) expect(existsSync(path.join(repo, p)), `${r.id}: ${p}`).toBe(true);
      for (const p of r.tested) expect(citing(r.id, readFileSync(path.join(repo, p), "utf8")), `${r.id} is not cited in ${p}`).toBe(true);
    }
  });
});
