// The string replacement at the heart of Edit, done losslessly: matching happens on the text with
// CRLF normalised to LF (FS-EDIT-4), but the result is spliced into the original text, so every
// byte outside the replaced spans stays as it was (CRLF, LF, mixed, a missing final newline).
// Replacement text gets the line endings of the span it replaces. `$&`, `$1` are plain text.
import type { ChangedRegion } from "./diff.js";

export interface Replacement {
  /** The new file text, with original line endings preserved. */
  text: string;
  /** Old and new text with CRLF normalised to LF (what the diff is computed on). */
  oldNormalized: string;
  newNormalized: string;
  /** Changed spans in the normalised texts. */
  regions: ChangedRegion[];
  count: number;
}

/** The text with CRLF as LF, and the LF positions (in that text) that were CRLF. */
export function normalizeCrlf(text: string): { normalized: string; crlfAt: number[] } {
  const crlfAt: number[] = [];
  let i = text.indexOf("\r\n");
  if (i === -1) return { normalized: text, crlfAt };
  let out = "";
  let from = 0;
  while (i !== -1) {
    out += text.slice(from, i);
    crlfAt.push(out.length);
    out += "\n";
    from = i + 2;
    i = text.indexOf("\r\n", from);
  }
  out += text.slice(from);
  return { normalized: out, crlfAt };
}

/** Offset in the original text of a position in the normalised text. */
function toOriginal(pos: number, crlfAt: number[]): number {
  let lo = 0;
  let hi = crlfAt.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (crlfAt[mid]! < pos) lo = mid + 1;
    else hi = mid;
  }
  return pos + lo;
}

/** Non-overlapping occurrences of `needle`, left to right. */
export function findAll(haystack: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === "") return out;
  let i = haystack.indexOf(needle);
  while (i !== -1) {
    out.push(i);
    i = haystack.indexOf(needle, i + needle.length);
  }
  return out;
}

function lineEndingAround(original: string, start: number, end: number, dominant: () => "\n" | "\r\n"): "\n" | "\r\n" {
  let crlf = 0;
  let lf = 0;
  for (let i = original.indexOf("\n", start); i !== -1 && i < end; i = original.indexOf("\n", i + 1)) {
    if (i > 0 && original.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  if (crlf > 0 && lf === 0) return "\r\n";
  if (lf > 0 && crlf === 0) return "\n";
  // No newline inside (or both kinds): the line the span sits on decides.
  const next = original.indexOf("\n", end);
  if (next !== -1) return next > 0 && original.charCodeAt(next - 1) === 13 ? "\r\n" : "\n";
  const prev = start > 0 ? original.lastIndexOf("\n", start - 1) : -1;
  if (prev !== -1) return prev > 0 && original.charCodeAt(prev - 1) === 13 ? "\r\n" : "\n";
  return dominant();
}

/**
 * Replaces `oldString` at `positions` (offsets in the normalised text) by `newString`. Both
 * strings must already be LF-normalised.
 */
export function applyReplacements(
  original: string,
  normalized: string,
  crlfAt: number[],
  positions: number[],
  oldString: string,
  newString: string,
  /** The file's majority ending; asked only when nothing nearer decides (it costs a scan). */
  dominant: () => "\n" | "\r\n",
): Replacement {
  const out: string[] = [];
  const normOut: string[] = [];
  const regions: ChangedRegion[] = [];
  let origFrom = 0;
  let normFrom = 0;
  let newNormLength = 0;
  const hasCrlf = crlfAt.length > 0;
  for (const pos of positions) {
    const oStart = toOriginal(pos, crlfAt);
    const oEnd = toOriginal(pos + oldString.length, crlfAt);
    const ending = !newString.includes("\n") ? "\n" : lineEndingAround(original, oStart, oEnd, dominant);
    out.push(original.slice(origFrom, oStart), ending === "\n" ? newString : newString.replace(/\n/g, "\r\n"));
    origFrom = oEnd;
    const keepLength = pos - normFrom;
    if (hasCrlf) normOut.push(normalized.slice(normFrom, pos), newString);
    newNormLength += keepLength;
    regions.push({ oldStart: pos, oldEnd: pos + oldString.length, newStart: newNormLength, newEnd: newNormLength + newString.length });
    newNormLength += newString.length;
    normFrom = pos + oldString.length;
  }
  out.push(original.slice(origFrom));
  const text = out.join("");
  // Without CRLF the normalised text is the text itself: no second copy of a large file.
  if (hasCrlf) normOut.push(normalized.slice(normFrom));
  return { text, oldNormalized: normalized, newNormalized: hasCrlf ? normOut.join("") : text, regions, count: positions.length };
}

/** 1-based line number of `offset` in `text`. */
export function lineNumberAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Why `oldString` was not found, as a hint: a block matching when indentation and trailing
 * whitespace are ignored, or tabs and spaces swapped, or curly quotes straightened.
 */
export function nearMissHint(normalized: string, oldString: string): string | undefined {
  const fileLines = normalized.split("\n");
  const want = oldString.split("\n");
  while (want.length > 1 && want[want.length - 1] === "") want.pop();
  const squash = (s: string) =>
    s
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/[\u201c\u201d]/g, '"')
      .replace(/\s+/g, " ")
      .trim();
  const wantSquashed = want.map(squash);
  if (wantSquashed.every((l) => l === "")) return undefined;
  for (let i = 0; i + want.length <= fileLines.length; i++) {
    let ok = true;
    for (let j = 0; j < want.length; j++) {
      const line = fileLines[i + j]!;
      const w = wantSquashed[j]!;
      if (want.length === 1 ? !squash(line).includes(w) : squash(line) !== w) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const actual = fileLines.slice(i, i + want.length).join("\n");
    let what = "whitespace (indentation, tabs vs spaces, or trailing spaces)";
    if (/[\u2018\u2019\u201c\u201d]/.test(actual) || /[\u2018\u2019\u201c\u201d]/.test(oldString)) what = "quote characters (curly vs straight) or whitespace";
    return `A block at line ${i + 1} matches if ${what} is ignored. Copy the exact text from the file (read lines ${i + 1}-${i + want.length} again if needed).`;
  }
  return undefined;
}
