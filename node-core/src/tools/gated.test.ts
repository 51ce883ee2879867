// The real tools behind the permission layer: Bash asks for its command, Write and Edit for their
// path. A denied call is a clear tool error, starts no process and changes no file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeCores, NO_SANDBOX, ourProcesses, testCore } from "../../test/support/core.js";
import { tempDir } from "../../test/support/processes.js";
import { resultText } from "../core/tool.js";
import { parsePolicy } from "../permissions/service.js";
import { TASKS } from "../tasks/manager.js";

afterEach(closeCores);

const policy = (mode: string, rules: { allow?: string[]; deny?: string[] } = {}) => parsePolicy({ mode, ...rules });

describe("Bash behind the permission layer", () => {
  it("a command a deny rule matches is refused before any process starts", async () => {
    const t = testCore({ permissions: await policy("allow-all", { deny: ["touch:*"] }) });
    const marker = path.join(t.root, "ran.txt");
    const r = await t.call("Bash", { command: `sleep 30 & touch ${marker}`, description: "leave a trace" });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ errorKind: "denied_by_policy" });
    expect(resultText(r)).toMatch(/^Permission denied: Bash may not run `sleep 30 & touch .*ran\.txt`\. .* matches the deny rule `touch:\*`\. Do not retry it/);
    expect(existsSync(marker)).toBe(false);
    expect(ourProcesses()).toEqual([]);
    // The session's task manager (which starts every command) was never even created.
    expect(t.core.sessions.main.peekService(TASKS)).toBeUndefined();
    expect(t.events.find((e) => e.method === "permission/decided")?.params).toMatchObject({ tool: "Bash", outcome: "deny", asked: false });
  });

  it("in ask mode without a way to ask, the call is denied with the --allow rule to add; the rule then lets it run", async () => {
    // No sandbox: inside one, `touch` in the workspace runs without a question.
    const t = testCore({ permissions: await policy("ask"), sandbox: NO_SANDBOX });
    const marker = path.join(t.root, "made.txt");
    const denied = await t.call("Bash", { command: `touch ${marker}` }, { origin: "cli" });
    expect(denied.isError).toBe(true);
    expect(resultText(denied)).toContain("It did not run. Run it again with --allow 'touch:*' or --permission-mode allow-all.");
    expect(existsSync(marker)).toBe(false);
    expect(t.core.sessions.main.peekService(TASKS)).toBeUndefined();

    const allowed = testCore({ root: t.root, permissions: await policy("ask", { allow: ["touch:*"] }), sandbox: NO_SANDBOX });
    const ran = await allowed.bash({ command: `touch ${marker}` }, { origin: "cli" });
    expect(ran.isError).toBe(false);
    expect(existsSync(marker)).toBe(true);
  });

  it("harmless built-ins need no rule even in deny-all mode", async () => {
    const t = testCore({ permissions: await policy("deny-all") });
    const r = await t.bash({ command: "cd . && echo fine" });
    expect(r.isError).toBe(false);
    expect(r.s.output).toBe("fine\n");
  });
});

describe("Write and Edit behind the permission layer", () => {
  it("a deny rule protects a file inside the workspace: Write and Edit change nothing", async () => {
    const t = testCore({ permissions: await policy("allow-all", { deny: ["Write(**/.env)"] }) });
    const env = path.join(t.root, "app", ".env");
    mkdirSync(path.dirname(env));
    writeFileSync(env, "SECRET=1\n");
    expect((await t.call("Read", { file_path: env })).isError).toBe(false);

    const write = await t.call("Write", { file_path: "app/.env", content: "SECRET=2\n" });
    expect(write.isError).toBe(true);
    expect(write.structuredContent).toMatchObject({ errorKind: "denied_by_policy" });
    expect(resultText(write)).toBe(
      `Permission denied: Write may not write ${env}. ${env} matches the deny rule \`Write(**/.env)\`. Do not retry it; choose another way or ask the user to change the permission rules.`,
    );
    const edit = await t.call("Edit", { file_path: env, old_string: "SECRET=1", new_string: "SECRET=3" });
    expect(edit.isError).toBe(true);
    expect(resultText(edit)).toMatch(/^Permission denied: Edit may not write .*\.env\./);
    expect(readFileSync(env, "utf8")).toBe("SECRET=1\n");

    const fresh = await t.call("Write", { file_path: "other/.env", content: "X=1\n" });
    expect(fresh.isError).toBe(true);
    expect(existsSync(path.join(t.root, "other"))).toBe(false);
    // Files the rule does not name are written as usual.
    expect((await t.call("Write", { file_path: "app/config.txt", content: "ok\n" })).isError).toBe(false);
  });

  it("writes inside the allowed directories need no question, even in deny-all mode", async () => {
    const t = testCore({ permissions: await policy("deny-all") });
    const r = await t.call("Write", { file_path: "src/new.ts", content: "export {};\n" });
    expect(r.isError).toBe(false);
    expect(t.events.some((e) => e.method === "permission/decided")).toBe(false);
  });

  it("a write outside the allowed directories is refused without a way to ask, and allowed by a path rule", async () => {
    const outside = tempDir("wave-outside-");
    const target = path.join(outside, "notes", "out.txt");
    const t = testCore({ permissions: await policy("ask") });
    const denied = await t.call("Write", { file_path: target, content: "x\n" }, { origin: "mcp" });
    expect(denied.isError).toBe(true);
    expect(resultText(denied)).toContain(`Permission needed: Write wants to write ${target}.`);
    expect(resultText(denied)).toContain(`start wave-core mcp with --allow 'Write(${path.join(outside, "notes")}/**)'`);
    expect(denied.structuredContent).toMatchObject({ errorKind: "denied_by_policy", warnings: [{ id: "outside-workspace" }] });
    expect(existsSync(path.join(outside, "notes"))).toBe(false);

    const edited = path.join(outside, "keep.txt");
    writeFileSync(edited, "old\n");
    await t.call("Read", { file_path: edited });
    const edit = await t.call("Edit", { file_path: edited, old_string: "old", new_string: "new" }, { origin: "mcp" });
    expect(edit.isError).toBe(true);
    expect(readFileSync(edited, "utf8")).toBe("old\n");

    const allowed = testCore({ root: t.root, permissions: await policy("ask", { allow: [`Write(${outside}/**)`] }) });
    const ok = await allowed.call("Write", { file_path: target, content: "x\n" }, { origin: "mcp" });
    expect(ok.isError).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("x\n");
  });

  it("a symlink inside the workspace that leads outside is judged where it leads", async () => {
    const outside = tempDir("wave-outside-");
    const t = testCore({ permissions: await policy("deny-all") });
    const { symlinkSync } = await import("node:fs");
    symlinkSync(outside, path.join(t.root, "link"));
    const r = await t.call("Write", { file_path: "link/escaped.txt", content: "x\n" });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toContain(`${path.join(outside, "escaped.txt")}`);
    expect(existsSync(path.join(outside, "escaped.txt"))).toBe(false);
  });
});
