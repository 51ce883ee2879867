// Turns the probe's stdout into variables (BASH-ENV-2, BASH-ENV-6). Only what lies between the
// probe's own markers counts: whatever a profile prints before (banners, `fortune`, prompts for
// input) or after (logout scripts, traps) is ignored.
import { ANTI_NOISE_VARIABLES, type ProbeMarkers } from "./probeCommand.js";
import type { ParseMode } from "./status.js";

/** BASH-ENV-6: describe the probe shell itself, not the user's environment. */
const SHELL_BOOKKEEPING = ["PWD", "OLDPWD", "SHLVL", "_"];
export const DROPPED_KEYS: ReadonlySet<string> = new Set([...SHELL_BOOKKEEPING, ...Object.keys(ANTI_NOISE_VARIABLES)]);

const ENTRY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** What starts an entry in `env`'s line output; exported bash functions have names like `BASH_FUNC_f%%`. */
const ENTRY_LIKE = /^[^\s=]+$/;

export type ParsedProbe =
  | {
      ok: true;
      mode: ParseMode;
      variables: Map<string, string>;
      /** Line mode only: keys dropped because their value may span lines. */
      droppedMultiline: string[];
    }
  | { ok: false; reason: string; startMarkerSeen: boolean };

/** The text after the start marker's line, or undefined when the marker never appeared. */
function afterStartMarker(stdout: string, start: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = stdout.indexOf(start, from);
    if (at < 0) return undefined;
    // The marker must be a whole line (echo prints it alone), not part of a longer line.
    const lineStart = at === 0 || stdout[at - 1] === "\n";
    let next = at + start.length;
    if (stdout[next] === "\r") next++;
    if (lineStart && stdout[next] === "\n") return stdout.slice(next + 1);
    from = at + start.length;
  }
}

function keep(name: string): boolean {
  return name.length > 0 && !DROPPED_KEYS.has(name);
}

/** NUL mode: `NAME=value\0` entries, then the end marker. Values may hold any byte but NUL. */
function parseNul(body: string, end: string): ParsedProbe | undefined {
  const endAt = body.indexOf(`\0${end}`);
  const emptyEnv = body.startsWith(end);
  if (endAt < 0 && !emptyEnv) return undefined;
  const variables = new Map<string, string>();
  const listing = emptyEnv ? "" : body.slice(0, endAt);
  for (const entry of listing.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (keep(name)) variables.set(name, entry.slice(eq + 1));
  }
  return { ok: true, mode: "nul", variables, droppedMultiline: [] };
}

/**
 * Line mode (`env -0` unavailable, e.g. an old BSD `env`): one `NAME=value` per line. A value with
 * a newline continues on lines that are not `NAME=...`; such a key is dropped, and so is a key
 * listed twice (one of the two may be a value's continuation line that happens to look like an
 * entry). Without the NUL separators that is all that can be known.
 */
function parseLines(body: string): ParsedProbe {
  const variables = new Map<string, string>();
  const dropped = new Set<string>();
  const lines = body.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.at(-1) === "") lines.pop(); // the listing's own final newline
  let previous: string | undefined;
  for (const line of lines) {
    const eq = line.indexOf("=");
    const name = eq > 0 ? line.slice(0, eq) : "";
    if (ENTRY_LIKE.test(name)) {
      if (variables.has(name) || dropped.has(name)) {
        dropped.add(name);
        variables.delete(name);
      } else {
        variables.set(name, line.slice(eq + 1));
      }
      previous = name;
    } else if (previous !== undefined) {
      // A continuation line (possibly empty): the previous value spans lines.
      dropped.add(previous);
      variables.delete(previous);
    }
  }
  for (const name of [...variables.keys()]) if (!keep(name) || !ENTRY_NAME.test(name)) variables.delete(name);
  const droppedMultiline = [...dropped].filter((n) => keep(n) && ENTRY_NAME.test(n)).sort();
  return { ok: true, mode: "lines", variables, droppedMultiline };
}

/** Parses the output of the `full` probe form. */
export function parseProbeOutput(stdout: string, markers: ProbeMarkers): ParsedProbe {
  const body = afterStartMarker(stdout, markers.start);
  if (body === undefined) {
    return {
      ok: false,
      startMarkerSeen: false,
      reason: "the login shell never ran the probe command (no start marker: its profile may exit early, exec another program, or fail)",
    };
  }
  const nul = parseNul(body, markers.end);
  if (nul) return nul;
  if (body.includes("\0")) {
    return { ok: false, startMarkerSeen: true, reason: "the environment listing was cut off before its end marker" };
  }
  const lines = parseLines(body);
  if (lines.ok && lines.variables.size === 0 && lines.droppedMultiline.length === 0) {
    return { ok: false, startMarkerSeen: true, reason: "the login shell printed no environment (`env` could not run in it)" };
  }
  return lines;
}

/** Parses the output of the `path-only` form and of the Windows form: one line between the markers. */
export function parseSingleValue(stdout: string, markers: ProbeMarkers): { ok: true; value: string } | { ok: false; reason: string } {
  const body = afterStartMarker(stdout, markers.start);
  if (body === undefined) return { ok: false, reason: "the login shell never ran the probe command (no start marker)" };
  const endAt = body.indexOf(markers.end);
  if (endAt < 0) return { ok: false, reason: "the login shell did not finish the probe command (no end marker)" };
  const lines = body
    .slice(0, endAt)
    .split("\n")
    .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const value = lines.filter((l) => l.length > 0).at(-1);
  if (value === undefined) return { ok: false, reason: "the login shell printed an empty PATH" };
  return { ok: true, value };
}
