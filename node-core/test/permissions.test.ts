// The permission layer as a host and a script see it: the real bundle, real pipes. The round trip
// goes through permissions/check, the same PermissionService.check every gated tool calls.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE, CoreProcess, type Message } from "./support/coreProcess.js";
import { processesOfCore, tempDir } from "./support/processes.js";
import { makeWorkspace } from "./transcript.js";

const cores: CoreProcess[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.kill();
});

async function start(opts: { args?: string[]; initialize?: object } = {}): Promise<{ core: CoreProcess; root: string }> {
  const root = makeWorkspace();
  const core = new CoreProcess(["serve", "--root", root, ...(opts.args ?? [])]);
  cores.push(core);
  const init = await core.request("initialize", opts.initialize ?? { capabilities: { permissionRequests: true } });
  expect(init.error).toBeUndefined();
  return { core, root };
}

const isAsk = (m: Message) => m.method === "permission/request" && typeof m.id === "string";
const answer = (core: CoreProcess, ask: Message, result: unknown) => core.send({ jsonrpc: "2.0", id: ask.id, result });

describe("permission/request round trip (bundled core)", () => {
  it("shows the preview, and allow-once lets it through", async () => {
    const { core, root } = await start();
    const check = core.request("permissions/check", { tool: "Bash", command: "git fetch && rm -rf ~/scratch", description: "tidy up" });
    const ask = await core.waitFor(isAsk);
    expect(ask.id).toBe("core-1");
    expect(ask.params).toMatchObject({
      sessionId: "main",
      tool: "Bash",
      kind: "command",
      command: "git fetch && rm -rf ~/scratch",
      description: "tidy up",
      directory: root,
      warnings: [{ id: "delete-outside-workspace", part: "rm -rf ~/scratch" }],
      suggestedRules: ["git fetch:*", "rm -rf ~/scratch"],
      timeoutMs: 600000,
    });
    expect(ask.params.warnings[0].message).toMatch(/^Deletes recursively .*scratch, outside the workspace\.$/);
    answer(core, ask, { decision: "allow-once" });
    const res = await check;
    expect(res.result).toMatchObject({ allowed: true, asked: true, answer: { decision: "allow-once" } });
    expect(core.notifications("permission/decided")[0]!.params).toMatchObject({ outcome: "allow", asked: true, answer: "allow-once", tool: "Bash" });
  });

  it("always-allow remembers the edited rule, notifies the host, and the next check does not ask", async () => {
    const { core } = await start();
    const first = core.request("permissions/check", { command: "npm run test:unit" });
    answer(core, await core.waitFor(isAsk), { decision: "always-allow", rule: "npm run test:*" });
    expect((await first).result).toMatchObject({ allowed: true, rulesAdded: ["npm run test:*"] });
    const changed = await core.waitFor((m) => m.method === "permission/rulesChanged");
    expect(changed.params).toEqual({ mode: "ask", allow: ["npm run test:*"], deny: [], change: { type: "always-allow", kind: "allow", rules: ["npm run test:*"] } });
    const second = await core.request("permissions/check", { command: "npm run test:e2e -- --ci" });
    expect(second.result).toMatchObject({ allowed: true, asked: false });
    expect(core.received.filter(isAsk)).toHaveLength(1);
  });

  it("deny carries the user's message to the model", async () => {
    const { core } = await start();
    const check = core.request("permissions/check", { command: "make deploy" });
    answer(core, await core.waitFor(isAsk), { decision: "deny", message: "deploys go through CI" });
    const res = await check;
    expect(res.result.allowed).toBe(false);
    expect(res.result.message).toBe("Permission denied: the user did not allow Bash to run `make deploy`. The user said: deploys go through CI. Do not retry the same thing without asking the user.");
  });

  it("denies after the documented timeout and takes the question down", async () => {
    const { core } = await start({ initialize: { capabilities: { permissionRequests: true }, settings: { permissions: { askTimeoutMs: 1000 } } } });
    const check = core.request("permissions/check", { command: "make deploy" });
    const ask = await core.waitFor(isAsk);
    expect(ask.params.timeoutMs).toBe(1000);
    const res = await check;
    expect(res.result).toMatchObject({ allowed: false, asked: true });
    expect(res.result.message).toMatch(/nobody answered the request to run `make deploy` within 1 s/);
    expect(core.received.some((m) => m.method === "$/cancelRequest" && m.params?.id === ask.id)).toBe(true);
    // A late answer is ignored and the core keeps serving.
    answer(core, ask, { decision: "allow-once" });
    expect((await core.request("permissions/list", {})).result.mode).toBe("ask");
  });

  it("cancelling the check cancels the question", async () => {
    const { core } = await start();
    core.send({ jsonrpc: "2.0", id: "chk", method: "permissions/check", params: { command: "make deploy" } });
    const ask = await core.waitFor(isAsk);
    core.notify("$/cancelRequest", { id: "chk" });
    await core.waitFor((m) => m.method === "$/cancelRequest" && m.params?.id === ask.id);
    const res = await core.waitFor((m) => m.id === "chk");
    expect(res.result).toMatchObject({ allowed: false });
    expect(res.result.message).toMatch(/cancelled while waiting for permission/);
  });

  it("an answer that is not understood, or an error from the host, denies", async () => {
    const { core } = await start();
    const bad = core.request("permissions/check", { command: "make a" });
    answer(core, await core.waitFor(isAsk), { decision: "maybe" });
    expect((await bad).result.message).toMatch(/answer .* was not understood/);
    const failed = core.request("permissions/check", { command: "make b" });
    const ask = await core.waitFor((m) => isAsk(m) && m.params.command === "make b");
    core.send({ jsonrpc: "2.0", id: ask.id, error: { code: -32603, message: "card crashed" } });
    expect((await failed).result.message).toMatch(/could not be shown to the user \(card crashed\)/);
  });

  it("says whether the command runs in the sandbox: permissions/evaluate results and permission/request params", async () => {
    const { core } = await start();
    const why = "no sandbox is available: bwrap is not installed";
    const inside = await core.request("permissions/evaluate", { command: "npm install", sandboxed: true });
    expect(inside.result).toMatchObject({ outcome: "allow", sandboxed: true, parts: [{ status: "allowed", rule: "(sandbox)" }] });
    expect(inside.result.outsideSandboxReason).toBeUndefined();
    const outside = await core.request("permissions/evaluate", { command: "npm install", outsideSandboxReason: why });
    expect(outside.result).toMatchObject({ outcome: "ask", sandboxed: false, outsideSandboxReason: why });
    // A danger warning is asked about even inside the sandbox.
    expect((await core.request("permissions/evaluate", { command: "rm -rf ~", sandboxed: true })).result.outcome).toBe("ask");
    const check = core.request("permissions/check", { command: "npm install", outsideSandboxReason: why });
    const ask = await core.waitFor(isAsk);
    expect(ask.params).toMatchObject({ kind: "command", sandboxed: false, outsideSandboxReason: why });
    answer(core, ask, { decision: "deny" });
    expect((await check).result).toMatchObject({ allowed: false, asked: true });
    const write = await core.request("permissions/evaluate", { path: ".git/config" });
    expect(write.result).toMatchObject({ outcome: "ask", kind: "path", warnings: [{ id: "sensitive-path" }] });
    expect(write.result.sandboxed).toBeUndefined();
    const wrong = await core.request("permissions/evaluate", { command: "ls", sandboxed: "yes" });
    expect(wrong.error?.code).toBe(-32602);
  });

  it("without the capability nothing is asked: the mode decides and the message says how to allow", async () => {
    const { core } = await start({ initialize: {} });
    const res = await core.request("permissions/check", { command: "make deploy" });
    expect(res.result).toMatchObject({ allowed: false, asked: false });
    expect(res.result.message).toMatch(/did not declare capabilities\.permissionRequests/);
    expect(res.result.message).toContain('add "make:*" with permissions/addRule');
    expect(res.result.message).toContain("--allow 'make:*'");
    expect(core.received.filter(isAsk)).toHaveLength(0);
    expect((await core.request("permissions/list", {})).result.canAsk).toBe(false);
  });
});

