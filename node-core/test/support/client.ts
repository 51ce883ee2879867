// A line-delimited JSON-RPC client for the bundled core (`serve` or `mcp`), for end-to-end tests.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BUNDLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/wave-core.js");

export function bundleExists(): boolean {
  return existsSync(BUNDLE);
}

export interface Message {
  jsonrpc: "2.0";
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown> & { [k: string]: unknown };
  error?: { code: number; message: string; data?: unknown };
}

export interface CoreClient {
  child: ChildProcess;
  notifications: Message[];
  stderr: () => string;
  request(method: string, params?: unknown): { id: number; response: Promise<Message> };
  call(method: string, params?: unknown): Promise<Message>;
  notify(method: string, params?: unknown): void;
  waitForNotification(pred: (m: Message) => boolean, budgetMs?: number): Promise<Message>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startCore(mode: "serve" | "mcp", args: string[], env: NodeJS.ProcessEnv = process.env): CoreClient {
  const child = spawn(process.execPath, [BUNDLE, mode, ...args], { stdio: ["pipe", "pipe", "pipe"], env });
  const pending = new Map<number | string, (m: Message) => void>();
  const notifications: Message[] = [];
  const waiters = new Set<{ pred: (m: Message) => boolean; resolve: (m: Message) => void }>();
  let stderr = "";
  let buf = "";
  let next = 1;
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (d: string) => (stderr += d));
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      const msg = JSON.parse(line) as Message;
      if (msg.id !== undefined && msg.id !== null && pending.has(msg.id) && msg.method === undefined) {
        pending.get(msg.id)!(msg);
        pending.delete(msg.id);
      } else if (msg.method) {
        notifications.push(msg);
        for (const w of [...waiters]) {
          if (w.pred(msg)) {
            waiters.delete(w);
            w.resolve(msg);
          }
        }
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once("exit", (code, signal) => r({ code, signal })));
  const write = (obj: unknown) => child.stdin!.write(JSON.stringify(obj) + "\n");
  const request = (method: string, params?: unknown) => {
    const id = next++;
    const response = new Promise<Message>((resolve) => pending.set(id, resolve));
    write({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) });
    return { id, response };
  };
  return {
    child,
    notifications,
    stderr: () => stderr,
    request,
    call: (method, params) => request(method, params).response,
    notify: (method, params) => write({ jsonrpc: "2.0", method, ...(params !== undefined ? { params } : {}) }),
    waitForNotification(pred, budgetMs = 15_000) {
      const hit = notifications.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve };
        waiters.add(w);
        setTimeout(() => {
          if (waiters.delete(w)) reject(new Error(`no matching notification within ${budgetMs} ms; stderr:\n${stderr}`));
        }, budgetMs).unref();
      });
    },
    exited,
  };
}
