// Bounded work in flight on one connection (host protocol, MCP on stdio, one MCP-over-HTTP
// session): at most `maxInFlight` requests run at a time, more wait in order, and past the queue's
// bounds a request is refused at once with an error that says why. A request counts as in flight
// until its answer has been written out, so a client that sends a burst and reads slowly holds at
// most `maxInFlight` answers in the core's memory, not one per request (10,000 tools/list answers
// took a core from 75 MB to 1.3 GB).
import { releaseMemoryWhenQuiet } from "../util/memory.js";
import { ErrorCode, type JsonRpcErrorObject } from "./jsonrpc.js";

export interface GateLimits {
  maxInFlight: number;
  /** Requests waiting to start. */
  maxQueued: number;
  /** Their size as read (a queued Write holds its content). */
  maxQueuedBytes: number;
}

export const DEFAULT_GATE_LIMITS: Readonly<GateLimits> = Object.freeze({ maxInFlight: 64, maxQueued: 16_384, maxQueuedBytes: 64 * 1024 * 1024 });

interface Waiting<T> {
  key: string;
  item: T;
  bytes: number;
}

export type Offer = "started" | "queued" | "refused";

/** The error for a request the gate refused (the queue is full). */
export function overloadedError(limits: GateLimits): JsonRpcErrorObject {
  return {
    code: ErrorCode.Overloaded,
    message: `Too many requests at once on this connection: ${limits.maxInFlight} are running and ${limits.maxQueued} (or ${limits.maxQueuedBytes / (1024 * 1024)} MiB) more wait, so this one was refused and not run. Wait for answers before sending more.`,
  };
}

export class RequestGate<T> {
  private readonly running = new Set<string>();
  private readonly queue: Waiting<T>[] = [];
  private readonly queuedKeys = new Set<string>();
  private head = 0;
  private queuedBytes = 0;
  /** Requests had to wait since the gate was last idle: a burst, whose memory goes back after it. */
  private burst = false;

  constructor(
    /** Starts a request; the owner calls `done(key)` once its answer is out (or it will never be). */
    private readonly start: (item: T) => void,
    readonly limits: GateLimits = DEFAULT_GATE_LIMITS,
  ) {}

  get inFlight(): number {
    return this.running.size;
  }

  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Whether `key` is running or waiting. */
  has(key: string): boolean {
    return this.running.has(key) || this.queuedKeys.has(key);
  }

  offer(key: string, item: T, bytes: number): Offer {
    if (this.running.size < this.limits.maxInFlight && this.waiting === 0) {
      this.running.add(key);
      this.start(item);
      return "started";
    }
    if (this.waiting >= this.limits.maxQueued || this.queuedBytes + bytes > this.limits.maxQueuedBytes) return "refused";
    this.burst = true;
    this.queue.push({ key, item, bytes });
    this.queuedKeys.add(key);
    this.queuedBytes += bytes;
    return "queued";
  }

  /** A running request is answered (or cancelled): the next waiting one starts. */
  done(key: string): void {
    if (!this.running.delete(key)) return;
    while (this.running.size < this.limits.maxInFlight && this.waiting > 0) {
      const next = this.queue[this.head]!;
      this.queue[this.head++] = undefined as unknown as Waiting<T>;
      this.queuedBytes -= next.bytes;
      this.queuedKeys.delete(next.key);
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      this.running.add(next.key);
      this.start(next.item);
    }
    if (this.burst && this.running.size === 0 && this.waiting === 0) {
      this.burst = false;
      releaseMemoryWhenQuiet();
    }
  }

  /** Takes a waiting request out of the queue (cancelled before it started). */
  withdraw(key: string): T | undefined {
    if (!this.queuedKeys.delete(key)) return undefined;
    for (let i = this.head; i < this.queue.length; i++) {
      const w = this.queue[i]!;
      if (w.key !== key) continue;
      this.queue.splice(i, 1);
      this.queuedBytes -= w.bytes;
      return w.item;
    }
    return undefined;
  }

  /** Forgets everything waiting (the connection ended); what runs is the owner's to stop. */
  clear(): T[] {
    const items = this.queue.slice(this.head).map((w) => w.item);
    this.queue.length = 0;
    this.queuedKeys.clear();
    this.head = 0;
    this.queuedBytes = 0;
    return items;
  }
}
