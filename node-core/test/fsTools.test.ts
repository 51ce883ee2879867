// End to end against the bundled core: ripgrep missing at start-up, real write failures (a file
// size limit), permissions enforced for an unprivileged user, and the read-state host method.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE as bundle, bundleForAnyUser, CoreProcess } from "./support/coreProcess.js";
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const made: string[] = [];

function tmp(mode = 0o755): string {
  const d = realpathSync(mkdtempSync(path.join(os.tmpdir(), "wave-fs-e2e-")));
  chmodSync(d, mode);
  made.push(d);
  return d;
}

afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

beforeAll(() => {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build first`);
});

interface Response {
  id: number;
  result?: { content: Array<{ type: string; text?: string }>; structuredContent: Record<string, unknown>; isError: boolean } & Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * Runs `wave-core serve` (optionally through a shell prefix such as `ulimit`, or as another user),
 * sends the requests one after another and returns the responses in order.
 */
async function session(
  root: string,
  requests: Array<{ method: string; params?: unknown } | { local: () => void }>,
  opts: { env?: NodeJS.ProcessEnv; bundlePath?: string; wrap?: (argv: string[]) => string[] } = {},
): Promise<{ responses: Response[]; stderr: string }> {
  const core = new CoreProcess(["serve", "--root", root], { env: opts.env, inheritEnv: opts.env === undefined, bundle: opts.bundlePath, wrap: opts.wrap });
  const responses: Response[] = [];
  try {
    for (const req of requests) {
      if ("local" in req) req.local();
      else responses.push((await core.request(req.method, req.params)) as Response);
    }
    await core.close();
  } finally {
    core.kill();
  }
  return { responses, stderr: core.stderr };
}

const call = (name: string, args: Record<string, unknown>) => ({ method: "tools/call", params: { name, arguments: args } });
const textOf = (r: Response) => (r.result?.content ?? []).map((c) => c.text ?? "").join("\n");

describe("file tools end to end", () => {
  it("FS-SEARCH-4 without any ripgrep the core starts, lists its tools, Grep says 'ripgrep is not available' and Glob still works", async () => {
    const root = tmp();
    writeFileSync(path.join(root, "a.ts"), "needle\n");
    // A copy of the bundle with no node_modules above it, no vendor dir and no rg on PATH.
    const isolated = tmp();
    const copy = path.join(isolated, "wave-core.js");
    copyFileSync(bundle, copy);
    const emptyBin = path.join(isolated, "bin");
    mkdirSync(emptyBin);
    const env = { ...process.env, PATH: emptyBin, WAVE_VENDOR_DIR: path.join(isolated, "no-vendor") };
    const { responses } = await session(root, [{ method: "initialize", params: {} }, { method: "tools/list" }, call("Grep", { pattern: "needle" }), call("Glob", { pattern: "*.ts" })], {
      env,
      bundlePath: copy,
    });
    expect(responses[0]!.result).toMatchObject({ sessionId: "main" });
    expect((responses[1]!.result!.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(expect.arrayContaining(["Read", "Edit", "Write", "Glob", "Grep"]));
    expect(responses[2]!.result!.isError).toBe(true);
    expect(textOf(responses[2]!)).toMatch(/^ripgrep is not available/);
    expect(responses[2]!.result!.structuredContent.errorKind).toBe("dependency_missing");
    expect(textOf(responses[3]!)).toBe("a.ts");
  });

  it("FS-ATOMIC-2 a real write failure (file size limit) leaves the target unchanged and no temp file", async () => {
    const root = tmp();
    const target = path.join(root, "data.txt");
    writeFileSync(target, "original content\n");
    const big = "x".repeat(64 * 1024);
    // ulimit -f 16 (16 KiB) makes the temp file's write fail with EFBIG; SIGXFSZ is ignored so
    // the process sees the error instead of dying.
    const { responses } = await session(
      root,
      [call("Read", { file_path: "data.txt" }), call("Write", { file_path: "data.txt", content: big }), call("Edit", { file_path: "data.txt", old_string: "original", new_string: big })],
      {
        wrap: (argv) => ["bash", "-c", 'ulimit -f 16; trap "" XFSZ; exec "$@"', "bash", ...argv],
      },
    );
    expect(responses[0]!.result!.isError).toBe(false);
    for (const r of responses.slice(1)) {
      expect(r.result!.isError).toBe(true);
      expect(textOf(r)).toMatch(/would exceed the maximum file size allowed for this process; nothing was changed/);
      expect(r.result!.structuredContent.errorKind).toBe("out_of_resources");
    }
    expect(readFileSync(target, "utf8")).toBe("original content\n");
    expect(readdirSync(root)).toEqual(["data.txt"]);
  });

  it("FS-READ-6 unreadable files and unwritable places give specific permission errors (as an unprivileged user)", async () => {
    const root = tmp(0o777);
    writeFileSync(path.join(root, "secret.txt"), "top secret\n");
    chmodSync(path.join(root, "secret.txt"), 0o000);
    writeFileSync(path.join(root, "readonly.txt"), "do not touch\n");
    chmodSync(path.join(root, "readonly.txt"), 0o444);
    writeFileSync(path.join(root, "later.txt"), "was readable\n");
    const locked = path.join(root, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    // As root the kernel would allow everything: drop to nobody for a real permission check.
    const wrap = isRoot ? (argv: string[]) => ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ...argv] : undefined;
    const { responses } = await session(
      root,
      [
        call("Read", { file_path: "secret.txt" }),
        call("Read", { file_path: "readonly.txt" }),
        call("Edit", { file_path: "readonly.txt", old_string: "touch", new_string: "change" }),
        call("Write", { file_path: "locked/new.txt", content: "x" }),
        call("Read", { file_path: "later.txt" }),
        { local: () => chmodSync(path.join(root, "later.txt"), 0o000) },
        call("Edit", { file_path: "later.txt", old_string: "was", new_string: "is" }),
      ],
      { wrap, env: { ...process.env, HOME: root }, bundlePath: isRoot ? bundleForAnyUser() : undefined },
    );
    expect(textOf(responses[0]!)).toMatch(/^Permission denied reading .*secret\.txt/);
    expect(responses[1]!.result!.isError).toBe(false);
    expect(textOf(responses[2]!)).toMatch(/Permission denied writing .*readonly\.txt.*nothing was changed/);
    expect(textOf(responses[3]!)).toMatch(/Permission denied writing .*locked\/new\.txt/);
    expect(textOf(responses[5]!)).toMatch(/Permission denied reading .*later\.txt.*not readable by this process; nothing was changed/);
    // The operating system's refusal is one kind for every file tool (not the permission gate's).
    for (const i of [0, 2, 3, 5]) expect(responses[i]!.result!.structuredContent.errorKind, String(i)).toBe("permission_denied");
    expect(readFileSync(path.join(root, "readonly.txt"), "utf8")).toBe("do not touch\n");
    expect(readdirSync(locked)).toEqual([]);
  });

  it("FS-EDIT-5 fs/clearReadState makes the session read again before editing", async () => {
    const root = tmp();
    writeFileSync(path.join(root, "f.txt"), "one\n");
    const { responses } = await session(root, [
      call("Read", { file_path: "f.txt" }),
      { method: "fs/clearReadState", params: { paths: ["f.txt"] } },
      call("Edit", { file_path: "f.txt", old_string: "one", new_string: "two" }),
      call("Read", { file_path: "f.txt" }),
      { method: "fs/clearReadState", params: {} },
      { method: "fs/clearReadState", params: { sessionId: "nope" } },
    ]);
    expect(responses[1]!.result).toEqual({ cleared: 1 });
    expect(textOf(responses[2]!)).toMatch(/You must Read/);
    expect(textOf(responses[3]!)).toBe("     1\tone");
    expect(responses[4]!.result).toEqual({ cleared: 1 });
    expect(responses[5]!.error?.code).toBe(-32602);
  });
});
