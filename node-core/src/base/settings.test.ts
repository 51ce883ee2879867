import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../../test/support/logs.js";
import { DEFAULT_SEARCH_TIMEOUT_MS, SETTING_SCHEMAS, Settings } from "./settings.js";

/** The warnings `run` logs (claimed: they are asserted, not printed). */
function warnings(run: () => void): string[] {
  const logs = captureLogs();
  run();
  return logs.records.filter((r) => r.level === "warn").map((r) => r.message);
}

describe("workspace settings", () => {
  it("every setting has its default until the host gives it", () => {
    const s = new Settings();
    expect(s.get("shims")).toBe(true);
    expect(s.get("additionalDirectories")).toEqual([]);
    expect(s.get("permissions")).toBeUndefined();
    expect(s.get("fs.searchTimeoutMs")).toBe(DEFAULT_SEARCH_TIMEOUT_MS);
  });

  it("a value the schema refuses keeps the default, says which setting and why, and a later valid value applies", () => {
    const s = new Settings();
    s.update({ shims: false });
    expect(s.get("shims")).toBe(false);
    // A host that sent "false" meant something: the shims stay on, and the log says so.
    expect(warnings(() => s.update({ shims: "false" }))).toEqual([expect.stringMatching(/^The "shims" setting was ignored \(shims: .*boolean.*\); its default applies\.$/)]);
    expect(s.get("shims")).toBe(true);
    expect(s.entry("shims").problem).toMatch(/boolean/);
    s.update({ shims: false });
    expect(s.get("shims")).toBe(false);
    expect(s.entry("shims").problem).toBeUndefined();

    expect(warnings(() => s.update({ additionalDirectories: ["/a", 3], "fs.searchTimeoutMs": "10" }))).toHaveLength(2);
    expect(s.get("additionalDirectories")).toEqual([]);
    expect(s.get("fs.searchTimeoutMs")).toBe(DEFAULT_SEARCH_TIMEOUT_MS);
    s.update({ permissions: { mode: "sometimes" } });
    expect(s.entry("permissions").problem).toMatch(/^permissions\.mode: /);
  });

  it("an entry keeps its identity until the host sends that key again (readers tell changed from unchanged)", () => {
    const s = new Settings();
    s.update({ permissions: { allow: ["git status"] } });
    const first = s.entry("permissions");
    s.update({ shims: false, "fs.searchTimeoutMs": 5 });
    expect(s.entry("permissions")).toBe(first);
    s.update({ permissions: { allow: ["git status"] } });
    expect(s.entry("permissions")).not.toBe(first);
    expect(s.get("permissions")).toEqual({ allow: ["git status"] });
  });

  it("unknown keys are kept as given and read by nobody", () => {
    const s = new Settings();
    expect(warnings(() => s.update({ future: { x: 1 }, shims: true }))).toEqual([]);
    s.update({ "fs.searchTimeoutMs": 1000 });
    expect(s.asGiven()).toEqual({ future: { x: 1 }, shims: true, "fs.searchTimeoutMs": 1000 });
  });

  it("PROTOCOL.md documents exactly the settings of the schema", () => {
    const doc = readFileSync(path.join(__dirname, "..", "..", "PROTOCOL.md"), "utf8");
    const section = doc.slice(doc.indexOf("\n## Settings"), doc.indexOf("\n## ", doc.indexOf("\n## Settings") + 1));
    const documented = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(SETTING_SCHEMAS).sort());
  });
});
