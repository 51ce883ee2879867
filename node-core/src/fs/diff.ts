// The structured diff an Edit or Write result carries (FS-EDIT-3): unified-diff hunks with line
// numbers, and word-level change ranges where a run of removed lines is replaced by the same
// number of added lines. Only the regions that changed are diffed, so a one-line edit of a 10 MB
// file costs no more than the lines around it. The shape is a stable contract (README "File tools").
type DiffLib = typeof import("diff");

// jsdiff loads on the first diff: most core sessions never edit, and it costs memory.
let diffLib: DiffLib | undefined;
async function loadDiff(): Promise<DiffLib> {
  diffLib ??= await import("diff");
  return diffLib;
}

export interface ChangeRange {
  /** UTF-16 offsets into the line's text; `end` is exclusive. */
  start: number;
  end: number;
}

export interface DiffLine {
  type: "context" | "removed" | "added";
  text: string;
  /** 1-based line number in the old file (context and removed lines). */
  oldLine?: number;
  /** 1-based line number in the new file (context and added lines). */
  newLine?: number;
  /** Word-level changes inside this line (removed/added lines in an equal-sized run). */
  changes?: ChangeRange[];
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface StructuredDiff {
  hunks: DiffHunk[];
  linesAdded: number;
  linesRemoved: number;
  /** True when hunks were left out to keep the result bounded (or the diff took too long). */
  truncated: boolean;
}

/** A changed stretch: [oldStart, oldEnd) in the old text became [newStart, newEnd) in the new. */
export interface ChangedRegion {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

export const DIFF_CONTEXT = 3;
export const MAX_DIFF_LINES = 2000;
/** Word diffs are skipped for lines longer than this (they would cost more than they show). */
const MAX_WORD_DIFF_CHARS = 4000;
const DIFF_TIMEOUT_MS = 2000;

/** Counts newlines in text[from, to). */
export function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Start of the line `back` lines above the one containing `offset`; also how many it went up. */
function lineStartAbove(text: string, offset: number, back: number): { start: number; up: number } {
  // The last newline strictly before `before` (lastIndexOf treats a negative start as 0).
  const newlineBefore = (before: number) => (before <= 0 ? -1 : text.lastIndexOf("\n", before - 1));
  let start = newlineBefore(offset) + 1;
  let up = 0;
  while (up < back && start > 0) {
    start = newlineBefore(start - 1) + 1;
    up++;
  }
  return { start, up };
}

/** End (after the newline) of the line `ahead` lines below the one containing `offset`. */
function lineEndBelow(text: string, offset: number, ahead: number): number {
  let end = offset;
  for (let k = 0; k <= ahead; k++) {
    const nl = text.indexOf("\n", end);
    if (nl === -1) return text.length;
    end = nl + 1;
    if (end >= text.length) return text.length;
  }
  return end;
}

/** One region covering everything that differs between two texts (common prefix/suffix trimmed). */
export function wholeTextRegion(oldText: string, newText: string): ChangedRegion | undefined {
  if (oldText === newText) return undefined;
  const max = Math.min(oldText.length, newText.length);
  let p = 0;
  while (p < max && oldText.charCodeAt(p) === newText.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && oldText.charCodeAt(oldText.length - 1 - s) === newText.charCodeAt(newText.length - 1 - s)) s++;
  return { oldStart: p, oldEnd: oldText.length - s, newStart: p, newEnd: newText.length - s };
}

interface Cluster {
  /** Offsets spanned in each text (start of the first region, end of the last). */
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
  /** 0-based lines of those offsets. */
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

function withNewline(s: string): string {
  return s === "" || s.endsWith("\n") ? s : s + "\n";
}

function wordRanges(lib: DiffLib, oldLine: string, newLine: string): { removed: ChangeRange[]; added: ChangeRange[] } {
  const removed: ChangeRange[] = [];
  const added: ChangeRange[] = [];
  let o = 0;
  let n = 0;
  for (const part of lib.diffWordsWithSpace(oldLine, newLine)) {
    const len = part.value.length;
    if (part.removed) {
      pushRange(removed, o, o + len);
      o += len;
    } else if (part.added) {
      pushRange(added, n, n + len);
      n += len;
    } else {
      o += len;
      n += len;
    }
  }
  return { removed: trimmed(oldLine, removed), added: trimmed(newLine, added) };
}

/**
 * Which side of a change a space belongs to is arbitrary (`x + y) * 2` vs `x + y)` + ` * 2`); a
 * highlight reads best on the words alone, so ranges lose their outer whitespace unless they
 * are only whitespace (an indentation change stays visible).
 */
function trimmed(text: string, ranges: ChangeRange[]): ChangeRange[] {
  return ranges.map(({ start, end }) => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    return s < e ? { start: s, end: e } : { start, end };
  });
}

function pushRange(ranges: ChangeRange[], start: number, end: number): void {
  const last = ranges[ranges.length - 1];
  if (last && last.end === start) last.end = end;
  else ranges.push({ start, end });
}

/** Adds word-level ranges to each run of k removed lines followed directly by k added lines. */
function addWordChanges(lib: DiffLib, lines: DiffLine[]): void {
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.type !== "removed") {
      i++;
      continue;
    }
    const rStart = i;
    while (i < lines.length && lines[i]!.type === "removed") i++;
    const aStart = i;
    while (i < lines.length && lines[i]!.type === "added") i++;
    const k = aStart - rStart;
    if (k === 0 || i - aStart !== k) continue;
    for (let j = 0; j < k; j++) {
      const r = lines[rStart + j]!;
      const a = lines[aStart + j]!;
      if (r.text.length > MAX_WORD_DIFF_CHARS || a.text.length > MAX_WORD_DIFF_CHARS) continue;
      const { removed, added } = wordRanges(lib, r.text, a.text);
      r.changes = removed;
      a.changes = added;
    }
  }
}

