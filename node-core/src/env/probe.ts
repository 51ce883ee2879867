// The login-environment probe (BASH-ENV-1..9): choose a shell, run it as a login shell once,
// retry with backoff, adopt the result into the core's environment, and report what happened.
// Every boundary (platform, environment, file system, process, clock) is injected, so the
// Windows and macOS branches run here on recorded outputs and the real one runs real shells.
import { homedir } from "node:os";
import { setTimeout as delay } from "node:timers/promises";
import type { PlatformName } from "../util/platform.js";
import { createLogger } from "../util/log.js";
import { adoptInto } from "./adopt.js";
import { parseProbeOutput, parseSingleValue } from "./parse.js";
import { newMarkers, probeEnvironment, probeInvocation, type ProbeForm, type ProbeMarkers } from "./probeCommand.js";
import { DRAIN_GRACE_MS, MAX_PROBE_OUTPUT_BYTES, createProbeRunner, type ProbeRunResult, type ProbeRunner } from "./runProbeShell.js";
import { chooseProbeShell, getWindowsVariable, realProbeFileSystem, type ProbeFileSystem } from "./shellChoice.js";
import { PENDING_STATUS, type EnvStatus, type ParseMode } from "./status.js";

const log = createLogger("env");

/**
 * BASH-ENV-7: 4 s per attempt, at most 2 attempts, backoff from 200 ms. Tighter would kill slow
 * but healthy profiles (nvm on a cold network mount); looser would let a hung profile visibly
 * delay the first command.
 */
export interface ProbeBudget {
  attemptTimeoutMs: number;
  maxAttempts: number;
  /** Wait before the second attempt; doubles before each later one. */
  backoffMs: number;
}

export const DEFAULT_PROBE_BUDGET: Readonly<ProbeBudget> = Object.freeze({ attemptTimeoutMs: 4000, maxAttempts: 2, backoffMs: 200 });

/** The wait before attempt `attempt` (1-based): none before the first, then backoff · 2^(n-2). */
export function backoffBefore(attempt: number, budget: ProbeBudget): number {
  return attempt <= 1 ? 0 : budget.backoffMs * 2 ** (attempt - 2);
}

/**
 * The longest the probe can take, and so the longest anything waits for it: every attempt's
 * timeout plus the time its killed process tree gets to close its pipes, plus the backoffs.
 * With the default budget: 2 × (4000 + 100) + 200 = 8400 ms.
 */
export function probeBudgetMs(budget: ProbeBudget): number {
  let total = 0;
  for (let attempt = 1; attempt <= budget.maxAttempts; attempt++) {
    total += backoffBefore(attempt, budget) + budget.attemptTimeoutMs + DRAIN_GRACE_MS;
  }
  return total;
}

export interface ProbeDependencies {
  platform: PlatformName;
  /** Read for the shell choice and the probe's own environment; the result is written into it. */
  env: NodeJS.ProcessEnv;
  fs: ProbeFileSystem;
  run: ProbeRunner;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  now(): number;
  homedir(): string | undefined;
  budget: ProbeBudget;
}

function defaultProbeDependencies(overrides: Partial<ProbeDependencies> = {}): ProbeDependencies {
  const platform = overrides.platform ?? (process.platform as PlatformName);
  return {
    platform,
    env: process.env,
    fs: realProbeFileSystem,
    run: createProbeRunner(platform),
    sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
    now: () => performance.now(),
    homedir: () => {
      try {
        return homedir() || undefined;
      } catch {
        return undefined;
      }
    },
    budget: DEFAULT_PROBE_BUDGET,
    ...overrides,
  };
}

/** `WAVE_LOGIN_ENV=0` (or false/off/no) turns the probe off; child processes then inherit the core's environment as it is. */
function probeTurnedOff(env: NodeJS.ProcessEnv): boolean {
  return ["0", "false", "off", "no"].includes((env.WAVE_LOGIN_ENV ?? "").trim().toLowerCase());
}

type AttemptOutcome = { ok: true; variables: Map<string, string>; parseMode: ParseMode; note?: string } | { ok: false; reason: string; tryPathOnly?: boolean };

function exitDescription(result: ProbeRunResult): string {
  if (result.signal) return `killed by ${result.signal}`;
  return `exit code ${result.exitCode}`;
}

