// The protocol's JSON Schema (test-fixtures/protocol/schema/wave-protocol.schema.json) is generated
// from the zod schemas the core types its messages with, covers every method and notification the
// core has, and matches PROTOCOL.md's lists. The check of real messages against the schemas runs in
// every test that talks to a core in a child process (test/support/wire.ts, CoreProcess).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { coreEventSchemas } from "../src/base/events.js";
import { hostMethods } from "../src/protocol/methods/index.js";
import { coreNotifications, protocolJsonSchema, protocolJsonSchemaText, wireMethods } from "../src/protocol/schema.js";
import { hostNotificationSchemas } from "../src/protocol/wire.js";
import { wireProblem } from "./support/wire.js";

const SCHEMA_FILE = path.resolve(__dirname, "..", "..", "test-fixtures", "protocol", "schema", "wave-protocol.schema.json");
const SRC = path.resolve(__dirname, "..", "src");
const PROTOCOL_MD = readFileSync(path.resolve(__dirname, "..", "PROTOCOL.md"), "utf8");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) out.push(full);
  }
  return out;
}

/** The section of PROTOCOL.md under `heading` (up to the next heading of the same level). */
function section(heading: string): string {
  const start = PROTOCOL_MD.indexOf(`\n${heading}\n`);
  expect(start, `PROTOCOL.md has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const level = heading.split(" ")[0]!;
  const next = PROTOCOL_MD.indexOf(`\n${level} `, start + heading.length + 2);
  return PROTOCOL_MD.slice(start, next < 0 ? undefined : next);
}

describe("the protocol's JSON Schema", () => {
  it("the committed file is what the zod schemas generate", () => {
    let committed = "";
    try {
      committed = readFileSync(SCHEMA_FILE, "utf8");
    } catch {}
    // Not toEqual on the text: a 100 KB diff says less than the instruction.
    if (committed !== protocolJsonSchemaText()) {
      throw new Error(
        `${path.relative(process.cwd(), SCHEMA_FILE)} is out of date with the zod schemas: run \`npm run protocol:schema\` (at the repository root or in node-core) and commit the file.`,
      );
    }
  });

  it("has params and a result for every method the core serves, initialize and shutdown included", () => {
    const doc = protocolJsonSchema() as { methods: Record<string, { params: unknown; result: unknown }> };
    const served = ["initialize", "shutdown", ...hostMethods.map((m) => m.name)];
    expect(Object.keys(doc.methods).sort()).toEqual([...served].sort());
    for (const m of hostMethods) expect(m.result, `${m.name} has no result schema`).toBeDefined();
    for (const [name, m] of Object.entries(doc.methods)) {
      expect(m.params, name).toMatchObject({});
      expect(m.result, name).toBeDefined();
    }
  });

  it('every event the core emits has a schema: each events.emit("…") and peer.notify("…") in src/ names a notification of the map', () => {
    const emitted = new Set<string>();
    for (const file of sources(SRC)) {
      for (const m of readFileSync(file, "utf8").matchAll(/\.(?:emit|notify)\(\s*"([^"]+)"/g)) emitted.add(m[1]!);
    }
    // The scan sees the emitters (a broken walk would pass vacuously).
    expect(emitted).toContain("tool/started");
    expect(emitted).toContain("processes/leftRunning");
    const known = new Set(Object.keys(coreNotifications()));
    expect([...emitted].filter((n) => !known.has(n) && !(n in hostNotificationSchemas && n !== "$/cancelRequest"))).toEqual([]);
    // And nothing in the map that no one emits.
    expect(Object.keys(coreEventSchemas).filter((n) => !emitted.has(n))).toEqual([]);
  });

  it("PROTOCOL.md documents exactly the methods and notifications the schema has", () => {
    const requests = [...section("## Requests (host → core)").matchAll(/^### `([^`]+)`(?:, `([^`]+)`)?/gm)].flatMap((m) => [m[1]!, ...(m[2] ? [m[2]] : [])]);
    expect(requests.sort()).toEqual(
      wireMethods()
        .map((m) => m.name)
        .sort(),
    );
    const table = (s: string) => [...s.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!).sort();
    // The methods of the table (the ToolCallSummary table below it lists fields, which have no "/").
    expect(table(section("## Notifications (core → host)")).filter((n) => n.includes("/"))).toEqual(Object.keys(coreEventSchemas).sort());
    expect(table(section("## Notifications (host → core)"))).toEqual(Object.keys(hostNotificationSchemas).sort());
  });
});

describe("the wire check (test/support/wire.ts)", () => {
  const methodOf = (id: string | number) => (id === 7 ? "tasks/list" : undefined);
  const task = {
    taskId: "t1",
    sessionId: "main",
    command: "sleep 1",
    origin: "background",
    status: "running",
    startedAt: "x",
    runtimeMs: 1,
    exitCode: null,
    signal: null,
    outputPath: "/o",
    survivors: [],
  };

  it("passes a result and a notification that fit", () => {
    expect(wireProblem({ id: 7, result: { tasks: [task] } }, methodOf)).toBeUndefined();
    expect(wireProblem({ method: "task/started", params: { sessionId: "main", task } }, methodOf)).toBeUndefined();
  });

  it("names a renamed field, a wrong type, an unknown notification and a bad core request", () => {
    const { taskId, ...renamed } = task;
    expect(wireProblem({ id: 7, result: { tasks: [{ ...renamed, taskID: taskId }] } }, methodOf)).toMatch(/tasks\/list result .*tasks\.0\.taskId.*taskID/s);
    expect(wireProblem({ method: "task/started", params: { sessionId: "main", task: { ...task, pid: "12" } } }, methodOf)).toMatch(/task\/started notification.*task\.pid/);
    expect(wireProblem({ method: "task/paused", params: {} }, methodOf)).toMatch(/"task\/paused" that the protocol's schema does not have/);
    expect(wireProblem({ id: "core-1", method: "permission/request", params: { tool: "Bash" } }, methodOf)).toMatch(/permission\/request request: params/);
  });
});