function convertHunk(lib: DiffLib, h: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }, oldOffset: number, newOffset: number): DiffHunk {
  // Unified-diff convention: an empty side's start names the line before the change.
  const oldStart = h.oldStart + oldOffset;
  const newStart = h.newStart + newOffset;
  let o = h.oldLines === 0 ? oldStart + 1 : oldStart;
  let n = h.newLines === 0 ? newStart + 1 : newStart;
  const lines: DiffLine[] = [];
  for (const raw of h.lines) {
    const tag = raw[0];
    const text = raw.slice(1);
    if (tag === " ") lines.push({ type: "context", text, oldLine: o++, newLine: n++ });
    else if (tag === "-") lines.push({ type: "removed", text, oldLine: o++ });
    else if (tag === "+") lines.push({ type: "added", text, newLine: n++ });
    // "\ No newline at end of file" markers carry no line.
  }
  addWordChanges(lib, lines);
  return { oldStart, oldLines: h.oldLines, newStart, newLines: h.newLines, lines };
}

export interface DiffResult {
  diff: StructuredDiff;
  /** 1-based first and last line of each region in the new text, in position order. */
  regionLines: Array<{ from: number; to: number }>;
}

/**
 * Diffs only the given regions (each grown to whole lines plus context, neighbours merged).
 * Texts use LF line endings (the caller normalises CRLF first). Line numbers come from one
 * forward scan of the old text up to the last region; new-text numbers follow from the regions.
 */
export async function computeDiff(oldText: string, newText: string, regions: ChangedRegion[], context = DIFF_CONTEXT): Promise<DiffResult> {
  const lib = await loadDiff();
  const sorted = [...regions].sort((a, b) => a.oldStart - b.oldStart);
  let scanPos = 0;
  let scanLine = 0;
  const oldLineOf = (offset: number) => {
    for (let nl = oldText.indexOf("\n", scanPos); nl !== -1 && nl < offset; nl = oldText.indexOf("\n", scanPos)) {
      scanLine++;
      scanPos = nl + 1;
    }
    return scanLine;
  };
  let delta = 0; // new line number minus old line number before the current region
  const clusters: Cluster[] = [];
  const regionLines: Array<{ from: number; to: number }> = [];
  for (const r of sorted) {
    const oldFrom = oldLineOf(r.oldStart);
    const oldTo = oldFrom + countNewlines(oldText, r.oldStart, Math.max(r.oldStart, r.oldEnd - 1)) + 1;
    const newFrom = oldFrom + delta;
    const newTo = newFrom + countNewlines(newText, r.newStart, Math.max(r.newStart, r.newEnd - 1)) + 1;
    delta += countNewlines(newText, r.newStart, r.newEnd) - countNewlines(oldText, r.oldStart, r.oldEnd);
    regionLines.push({ from: newFrom + 1, to: newTo });
    const last = clusters[clusters.length - 1];
    if (last && oldFrom - last.oldTo <= 2 * context) {
      Object.assign(last, { oldEnd: r.oldEnd, newEnd: r.newEnd, oldTo: Math.max(last.oldTo, oldTo), newTo: Math.max(last.newTo, newTo) });
    } else clusters.push({ oldStart: r.oldStart, oldEnd: r.oldEnd, newStart: r.newStart, newEnd: r.newEnd, oldFrom, oldTo, newFrom, newTo });
  }

  const hunks: DiffHunk[] = [];
  let linesAdded = 0;
  let linesRemoved = 0;
  let shown = 0;
  let truncated = false;
  const deadline = Date.now() + DIFF_TIMEOUT_MS;
  for (const c of clusters) {
    if (shown >= MAX_DIFF_LINES || Date.now() > deadline) {
      truncated = true;
      break;
    }
    const oldHead = lineStartAbove(oldText, c.oldStart, context);
    const newHead = lineStartAbove(newText, c.newStart, context);
    const oldSlice = withNewline(oldText.slice(oldHead.start, lineEndBelow(oldText, Math.max(c.oldStart, c.oldEnd - 1), context)));
    const newSlice = withNewline(newText.slice(newHead.start, lineEndBelow(newText, Math.max(c.newStart, c.newEnd - 1), context)));
    const patch = lib.structuredPatch("a", "b", oldSlice, newSlice, undefined, undefined, {
      context,
      timeout: Math.max(1, deadline - Date.now()),
    });
    if (!patch) {
      truncated = true;
      break;
    }
    for (const h of patch.hunks) {
      const hunk = convertHunk(lib, h, c.oldFrom - oldHead.up, c.newFrom - newHead.up);
      for (const l of hunk.lines) {
        if (l.type === "added") linesAdded++;
        else if (l.type === "removed") linesRemoved++;
      }
      if (shown + hunk.lines.length > MAX_DIFF_LINES && hunks.length > 0) {
        truncated = true;
        break;
      }
      shown += hunk.lines.length;
      hunks.push(hunk);
    }
    if (truncated) break;
  }
  return { diff: { hunks, linesAdded, linesRemoved, truncated }, regionLines };
}

/** The diff alone (see computeDiff). */
export async function structuredDiff(oldText: string, newText: string, regions: ChangedRegion[], context = DIFF_CONTEXT): Promise<StructuredDiff> {
  return (await computeDiff(oldText, newText, regions, context)).diff;
}
