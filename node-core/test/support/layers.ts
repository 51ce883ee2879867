// The layer rule of node-core/src (docs/dev/architecture.md, "Layers"): every folder sits in one layer and
// imports only from layers below it. Same-layer folders do not import each other (sideways), no
// folder imports one above it (upward), and the folders form no cycle. Inside tools/, a tool does
// not import another tool (shared code lives in a module that is not a tool).
//
// The graph is read from the real sources with the TypeScript compiler's own import scanner:
// static and dynamic imports, `import type` and re-exports all count.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Bottom first. Files directly in src/ (cli.ts, startup.ts) are the top, "(root)". */
export const LAYERS: readonly (readonly string[])[] = [["util"], ["base"], ["env"], ["fs", "shell"], ["tasks", "permissions"], ["core"], ["tools"], ["protocol"], ["(root)"]];

/** File (relative to src, `/`-separated) → the files it imports. */
export type ImportGraph = ReadonlyMap<string, ReadonlySet<string>>;

export const ROOT_FOLDER = "(root)";

export function folderOf(file: string): string {
  const i = file.indexOf("/");
  return i < 0 ? ROOT_FOLDER : file.slice(0, i);
}

/** The import graph of the production sources under `srcDir` (tests excluded). */
export function readImportGraph(srcDir: string): ImportGraph {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts")) files.push(full);
    }
  };
  walk(srcDir);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const ref of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (!ref.fileName.startsWith(".")) continue;
      const resolved = resolveImport(path.dirname(file), ref.fileName);
      if (!resolved) throw new Error(`${path.relative(srcDir, file)} imports ${ref.fileName}, which does not resolve to a file`);
      targets.add(toKey(srcDir, resolved));
    }
    graph.set(toKey(srcDir, file), targets);
  }
  return graph;
}

function resolveImport(fromDir: string, spec: string): string | undefined {
  const base = path.resolve(fromDir, spec);
  const candidates = [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, path.join(base, "index.ts")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

function toKey(srcDir: string, file: string): string {
  return path.relative(srcDir, file).split(path.sep).join("/");
}

export interface LayerRules {
  layers: readonly (readonly string[])[];
  /** Files in tools/ that are tools (what tools/index.ts registers); found from the graph when omitted. */
  toolFiles?: ReadonlySet<string>;
}

/** Every breach of the layer rule, one readable line each; empty when the graph is clean. */
export function layerViolations(graph: ImportGraph, rules: LayerRules = { layers: LAYERS }): string[] {
  const rank = new Map<string, number>();
  for (const [i, folders] of rules.layers.entries()) for (const f of folders) rank.set(f, i);
  const violations: string[] = [];

  const folders = new Set<string>();
  for (const [file, targets] of graph) {
    folders.add(folderOf(file));
    for (const t of targets) folders.add(folderOf(t));
  }
  for (const f of [...folders].sort()) {
    if (!rank.has(f)) violations.push(`folder ${f}/ has no layer: add it to LAYERS (test/support/layers.ts) and to the layer drawing in docs/dev/architecture.md`);
  }

  const folderEdges = new Map<string, Set<string>>();
  for (const [file, targets] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    const from = folderOf(file);
    for (const target of [...targets].sort()) {
      const to = folderOf(target);
      if (from === to) continue;
      (folderEdges.get(from) ?? folderEdges.set(from, new Set()).get(from)!).add(to);
      const a = rank.get(from);
      const b = rank.get(to);
      if (a === undefined || b === undefined) continue;
      if (b > a) violations.push(`upward import: ${file} (${from}, layer ${a}) imports ${target} (${to}, layer ${b})`);
      else if (b === a) violations.push(`sideways import: ${file} (${from}) imports ${target} (${to}); both are in layer ${a}`);
    }
  }

  for (const cycle of folderCycles(folderEdges)) violations.push(`folder cycle: ${[...cycle, cycle[0]].join(" -> ")}`);

  const tools = rules.toolFiles ?? new Set([...(graph.get("tools/index.ts") ?? [])].filter((t) => folderOf(t) === "tools"));
  for (const [file, targets] of graph) {
    if (folderOf(file) !== "tools" || file === "tools/index.ts") continue;
    for (const t of targets) {
      if (tools.has(t) && t !== file) violations.push(`tool imports tool: ${file} imports ${t}; move what they share into a module that is not a tool`);
    }
  }
  return violations;
}

/** The strongly connected groups of more than one folder (Tarjan), each in a stable order. */
function folderCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}
