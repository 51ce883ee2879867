// All diagnostics go to stderr: stdout belongs to the protocol.
export type LogLevel = "debug" | "info" | "warn" | "error";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LogRecord {
  level: LogLevel;
  scope: string;
  message: string;
  fields?: Record<string, unknown>;
}

type Sink = (record: LogRecord) => void;

function parseLevel(value: string | undefined): LogLevel {
  const v = (value ?? "").toLowerCase();
  return v === "debug" || v === "info" || v === "warn" || v === "error" ? v : "info";
}

let threshold: LogLevel = parseLevel(process.env.WAVE_LOG_LEVEL);
const extraSinks = new Set<Sink>();
let consoleSink: Sink | undefined;

function stderrSink(record: LogRecord): void {
  const fields = record.fields && Object.keys(record.fields).length > 0 ? " " + safeJson(record.fields) : "";
  process.stderr.write(`[wave-core] ${record.level.toUpperCase()} ${record.scope}: ${record.message}${fields}\n`);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message } : v));
  } catch {
    return "[unserialisable]";
  }
}

export function setLogLevel(level: LogLevel): void {
  threshold = level;
}

/**
 * Where the records at or above the level go instead of stderr (undefined: stderr again). The test
 * setup takes them, so a log line a test provokes is asserted by the test, never printed into a
 * passing run (test/support/logs.ts).
 */
export function setConsoleSink(sink: Sink | undefined): void {
  consoleSink = sink;
}

/** Observes every record regardless of level (tests assert on debug logs). Returns an unsubscribe function. */
export function addLogSink(sink: Sink): () => void {
  extraSinks.add(sink);
  return () => extraSinks.delete(sink);
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(scope: string): Logger {
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    const record: LogRecord = { level, scope, message, fields };
    for (const sink of extraSinks) sink(record);
    if (ORDER[level] >= ORDER[threshold]) (consoleSink ?? stderrSink)(record);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}