/** Reads one attempt's process result. Reasons name keys, codes and limits, never values. */
function interpretAttempt(result: ProbeRunResult, markers: ProbeMarkers, form: ProbeForm, platform: PlatformName, budget: ProbeBudget): AttemptOutcome {
  if (result.aborted) return { ok: false, reason: "stopped because the core shut down" };
  if (result.spawnError) return { ok: false, reason: `the shell could not be started (${result.spawnError})` };
  if (result.outputOverflow) return { ok: false, reason: `the login shell printed more than ${MAX_PROBE_OUTPUT_BYTES / (1024 * 1024)} MiB` };
  const stdout = result.stdout.toString("utf8");
  const timedOut = `timed out after ${budget.attemptTimeoutMs} ms (the profile did not finish; its shell was stopped, and what it had started may still finish)`;

  if (platform === "win32" || form === "path-only") {
    const path = parseSingleValue(stdout, markers);
    if (!path.ok) return { ok: false, reason: result.timedOut ? timedOut : `${path.reason}; ${exitDescription(result)}` };
    const note = platform === "win32" ? undefined : "adopted PATH only, because the full listing failed";
    return { ok: true, variables: new Map([["PATH", path.value]]), parseMode: "lines", note };
  }

  // A complete listing counts even when the shell then hung (a logout script, an EXIT trap).
  const parsed = parseProbeOutput(stdout, markers);
  if (parsed.ok) {
    if (parsed.mode === "nul") return { ok: true, variables: parsed.variables, parseMode: "nul" };
    const dropped = parsed.droppedMultiline.length > 0 ? `; dropped keys with multi-line values: ${parsed.droppedMultiline.join(", ")}` : "";
    return { ok: true, variables: parsed.variables, parseMode: "lines", note: `\`env -0\` is not available in the login shell; parsed line by line${dropped}` };
  }
  if (result.timedOut) return { ok: false, reason: timedOut };
  return { ok: false, reason: `${parsed.reason}; ${exitDescription(result)}`, tryPathOnly: parsed.startMarkerSeen };
}

type Listener = (status: EnvStatus) => void;

/**
 * One probe run. `start()` begins it on the next turn of the event loop (never on the caller's
 * synchronous path) and is idempotent; `landed()` waits for the result, bounded by the budget.
 */
export class LoginEnvironmentProbe {
  private current: EnvStatus = PENDING_STATUS;
  private readonly listeners = new Set<Listener>();
  private readonly controller = new AbortController();
  private settledPromise: Promise<EnvStatus> | undefined;
  private startedAt: number | undefined;
  private settledAt: number | undefined;
  private readonly deps: ProbeDependencies;

  constructor(deps: Partial<ProbeDependencies> = {}) {
    this.deps = defaultProbeDependencies(deps);
  }

  get status(): EnvStatus {
    return { ...this.current, adoptedKeys: [...this.current.adoptedKeys] };
  }

  /** The longest anything should wait for this probe. */
  get budgetMs(): number {
    return probeBudgetMs(this.deps.budget);
  }

  /** The probe's clock (injected in tests): what waitEnd is measured on. */
  now(): number {
    return this.deps.now();
  }

  /** When landed() stops waiting: the moment the result landed, or else the end of the budget. */
  get waitEnd(): number {
    return this.settledAt ?? (this.startedAt ?? this.deps.now()) + this.budgetMs;
  }