describe("rules and modes (bundled core)", () => {
  it("takes --permission-mode, --allow and --deny from the command line", async () => {
    const { core } = await start({ args: ["--permission-mode", "deny-all", "--allow", "git status", "--allow", "Bash(npm run test:*)", "--deny", "rm:*"] });
    const list = await core.request("permissions/list", {});
    expect(list.result).toMatchObject({
      mode: "deny-all",
      modeSource: "command-line",
      allow: [
        { rule: "git status", source: "command-line" },
        { rule: "npm run test:*", source: "command-line" },
      ],
      deny: [{ rule: "rm:*", source: "command-line" }],
      canAsk: true,
    });
    const outcome = async (command: string) => (await core.request("permissions/evaluate", { command })).result.outcome;
    expect(await outcome("git status")).toBe("allow");
    expect(await outcome("npm run test:unit")).toBe("allow");
    expect(await outcome("ls")).toBe("deny");
    expect(await outcome("sudo rm -rf build")).toBe("deny");
    const removal = await core.request("permissions/removeRule", { rule: "rm:*", kind: "deny" });
    expect(removal.error).toMatchObject({ code: -32602, message: expect.stringMatching(/given on the command line/) });
  });

  it("rejects invalid rules and modes on the command line with exit status 2", () => {
    const run = (args: string[]) => spawnSync(process.execPath, [BUNDLE, ...args], { encoding: "utf8", input: "", timeout: 20_000 });
    const badRule = run(["serve", "--allow", "echo $(id)"]);
    expect(badRule.status).toBe(2);
    expect(badRule.stderr).toMatch(/Invalid permission rule "echo \$\(id\)": \$\(id\) is not a plain word/);
    const badMode = run(["mcp", "--permission-mode", "yolo"]);
    expect(badMode.status).toBe(2);
    expect(badMode.stderr).toMatch(/Unknown permission mode "yolo"; use one of ask, allow-all, deny-all/);
    const callBad = run(["call", "Read", "{}", "--deny", "a && b"]);
    expect(callBad.status).toBe(2);
    expect(callBad.stderr).toMatch(/one simple command/);
  });

  it("reads settings.permissions at initialize and settings/update, and lists rules it could not read", async () => {
    const { core } = await start({
      initialize: { capabilities: { permissionRequests: true }, settings: { permissions: { mode: "deny-all", allow: ["ls:*", "bad $(x)"], deny: ["Write(**/.env)"] } } },
    });
    let list = (await core.request("permissions/list", {})).result;
    expect(list).toMatchObject({ mode: "deny-all", modeSource: "host", allow: [{ rule: "ls:*", source: "host" }], deny: [{ rule: "Write(**/.env)", source: "host" }] });
    expect(list.rejected).toEqual([{ rule: "bad $(x)", kind: "allow", reason: expect.stringMatching(/not a plain word/) }]);
    expect((await core.request("permissions/evaluate", { path: ".env" })).result.outcome).toBe("deny");

    await core.request("settings/update", { settings: { permissions: { allow: ["make:*"] } } });
    list = (await core.request("permissions/list", {})).result;
    expect(list.allow).toEqual([{ rule: "make:*", source: "host" }]);
    expect(list.mode).toBe("deny-all");
    expect(list.rejected).toEqual([]);
  });

  it("edits rules and the mode, telling the host each time", async () => {
    const { core } = await start();
    expect((await core.request("permissions/addRule", { rule: "Bash(git  log *)" })).result).toMatchObject({ rule: "git log *", allow: [{ rule: "git log *", source: "host" }] });
    expect((await core.request("permissions/addRule", { rule: "git push --force:*", kind: "deny" })).result.deny).toEqual([{ rule: "git push --force:*", source: "host" }]);
    const invalid = await core.request("permissions/addRule", { rule: "a | b" });
    expect(invalid.error).toMatchObject({ code: -32602, data: { rule: "a | b" } });
    expect((await core.request("permissions/setMode", { mode: "allow-all" })).result).toMatchObject({ mode: "allow-all", modeSource: "host" });
    expect((await core.request("permissions/evaluate", { command: "git push --force" })).result.outcome).toBe("deny");
    expect((await core.request("permissions/removeRule", { rule: "git log *" })).result.allow).toEqual([]);
    expect((await core.request("permissions/removeRule", { rule: "git log *" })).error).toMatchObject({ code: -32602, message: expect.stringMatching(/no allow rule `git log \*`/) });
    expect((await core.request("permissions/setRules", { allow: ["make:*", "make:*"], deny: [] })).result).toMatchObject({ allow: [{ rule: "make:*" }], deny: [] });
    expect((await core.request("permissions/setRules", { allow: ["ok", "a;b"] })).error?.code).toBe(-32602);
    expect((await core.request("permissions/setMode", { mode: "whatever" })).error?.code).toBe(-32602);
    expect(core.notifications("permission/rulesChanged").map((n) => n.params.change.type)).toEqual(["addRule", "addRule", "setMode", "removeRule", "setRules"]);
    expect(core.notifications("permission/rulesChanged").at(-1)!.params).toEqual({ mode: "allow-all", hostMode: "allow-all", allow: ["make:*"], deny: [], change: { type: "setRules" } });
  });

  it("judges commands and paths from the session's directory", async () => {
    const { core, root } = await start();
    mkdirSync(path.join(root, "src", "deep"), { recursive: true });
    await core.request("sessions/create", { sessionId: "sub", cwd: "src/deep" });
    const inSub = await core.request("permissions/evaluate", { command: "rm -rf ../..", sessionId: "sub" });
    expect(inSub.result.warnings[0].message).toMatch(/the workspace directory itself/);
    const inMain = await core.request("permissions/evaluate", { command: "rm -rf src/deep/../..", directory: "." });
    expect(inMain.result.warnings[0].message).toMatch(/the workspace directory itself/);
    expect((await core.request("permissions/evaluate", { path: "../x.txt", sessionId: "sub" })).result).toMatchObject({ outcome: "allow", path: path.join(root, "src", "x.txt") });
    expect((await core.request("permissions/evaluate", { command: "ls", sessionId: "ghost" })).error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown session "ghost"/) });
    expect((await core.request("permissions/evaluate", { command: "ls", path: "x" })).error?.code).toBe(-32602);
  });
});

