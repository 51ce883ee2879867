// Why a command failed, in one or two sentences a model can act on: an exit status, a signal, a
// timeout, a cancellation, or a start that never happened. Pure: everything it needs is passed in
// (the tail of stderr is the only evidence bash leaves for "command not found" or a full disk).
import { constants } from "node:os";
import type { ToolErrorKind } from "../base/toolErrors.js";

export interface Failure {
  /** In the union every tool's errors use (base/toolErrors.ts says what each kind means). */
  kind: ToolErrorKind;
  message: string;
}

export interface Ending {
  exitCode: number | null;
  /** The signal that killed the shell itself, e.g. "SIGKILL". */
  signal: string | null;
  timedOut: boolean;
  timeoutMs: number;
  /** Why the call was cancelled, when it was. */
  cancelled?: string;
  /** The last few KiB of stderr. */
  stderrTail: string;
}

const SIGNALS = constants.signals as Record<string, number>;

export function signalNumber(name: string | null): number | null {
  return name !== null && SIGNALS[name] !== undefined ? SIGNALS[name]! : null;
}

export function signalName(num: number): string | undefined {
  return Object.keys(SIGNALS).find((k) => SIGNALS[k] === num);
}

/** Messages of the C library, bash and common runtimes when memory, processes, files or disk run out. */
const RESOURCE_PATTERNS: RegExp[] = [
  /Resource temporarily unavailable/,
  /Cannot allocate memory/,
  /\b[Oo]ut of memory\b/,
  /xmalloc: .*cannot allocate/,
  /Too many open files/,
  /cannot open shared object file: Error 24\b/,
  /No space left on device/,
  /Disk quota exceeded/,
  /File size limit exceeded/,
  /fork: retry/,
  /JavaScript heap out of memory/,
  /MemoryError\b/,
];

function quote(text: string): string {
  return "`" + (text.length > 120 ? text.slice(0, 117) + "..." : text) + "`";
}

function lastLineMatching(text: string, re: RegExp): string | undefined {
  const lines = text.split("\n").filter((l) => re.test(l));
  return lines[lines.length - 1]?.trim();
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

function resourceHint(line: string): string {
  if (/space|quota|File size/.test(line)) return "Free disk space (or raise the file size limit, ulimit -f) and try again.";
  if (/open files|Error 24/.test(line)) return "Too many files are open: close some, or raise the limit (ulimit -n).";
  if (/fork|temporarily unavailable/.test(line)) return "Too many processes are running: stop some (or raise ulimit -u) and try again.";
  return "Free memory, or make the command use less (smaller inputs, fewer parallel jobs).";
}

/** A sentence on where a signal usually comes from, when that helps. */
function signalCause(name: string): string {
  const why: Record<string, string> = {
    SIGKILL: " SIGKILL comes from a person or another program, or from the system's out-of-memory killer.",
    SIGSEGV: " SIGSEGV is a crash: the program accessed invalid memory.",
    SIGBUS: " SIGBUS is a crash: an invalid memory access.",
    SIGABRT: " SIGABRT means the program aborted itself, usually after an internal error.",
    SIGPIPE: " SIGPIPE means it wrote to a pipe whose reader had gone.",
  };
  return why[name] ?? "";
}

/** The failure, or undefined for a command that succeeded (exit code 0). */
export function explainEnding(e: Ending): Failure | undefined {
  if (e.timedOut) {
    return {
      kind: "timeout",
      message: `Command timed out after ${seconds(e.timeoutMs)} s and was killed with every process it started (SIGTERM, then SIGKILL a second later). Stdout and Stderr hold what it printed until then. Give a larger timeout for long builds or test runs, or start long-running processes in the background with &.`,
    };
  }
  if (e.cancelled !== undefined) {
    return {
      kind: "aborted",
      message: `Command was cancelled (${e.cancelled}); it and every process it started were stopped. Stdout and Stderr hold what it printed until then.`,
    };
  }
  if (e.signal !== null) {
    const num = signalNumber(e.signal);
    const which = num !== null ? `signal ${num} (${e.signal})` : e.signal;
    if (e.signal === "SIGXFSZ" || e.signal === "SIGXCPU") {
      return {
        kind: "out_of_resources",
        message: `Command was killed by ${which}: it ran out of resources (${e.signal === "SIGXFSZ" ? "the file size limit; raise ulimit -f or write less" : "the CPU time limit; raise ulimit -t or do less per call"}).`,
      };
    }
    return { kind: "command_killed", message: `Command was killed by ${which} before it finished.${signalCause(e.signal)}` };
  }
  const code = e.exitCode;
  if (code === 0 || code === null) return undefined;

  const resource = lastLineMatching(e.stderrTail, new RegExp(RESOURCE_PATTERNS.map((r) => r.source).join("|")));
  if (resource) {
    return { kind: "out_of_resources", message: `The system ran out of resources (exit code ${code}): ${quote(resource)}. ${resourceHint(resource)}` };
  }
  if (code === 127) {
    const notFound = /(?:^|: )([^:\n]+): command not found\s*$/m.exec(e.stderrTail);
    if (notFound) {
      return {
        kind: "command_not_found",
        message: `Command not found (exit code 127): ${quote(notFound[1]!.trim())} is not installed or not on PATH. Check the spelling, install it, or call it by its full path.`,
      };
    }
    const missing = /(?:^|: )([^:\n]+): No such file or directory\s*$/m.exec(e.stderrTail);
    return {
      kind: "command_not_found",
      message: missing
        ? `Command not found (exit code 127): ${quote(missing[1]!.trim())} does not exist. Check the path (it is relative to the directory the command runs in).`
        : "Command not found (exit code 127, bash's status for a command it could not find). Stderr names it; check the spelling, install it, or call it by its full path.",
    };
  }
  if (code === 126) {
    const denied = /(?:^|: )([^:\n]+): (Permission denied|Is a directory|cannot execute[^\n]*)\s*$/m.exec(e.stderrTail);
    const what = denied ? `${quote(denied[1]!.trim())} was found but could not be executed (${denied[2]!.trim()})` : "a command was found but could not be executed";
    return {
      kind: "not_executable",
      message: `Permission denied (exit code 126): ${what}. Make it executable (chmod +x), or run it through its interpreter (for example bash script.sh).`,
    };
  }
  const syntax = lastLineMatching(e.stderrTail, /syntax error/);
  if (code === 2 && syntax) {
    return { kind: "syntax_error", message: `Syntax error (exit code 2): ${quote(syntax)}. Fix the quoting or the structure of the command.` };
  }
  if (code > 128 && code < 128 + 65) {
    const name = signalName(code - 128);
    if (name) {
      const which = `signal ${code - 128} (${name})`;
      if (name === "SIGXFSZ" || name === "SIGXCPU") {
        return {
          kind: "out_of_resources",
          message: `Exit code ${code}: a process of the command was killed by ${which}, a resource limit (${name === "SIGXFSZ" ? "file size; raise ulimit -f or write less" : "CPU time; raise ulimit -t"}).`,
        };
      }
      return { kind: "command_failed", message: `Exit code ${code}: a process of the command was probably killed by ${which}.${signalCause(name)}` };
    }
  }
  return { kind: "command_failed", message: `Command exited with code ${code}.` };
}
