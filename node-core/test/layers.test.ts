// The dependency boundary of node-core/src, checked on the real import graph
// (docs/dev/architecture.md, "Layers"), and proof that the check fails on each kind of breach.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LAYERS, layerViolations, readImportGraph, type ImportGraph } from "./support/layers.js";

const SRC = path.join(__dirname, "..", "src");

function graph(edges: Record<string, string[]>): ImportGraph {
  return new Map(Object.entries(edges).map(([file, targets]) => [file, new Set(targets)]));
}

describe("node-core layers", () => {
  it("every import of src/ points down a layer: no upward or sideways import, no folder cycle, no tool importing a tool", () => {
    const real = readImportGraph(SRC);
    // The scanner really sees the sources (a broken walk would pass vacuously).
    expect(real.get("tools/bash.ts")).toContain("core/tool.ts");
    expect(real.get("cli.ts")?.size).toBeGreaterThan(3);
    expect(layerViolations(real)).toEqual([]);
  });

  it("reports an upward import", () => {
    expect(layerViolations(graph({ "shell/run/7-handle.ts": ["tasks/manager.ts"], "tasks/manager.ts": [] }))).toEqual([
      "upward import: shell/run/7-handle.ts (shell, layer 3) imports tasks/manager.ts (tasks, layer 4)",
    ]);
  });

  it("reports a sideways import between folders of one layer", () => {
    expect(layerViolations(graph({ "shell/consoleText.ts": ["fs/textCodec.ts"], "fs/textCodec.ts": [] }))).toEqual([
      "sideways import: shell/consoleText.ts (shell) imports fs/textCodec.ts (fs); both are in layer 3",
    ]);
  });

  it("reports a folder cycle, also through folders the layer table would otherwise allow one way", () => {
    const violations = layerViolations(graph({ "core/runtime.ts": ["permissions/service.ts"], "permissions/service.ts": ["core/tool.ts"], "core/tool.ts": [] }));
    expect(violations).toContain("upward import: permissions/service.ts (permissions, layer 4) imports core/tool.ts (core, layer 5)");
    expect(violations).toContain("folder cycle: core -> permissions -> core");
  });

  it("reports a tool importing another tool, and a folder without a layer", () => {
    const violations = layerViolations(
      graph({
        "tools/index.ts": ["tools/glob.ts", "tools/grep.ts"],
        "tools/grep.ts": ["tools/glob.ts", "tools/searchSupport.ts"],
        "tools/glob.ts": ["tools/searchSupport.ts"],
        "tools/searchSupport.ts": [],
        "sandbox/bwrap.ts": ["util/log.ts"],
        "util/log.ts": [],
      }),
    );
    expect(violations).toEqual([
      "folder sandbox/ has no layer: add it to LAYERS (test/support/layers.ts) and to the layer drawing in docs/dev/architecture.md",
      "tool imports tool: tools/grep.ts imports tools/glob.ts; move what they share into a module that is not a tool",
    ]);
  });

  it("the layer drawing in docs/dev/architecture.md shows the same layers", async () => {
    const { readFileSync } = await import("node:fs");
    const page = readFileSync(path.join(__dirname, "..", "..", "docs", "dev", "architecture.md"), "utf8");
    const start = page.indexOf("\n## Layers\n");
    expect(start).toBeGreaterThan(0);
    // The drawing is the first fenced block of the section.
    const fence = page.indexOf("```text\n", start);
    const drawing = page.slice(fence, page.indexOf("\n```\n", fence + 1));
    expect(fence).toBeGreaterThan(start);
    expect(fence).toBeLessThan(page.indexOf("\n## ", start + 1));
    for (const folders of LAYERS) for (const f of folders) if (f !== "(root)") expect(drawing, f).toContain(`${f}/`);
  });
});