  /** Called on every change of state (pending → ok | degraded | failed). */
  onStatusChanged(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): Promise<EnvStatus> {
    if (!this.settledPromise) {
      this.startedAt = this.deps.now();
      this.settledPromise = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.run());
    }
    return this.settledPromise;
  }

  /** Stops a running probe (its process tree is killed); the inherited environment is kept. */
  abort(): void {
    this.controller.abort();
  }

  /**
   * Resolves with the status once the result has landed, or once the budget (counted from the
   * start) has run out, or when `signal` aborts, whichever comes first. Never rejects.
   */
  async landed(opts: { signal?: AbortSignal } = {}): Promise<EnvStatus> {
    // An aborted signal fires no abort event: a caller cancelled before it came here waits not at all.
    if (!this.settledPromise || this.current.state !== "pending" || opts.signal?.aborted) return this.status;
    const remaining = Math.max(0, (this.startedAt ?? this.deps.now()) + this.budgetMs - this.deps.now());
    const waiter = new AbortController();
    const stopWaiting = () => waiter.abort();
    opts.signal?.addEventListener("abort", stopWaiting, { once: true });
    try {
      await Promise.race([this.settledPromise, delay(remaining, undefined, { signal: waiter.signal }).catch(() => undefined)]);
    } finally {
      waiter.abort();
      opts.signal?.removeEventListener("abort", stopWaiting);
    }
    return this.status;
  }

  private settle(status: Omit<EnvStatus, "durationMs">): EnvStatus {
    this.settledAt = this.deps.now();
    const durationMs = this.startedAt === undefined ? 0 : Math.round(this.settledAt - this.startedAt);
    // The field order of PROTOCOL.md, so `wave-core env --json` reads like the documentation.
    this.current = {
      state: status.state,
      shell: status.shell,
      durationMs,
      attempts: status.attempts,
      parseMode: status.parseMode,
      adoptedKeys: status.adoptedKeys,
      ...(status.reason !== undefined ? { reason: status.reason } : {}),
    };
    const fields = { ...this.current };
    // The one diagnostic log of BASH-ENV-7 is for a probe that degraded or failed on its own; a
    // probe stopped by the core's shutdown or turned off is routine.
    if (this.current.state === "ok") log.debug("login environment adopted", fields);
    else if (this.controller.signal.aborted || this.current.attempts === 0) log.debug(`login environment not adopted: ${this.current.reason}`, fields);
    else log.warn(`login environment ${this.current.state}: ${this.current.reason}`, fields);
    for (const listener of this.listeners) {
      try {
        listener(this.status);
      } catch (err) {
        log.error("an env status listener failed", { error: err });
      }
    }
    return this.status;
  }

  private async run(): Promise<EnvStatus> {
    const { deps } = this;
    const base = { shell: null as string | null, parseMode: null, adoptedKeys: [] as string[] };
    if (probeTurnedOff(deps.env)) {
      return this.settle({
        ...base,
        state: "failed",
        attempts: 0,
        reason: "the probe is turned off (WAVE_LOGIN_ENV=0); child processes inherit the core's environment as it is",
      });
    }
    const home = this.home();
    const signal = this.controller.signal;
    let form: ProbeForm = "full";
    let shell: string | null = null;
    let reason = "no attempt was made";
    let previousReason: string | undefined;
    let attempts = 0;

    for (let attempt = 1; attempt <= deps.budget.maxAttempts; attempt++) {
      const wait = backoffBefore(attempt, deps.budget);
      if (wait > 0) await deps.sleep(wait, signal);
      if (signal.aborted) {
        reason = "stopped because the core shut down";
        break;
      }
      attempts = attempt;
      const choice = chooseProbeShell(deps.platform, deps.env, deps.fs, home);
      shell = choice.shell ?? null;
      if (!choice.shell) {
        reason = choice.missing!;
        log.debug("login environment attempt failed", { attempt, reason });
        continue;
      }
      const markers = newMarkers();
      const invocation = probeInvocation(deps.platform, choice.shell, markers, form);
      const result = await deps.run({
        ...invocation,
        env: probeEnvironment(deps.platform, deps.env, choice.shell, home),
        cwd: home && deps.fs.isDirectory(home) ? home : undefined,
        timeoutMs: deps.budget.attemptTimeoutMs,
        signal,
      });
      const outcome = interpretAttempt(result, markers, form, deps.platform, deps.budget);
      if (outcome.ok) {
        const adoptedKeys = adoptInto(deps.env, outcome.variables, deps.platform);
        const note = form === "path-only" && previousReason ? `${outcome.note}: ${previousReason}` : outcome.note;
        return this.settle({
          state: note ? "degraded" : "ok",
          shell,
          attempts,
          parseMode: outcome.parseMode,
          adoptedKeys,
          ...(note ? { reason: note } : {}),
        });
      }
      reason = outcome.reason;
      previousReason = outcome.reason;
      log.debug("login environment attempt failed", { attempt, shell, reason });
      if (outcome.tryPathOnly) form = "path-only";
      if (signal.aborted) break;
    }
    return this.settle({
      ...base,
      shell,
      state: "failed",
      attempts,
      reason: `${reason}; kept the inherited environment`,
    });
  }

  private home(): string | undefined {
    const { env, platform } = this.deps;
    const fromEnv = platform === "win32" ? getWindowsVariable(env, "USERPROFILE") : env.HOME;
    return fromEnv || this.deps.homedir();
  }
}
