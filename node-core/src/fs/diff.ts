// The structured diff an Edit or Write result carries (FS-EDIT-3): unified-diff hunks with line
// numbers, and word-level change ranges where a run of removed lines is replaced by the same
// number of added lines. Only the regions that changed are diffed, so a one-line edit of a 10 MB
// file costs no more than the lines around it. The shape is a stable contract (README "File tools").
import { diffWordsWithSpace, structuredPatch } from "diff";

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

class LineIndex {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    let i = text.indexOf("\n");
    while (i !== -1) {
      this.starts.push(i + 1);
      i = text.indexOf("\n", i + 1);
    }
  }

  /** Number of lines (a final line without a newline counts; a trailing newline does not add one). */
  get count(): number {
    const n = this.starts.length;
    return this.starts[n - 1] === this.text.length ? n - 1 : n;
  }

  /** 0-based line containing `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Lines [from, to) joined with their newlines. */
  slice(from: number, to: number): string {
    const start = this.starts[from] ?? this.text.length;
    const end = this.starts[to] ?? this.text.length;
    return this.text.slice(start, end);
  }
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
  oldFrom: number;
  oldTo: number; // exclusive, lines
  newFrom: number;
  newTo: number;
}

function withNewline(s: string): string {
  return s === "" || s.endsWith("\n") ? s : s + "\n";
}

function wordRanges(oldLine: string, newLine: string): { removed: ChangeRange[]; added: ChangeRange[] } {
  const removed: ChangeRange[] = [];
  const added: ChangeRange[] = [];
  let o = 0;
  let n = 0;
  for (const part of diffWordsWithSpace(oldLine, newLine)) {
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
  return { removed, added };
}

function pushRange(ranges: ChangeRange[], start: number, end: number): void {
  const last = ranges[ranges.length - 1];
  if (last && last.end === start) last.end = end;
  else ranges.push({ start, end });
}

/** Adds word-level ranges to each run of k removed lines followed directly by k added lines. */
function addWordChanges(lines: DiffLine[]): void {
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
      const { removed, added } = wordRanges(r.text, a.text);
      r.changes = removed;
      a.changes = added;
    }
  }
}

function convertHunk(h: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }, oldOffset: number, newOffset: number): DiffHunk {
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
  addWordChanges(lines);
  return { oldStart, oldLines: h.oldLines, newStart, newLines: h.newLines, lines };
}

/**
 * Diffs only the given regions (each grown to whole lines plus context, neighbours merged).
 * Texts use LF line endings (the caller normalises CRLF first).
 */
export function structuredDiff(oldText: string, newText: string, regions: ChangedRegion[], context = DIFF_CONTEXT): StructuredDiff {
  const oldIdx = new LineIndex(oldText);
  const newIdx = new LineIndex(newText);
  const clusters: Cluster[] = [];
  for (const r of [...regions].sort((a, b) => a.oldStart - b.oldStart)) {
    const c: Cluster = {
      oldFrom: oldIdx.lineOf(r.oldStart),
      oldTo: oldIdx.lineOf(Math.max(r.oldStart, r.oldEnd - 1)) + 1,
      newFrom: newIdx.lineOf(r.newStart),
      newTo: newIdx.lineOf(Math.max(r.newStart, r.newEnd - 1)) + 1,
    };
    const last = clusters[clusters.length - 1];
    if (last && c.oldFrom - last.oldTo <= 2 * context) {
      last.oldTo = Math.max(last.oldTo, c.oldTo);
      last.newTo = Math.max(last.newTo, c.newTo);
    } else clusters.push(c);
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
    const oldFrom = Math.max(0, c.oldFrom - context);
    const newFrom = Math.max(0, c.newFrom - context);
    const oldSlice = withNewline(oldIdx.slice(oldFrom, Math.min(oldIdx.count, c.oldTo + context)));
    const newSlice = withNewline(newIdx.slice(newFrom, Math.min(newIdx.count, c.newTo + context)));
    const patch = structuredPatch("a", "b", oldSlice, newSlice, undefined, undefined, {
      context,
      timeout: Math.max(1, deadline - Date.now()),
    });
    if (!patch) {
      truncated = true;
      break;
    }
    for (const h of patch.hunks) {
      const hunk = convertHunk(h, oldFrom, newFrom);
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
  return { hunks, linesAdded, linesRemoved, truncated };
}