// Without a sandbox (--sandbox off): inside one, these commands would run without a question
// (src/shell/sandbox/sandbox.test.ts has the gate with the sandbox).
describe("the real tools ask the host (bundled core, host protocol)", () => {
  const childrenOf = (core: CoreProcess) => processesOfCore(core.child.pid);
  const call = (core: CoreProcess, name: string, args: object, callId: string) => core.request("tools/call", { name, arguments: args, callId });
  const askFor = (core: CoreProcess, callId: string) => core.waitFor((m) => isAsk(m) && m.params.callId === callId);

  it("Bash: allow-once runs the command, deny runs nothing, always-allow remembers the rule", async () => {
    const { core, root } = await start({ args: ["--sandbox", "off"] });
    const once = call(core, "Bash", { command: "touch once.txt", description: "make a file" }, "b1");
    const ask1 = await askFor(core, "b1");
    expect(ask1.params).toMatchObject({ tool: "Bash", kind: "command", command: "touch once.txt", description: "make a file", directory: root, suggestedRules: ["touch:*"] });
    // Nothing runs while the question is open.
    expect(childrenOf(core)).toEqual([]);
    expect(existsSync(path.join(root, "once.txt"))).toBe(false);
    answer(core, ask1, { decision: "allow-once" });
    expect((await once).result).toMatchObject({ isError: false, structuredContent: { exitCode: 0 } });
    expect(existsSync(path.join(root, "once.txt"))).toBe(true);

    const denied = call(core, "Bash", { command: "sleep 300 & touch denied.txt" }, "b2");
    const ask2 = await askFor(core, "b2");
    // Ctrl+B while the question is open moves nothing: no task id for a command that may never run.
    expect((await core.request("calls/list")).result.calls).toMatchObject([{ callId: "b2", awaitingPermission: true, canMoveToBackground: false }]);
    const move = await core.request("calls/moveToBackground", { callId: "b2" });
    expect(move.result).toEqual({ moved: false, reason: 'The Bash call "b2" is waiting for permission; nothing runs yet. Answer the question first, then move it.' });
    answer(core, ask2, { decision: "deny", message: "not now" });
    const d = (await denied).result;
    expect(d).toMatchObject({ isError: true, structuredContent: { errorKind: "denied_by_user" } });
    expect(d.content[0].text).toBe(
      "Permission denied: the user did not allow Bash to run `sleep 300 & touch denied.txt`. The user said: not now. Do not retry the same thing without asking the user.",
    );
    expect(existsSync(path.join(root, "denied.txt"))).toBe(false);
    expect(childrenOf(core)).toEqual([]);
    expect(core.notifications("tool/finished").find((n) => n.params.callId === "b2")!.params).toMatchObject({ name: "Bash", isError: true });

    const always = call(core, "Bash", { command: "mkdir -p out/a" }, "b3");
    const ask3 = await askFor(core, "b3");
    expect(ask3.params.suggestedRules).toEqual(["mkdir:*"]);
    answer(core, ask3, { decision: "always-allow", rules: ["mkdir:*"] });
    expect((await always).result.isError).toBe(false);
    expect((await core.waitFor((m) => m.method === "permission/rulesChanged")).params).toMatchObject({ allow: ["mkdir:*"], change: { type: "always-allow", rules: ["mkdir:*"] } });
    expect((await call(core, "Bash", { command: "mkdir -p out/b && cd out" }, "b4")).result.isError).toBe(false);
    expect(existsSync(path.join(root, "out", "b"))).toBe(true);
    expect(core.received.filter(isAsk).map((m) => m.params.callId)).toEqual(["b1", "b2", "b3"]);
  });

  it("Write outside the workspace: allow-once writes, deny writes nothing, always-allow covers the directory", async () => {
    const { core } = await start({ args: ["--sandbox", "off"] });
    const outside = tempDir("wave-outside-");
    const once = call(core, "Write", { file_path: path.join(outside, "a.txt"), content: "a\n" }, "w1");
    const ask1 = await askFor(core, "w1");
    expect(ask1.params).toMatchObject({ tool: "Write", kind: "path", path: path.join(outside, "a.txt"), warnings: [{ id: "outside-workspace" }], suggestedRules: [`Write(${outside}/**)`] });
    answer(core, ask1, { decision: "allow-once" });
    expect((await once).result).toMatchObject({ isError: false, structuredContent: { type: "create" } });
    expect(readFileSync(path.join(outside, "a.txt"), "utf8")).toBe("a\n");

    writeFileSync(path.join(outside, "keep.txt"), "keep\n");
    await call(core, "Read", { file_path: path.join(outside, "keep.txt") }, "r1");
    const denied = call(core, "Edit", { file_path: path.join(outside, "keep.txt"), old_string: "keep", new_string: "lost" }, "w2");
    answer(core, await askFor(core, "w2"), { decision: "deny" });
    expect((await denied).result).toMatchObject({ isError: true, structuredContent: { errorKind: "denied_by_user" } });
    expect(readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("keep\n");
    const deniedNew = call(core, "Write", { file_path: path.join(outside, "new", "b.txt"), content: "b" }, "w3");
    answer(core, await askFor(core, "w3"), { decision: "deny" });
    expect((await deniedNew).result.isError).toBe(true);
    expect(existsSync(path.join(outside, "new"))).toBe(false);

    const always = call(core, "Write", { file_path: path.join(outside, "c.txt"), content: "c" }, "w4");
    answer(core, await askFor(core, "w4"), { decision: "always-allow" });
    expect((await always).result.isError).toBe(false);
    expect((await call(core, "Write", { file_path: path.join(outside, "deeper", "d.txt"), content: "d" }, "w5")).result.isError).toBe(false);
    expect(readFileSync(path.join(outside, "deeper", "d.txt"), "utf8")).toBe("d");
    expect(core.received.filter(isAsk).map((m) => m.params.callId)).toEqual(["w1", "w2", "w3", "w4"]);
    // Inside the workspace nothing is asked.
    expect((await call(core, "Write", { file_path: "inside.txt", content: "i" }, "w6")).result.isError).toBe(false);
    expect(core.received.filter(isAsk)).toHaveLength(4);
  });

  it("run_shell_command asks with its directory resolved against the root, then runs there", async () => {
    const { core, root } = await start({ args: ["--sandbox", "off"] });
    mkdirSync(path.join(root, "pkg"));
    // `realpath .` alone only reads (the read-only list runs it without a question); `touch` writes.
    const pending = call(core, "run_shell_command", { command: "touch made && realpath .", directory: "pkg", description: "where" }, "s1");
    const ask = await askFor(core, "s1");
    expect(ask.params).toMatchObject({ tool: "run_shell_command", command: "touch made && realpath .", description: "where", directory: path.join(root, "pkg") });
    answer(core, ask, { decision: "allow-once" });
    expect((await pending).result.structuredContent).toMatchObject({ stdout: `${path.join(root, "pkg")}\n`, directory: "pkg", exitCode: 0 });
  });
});
