// The host protocol server as a host sees it: the real bundle over real pipes.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CoreProcess } from "./support/coreProcess.js";
import { makeWorkspace } from "./transcript.js";

const cores: CoreProcess[] = [];
function start(args: string[] = []): CoreProcess {
  const core = new CoreProcess(["serve", "--root", makeWorkspace(), ...args]);
  cores.push(core);
  return core;
}
afterEach(() => {
  for (const c of cores.splice(0)) c.kill();
});

/** Deterministic PRNG so a failing fuzz run can be reproduced from its seed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fuzzLines(count: number, seed: number): string[] {
  const rnd = prng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const methods = [
    "initialize",
    "tools/list",
    "tools/call",
    "calls/list",
    "calls/moveToBackground",
    "sessions/create",
    "sessions/list",
    "sessions/dispose",
    "workspace/addDirectory",
    "settings/update",
    "$/cancelRequest",
    "nope",
    "",
    "tools/",
    "TOOLS/LIST",
  ];
  const values = () =>
    pick<unknown>([
      null,
      true,
      0,
      -1,
      1e308,
      "",
      "x".repeat(Math.floor(rnd() * 50)),
      [],
      {},
      [1, "a"],
      { name: "Read" },
      { name: "Read", arguments: { file_path: pick(["notes.txt", "/", "", "../../etc/passwd", "\u0000"]) } },
      { name: "Read", arguments: { file_path: 5 } },
      { name: "Nope", arguments: {} },
      { path: "/nonexistent" },
      { sessionId: "ghost" },
      { settings: { a: 1 } },
      { callId: "c" },
    ]);
  const lines: string[] = [];
  let id = 1;
  for (let i = 0; i < count; i++) {
    switch (Math.floor(rnd() * 8)) {
      case 0: {
        // Random bytes without newlines, including invalid UTF-8.
        const bytes = Array.from({ length: Math.floor(rnd() * 80) }, () => Math.floor(rnd() * 256)).filter((b) => b !== 10);
        lines.push(Buffer.from(bytes).toString("latin1"));
        break;
      }
      case 1:
        lines.push(JSON.stringify(values()));
        break;
      case 2: {
        const full = JSON.stringify({ jsonrpc: "2.0", id: id++, method: pick(methods), params: values() });
        lines.push(full.slice(0, Math.floor(rnd() * full.length)));
        break;
      }
      case 3:
        lines.push(JSON.stringify({ jsonrpc: pick(["2.0", "1.0", 2, undefined]), id: pick([id++, `s${id++}`, null, {}, [], 1.5]), method: pick(methods), params: values() }));
        break;
      case 4:
        lines.push(JSON.stringify({ jsonrpc: "2.0", method: pick(methods), params: values() }));
        break;
      case 5:
        lines.push(JSON.stringify({ jsonrpc: "2.0", id: id++, result: values(), error: values() }));
        break;
      default:
        lines.push(JSON.stringify({ jsonrpc: "2.0", id: id++, method: pick(methods), params: values() }));
    }
  }
  return lines;
}

describe("host protocol server", () => {
  it("survives thousands of random and malformed lines, then still answers a valid request", async () => {
    const core = start();
    const lines = fuzzLines(3000, 20261202);
    // Requests with a fresh numeric id and a known-good shape must each get exactly one answer.
    const mustAnswer = new Set<number>();
    for (const line of lines) {
      try {
        const m = JSON.parse(line);
        if (
          m &&
          typeof m === "object" &&
          m.jsonrpc === "2.0" &&
          typeof m.method === "string" &&
          typeof m.id === "number" &&
          Number.isInteger(m.id) &&
          (m.params === undefined || (m.params !== null && typeof m.params === "object"))
        ) {
          mustAnswer.add(m.id);
        }
      } catch {
        // malformed on purpose
      }
      core.sendRaw(line);
    }
    const final = await core.request("tools/list", {}, "final");
    expect(final.result.tools.length).toBeGreaterThan(0);
    for (const id of mustAnswer) await core.waitFor((m) => m.id === id && (m.result !== undefined || m.error !== undefined), 20_000);
    const answers = core.received.filter((m) => typeof m.id === "number" && mustAnswer.has(m.id));
    expect(answers.length).toBe(mustAnswer.size);
    expect(core.received.filter((m) => m.error?.code === -32700).length).toBeGreaterThan(100);
    expect(core.child.exitCode).toBeNull();
  }, 120_000);

  it("rejects a line over 64 MiB without holding it in memory, and keeps serving", async () => {
    const core = start();
    const chunk = "a".repeat(1024 * 1024);
    // The request's id is read from the line's first bytes, so the error answers that very request.
    const errorSeen = core.waitFor((m) => m.id === 1 && m.error?.code === -32600, 60_000);
    // One line: written without the newline sendRaw would add.
    core.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"');
    for (let i = 0; i < 256; i++) {
      if (!core.child.stdin.write(chunk)) await new Promise((r) => core.child.stdin.once("drain", r));
    }
    core.sendRaw('"}}');
    const err = await errorSeen;
    expect(err.error!.message).toMatch(/exceeds the 64 MiB limit and was discarded\. Pass large content by file path instead\./);
    const ok = await core.request("tools/list", {}, "after");
    expect(ok.result.tools.length).toBeGreaterThan(0);
    // At most the cap is ever buffered: peak resident memory stays far below the 256 MiB line.
    const status = readFileSync(`/proc/${core.child.pid}/status`, "utf8");
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)![1]);
    expect(peakKb).toBeLessThan(190 * 1024);
  }, 120_000);

  it("refuses a request that is not UTF-8 with a parse error for its id instead of running it with U+FFFD, and keeps serving", async () => {
    const root = makeWorkspace();
    const core = new CoreProcess(["serve", "--root", root]);
    cores.push(core);
    await core.request("initialize", {});
    const line = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":"bad","method":"tools/call","params":{"name":"Write","arguments":{"file_path":"latin1.txt","content":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}}}'),
    ]);
    const answer = core.waitFor((m) => m.id === "bad");
    core.sendBytes(line);
    expect((await answer).error).toEqual({
      code: -32700,
      message: `Parse error: the message is not valid UTF-8 (byte ${line.indexOf(0xe9)} of ${line.length}: e9 22 7d 7d), so it was not run. Send every message as UTF-8 text; write other characters as JSON escapes (\\u00e9).`,
    });
    expect(core.received.some((m) => m.method === "tool/started")).toBe(false);
    const read = await core.request("tools/call", { name: "Read", arguments: { file_path: "notes.txt" } });
    expect(read.result.isError).toBe(false);
    expect(existsSync(path.join(root, "latin1.txt"))).toBe(false);
  });

  it("a burst of 4,000 tools/list requests is answered in full while the core's memory stays bounded (it grew by 460 MB, 10,000 by 1.2 GB)", async () => {
    const core = start();
    await core.request("initialize", {});
    await core.request("tools/list");
    const resident = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${core.child.pid}/status`, "utf8"))![1]) / 1024;
    const before = resident("VmRSS");
    const answers = await Promise.all(Array.from({ length: 4000 }, () => core.request("tools/list")));
    expect(answers.filter((m) => !Array.isArray(m.result?.tools)).length).toBe(0);
    // At most 64 answers (of ~30 KB) are ever held at once; before, all of them were.
    expect(resident("VmHWM") - before).toBeLessThan(200);
  }, 120_000);

  it("answers a request sent without a trailing newline when stdin closes, then exits 0", async () => {
    const core = start();
    core.child.stdin.end('{"jsonrpc":"2.0","id":9,"method":"tools/list"}');
    const exit = await core.exited;
    expect(core.received.find((m) => m.id === 9)?.result).toBeDefined();
    expect(exit.code).toBe(0);
  });

  it("answers NUL characters in paths and commands with a validation error that says what to do", async () => {
    const core = start();
    await core.request("initialize", {});
    const session = await core.request("sessions/create", { cwd: "sub\u0000dir" });
    expect(session.error).toMatchObject({ code: -32602, message: expect.stringContaining("contains a NUL character (\\0), which no file or directory name can hold") });
    const dir = await core.request("workspace/addDirectory", { path: "/tmp\u0000" });
    expect(dir.error).toMatchObject({ code: -32602, message: expect.stringContaining("contains a NUL character") });
    const bash = await core.request("tools/call", { name: "Bash", arguments: { command: "echo a\u0000b" } });
    expect(bash.error).toMatchObject({ code: -32602, message: expect.stringMatching(/command: contains a NUL character \(\\0\), which cannot be passed to a shell\. Remove it/) });
    expect(bash.error!.message).not.toMatch(/null bytes/);
    // The permission preview judges the same fields as the tools, so it refuses the same input.
    for (const params of [{ path: "notes\u0000.txt" }, { command: "echo a\u0000b" }, { command: "ls", directory: "sub\u0000dir" }]) {
      const check = await core.request("permissions/check", params);
      expect(check.error, JSON.stringify(check)).toMatchObject({ code: -32602, message: expect.stringContaining("contains a NUL character (\\0)") });
    }
  });

  it("exits 1 on exit without shutdown, 0 after shutdown", async () => {
    const a = start();
    a.notify("exit");
    expect((await a.exited).code).toBe(1);
    const b = start();
    await b.request("shutdown");
    b.notify("exit");
    expect((await b.exited).code).toBe(0);
  });

  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const)("stops cleanly on %s", async (signal, code) => {
    const core = start();
    await core.request("tools/list");
    core.child.kill(signal);
    const exit = await core.exited;
    expect(exit.code).toBe(code);
    expect(core.notifications("session/disposed").map((m) => m.params.sessionId)).toContain("main");
  });

  it("refuses a different protocol major version with a message saying what to do", async () => {
    const core = start();
    const r = await core.request("initialize", { protocolVersion: "1.0" });
    expect(r.error).toMatchObject({ code: -32602, data: { supported: ["2.0"] } });
    expect(r.error!.message).toMatch(/Update the host or the core/);
    const again = await core.request("initialize", { protocolVersion: "2.3" });
    expect(again.result.protocolVersion).toBe("2.0");
  });

  it("reports additional directories that do not exist instead of failing initialize", async () => {
    const core = start();
    const r = await core.request("initialize", { additionalDirectories: ["/definitely/not/here", "src"] });
    expect(r.result.workspace.rejectedDirectories).toEqual([{ path: "/definitely/not/here", reason: expect.stringMatching(/Not a directory/) }]);
    expect(r.result.workspace.additionalDirectories).toEqual([expect.stringMatching(/\/src$/)]);
  });

  it("handles requests concurrently: a Read is answered while a long Bash call is still running", async () => {
    const core = start(["--permission-mode", "allow-all"]);
    const slow = core.request("tools/call", { name: "Bash", arguments: { command: "sleep 3; echo slow-done" } }, "slow");
    await core.waitFor((m) => m.method === "tool/started" && m.params.name === "Bash");
    const read = await core.request("tools/call", { name: "Read", arguments: { file_path: "notes.txt" } }, "read");
    expect(read.result.isError).toBe(false);
    // The Read's answer arrived while the Bash call had not answered yet.
    expect(core.received.some((m) => m.id === "slow")).toBe(false);
    const bash = await slow;
    expect(bash.result.structuredContent.output).toBe("slow-done\n");
    expect(core.received.findIndex((m) => m.id === "read")).toBeLessThan(core.received.findIndex((m) => m.id === "slow"));
  });
});
