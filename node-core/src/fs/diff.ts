// The structured diff an Edit or Write result carries (FS-EDIT-3): unified-diff hunks with line
// numbers, and word-level change ranges where a run of removed lines is replaced by the same
// number of added lines. Only the regions that changed are diffed, so a one-line edit of a 10 MB
// file costs no more than the lines around it. The shape is a stable contract (docs/user/file-tools.md, "Result shapes",
// PROTOCOL.md "Bounded results").
//
// Bounded whatever the file: the result stays within DIFF_LIMITS (hunks, lines, characters per
// line, serialised bytes), and so does the work. A region whose line diff would cost more than
// `maxEditLength` edits (or runs past the time budget) is shown as what it is at worst, a
// replacement of its changed lines as a whole: still a correct diff, marked `coarse`.
import { cutChars, jsonBytes } from "../util/text.js";

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
  /** The line without its line ending; cut when `fullLength` is present. */
  text: string;
  /** 1-based line number in the old file (context and removed lines). */
  oldLine?: number;
  /** 1-based line number in the new file (context and added lines). */
  newLine?: number;
  /** Word-level changes inside this line (removed/added lines in an equal-sized run). */
  changes?: ChangeRange[];
  /** The whole line's length in UTF-16 units, present only when `text` was cut. */
  fullLength?: number;
  /** Lines of the hunk left out right after this one (before the next line shown, or the hunk's end). */
  omittedAfter?: number;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The hunk's lines; fewer than it spans when `linesOmitted` is present. */
  lines: DiffLine[];
  /** Lines of this hunk left out, in all; each gap is marked by `omittedAfter` on the line before it. */
  linesOmitted?: number;
}

export interface StructuredDiff {
  hunks: DiffHunk[];
  /** Over the whole change, including hunks and lines left out. */
  linesAdded: number;
  linesRemoved: number;
  /** Something was left out to keep the result bounded: hunks, lines of hunks, or ends of lines. */
  truncated: boolean;
  /** Hunks left out entirely (a changed region that was never diffed counts as one). */
  hunksOmitted: number;
  /** Lines left out of the hunks that are included. */
  linesOmitted: number;
  /** Included lines whose text was cut (they carry `fullLength`). */
  linesCut: number;
  /**
   * Some region's diff gave up (too many edits, or out of time) and shows its changed lines as
   * removed whole and added whole: correct, but not minimal.
   */
  coarse: boolean;
}

/** A changed stretch: [oldStart, oldEnd) in the old text became [newStart, newEnd) in the new. */
export interface ChangedRegion {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

export interface DiffLimits {
  /** Unchanged lines shown around each change. */
  context: number;
  maxHunks: number;
  /** Diff lines included, over all hunks. */
  maxLines: number;
  /** Characters kept of a line; longer lines are cut and carry `fullLength`. */
  maxLineChars: number;
  /** Serialised (JSON, UTF-8) size of the included hunks. */
  maxBytes: number;
  /** Word diffs are skipped for lines longer than this (they would cost more than they show). */
  maxWordDiffChars: number;
  /** Word edits explored per line pair before it goes without word ranges. */
  maxWordEdits: number;
  /** Line edits explored per region before it falls back to a coarse replacement. */
  maxEditLength: number;
  /** Time for the whole diff; past it, remaining regions are coarse and word diffs stop. */
  timeoutMs: number;
}

export const DIFF_LIMITS: Readonly<DiffLimits> = {
  context: 3,
  maxHunks: 100,
  maxLines: 1000,
  maxLineChars: 1000,
  maxBytes: 48 * 1024,
  maxWordDiffChars: 4000,
  maxWordEdits: 200,
  maxEditLength: 1000,
  timeoutMs: 250,
};

/** Share of maxBytes that lines may take, so word ranges still fit beside them. */
const LINE_BYTES_SHARE = 0.75;

/** The diff of a change whose old side could not be diffed (binary, or too large to load). */
export function unavailableDiff(): StructuredDiff {
  return { hunks: [], linesAdded: 0, linesRemoved: 0, truncated: true, hunksOmitted: 1, linesOmitted: 0, linesCut: 0, coarse: false };
}

/** The diff of no change. */
export function emptyDiff(): StructuredDiff {
  return { hunks: [], linesAdded: 0, linesRemoved: 0, truncated: false, hunksOmitted: 0, linesOmitted: 0, linesCut: 0, coarse: false };
}

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

/**
 * The lines of a line-aligned slice, each with its newline: a last line without one differs from
 * the same text with one, so adding or removing the final newline is a visible change.
 */
function splitLines(slice: string): string[] {
  const lines: string[] = [];
  let from = 0;
  while (from < slice.length) {
    const nl = slice.indexOf("\n", from);
    const end = nl === -1 ? slice.length : nl + 1;
    lines.push(slice.slice(from, end));
    from = end;
  }
  return lines;
}

function display(line: string): string {
  return line.endsWith("\n") ? line.slice(0, -1) : line;
}

type LineKind = DiffLine["type"];

/** A stretch of one kind of line in a slice: old lines [oldIndex, +count), new [newIndex, +count). */
interface Op {
  kind: LineKind;
  count: number;
  oldIndex: number;
  newIndex: number;
}

/** A stretch of lines of one kind inside a hunk, numbered in the whole file (1-based). */
interface Run {
  kind: LineKind;
  count: number;
  oldLine: number;
  newLine: number;
  text(k: number): string;
}

interface PendingHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  runs: Run[];
}

/** Tracks what the result may still take. */
class Budget {
  hunks = 0;
  lines = 0;
  bytes = 0;
  constructor(private readonly limits: DiffLimits) {}

  get lineBytes(): number {
    return Math.floor(this.limits.maxBytes * LINE_BYTES_SHARE);
  }

  canStartHunk(): boolean {
    return this.hunks < this.limits.maxHunks && this.lines < this.limits.maxLines && this.bytes + HUNK_OVERHEAD_BYTES < this.lineBytes;
  }

  /** Whether `cost` more bytes of lines fit, and one more line. */
  fitsLine(cost: number): boolean {
    return this.lines < this.limits.maxLines && this.bytes + cost <= this.lineBytes;
  }

  fitsExtra(cost: number): boolean {
    return this.bytes + cost <= this.limits.maxBytes;
  }
}

/** `{"oldStart":…,"oldLines":…,"newStart":…,"newLines":…,"lines":[],"linesOmitted":…},` at most. */
const HUNK_OVERHEAD_BYTES = 160;

function makeLine(kind: LineKind, full: string, oldLine: number | undefined, newLine: number | undefined, maxChars: number): DiffLine {
  const text = cutChars(full, maxChars);
  const line: DiffLine = { type: kind, text };
  if (oldLine !== undefined) line.oldLine = oldLine;
  if (newLine !== undefined) line.newLine = newLine;
  if (text.length < full.length) line.fullLength = full.length;
  return line;
}

/**
 * The ops of one slice pair: common leading and trailing lines are equal without a diff; the
 * middle is diffed by jsdiff within the edit and time limits, or replaced whole when it gives up.
 */
function diffSlices(lib: DiffLib, oldLines: string[], newLines: string[], limits: DiffLimits, deadline: number): { ops: Op[]; coarse: boolean } {
  let head = 0;
  const shorter = Math.min(oldLines.length, newLines.length);
  while (head < shorter && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (tail < shorter - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) tail++;
  const oldMid = oldLines.length - head - tail;
  const newMid = newLines.length - head - tail;

  const ops: Op[] = [];
  const push = (kind: LineKind, count: number, oldIndex: number, newIndex: number) => {
    if (count > 0) ops.push({ kind, count, oldIndex, newIndex });
  };
  push("context", head, 0, 0);
  let coarse = false;
  // A side with nothing left, or one line against one, needs no search.
  const trivial = oldMid === 0 || newMid === 0 || (oldMid === 1 && newMid === 1);
  const remaining = deadline - Date.now();
  const changes =
    trivial || remaining <= 0 ? undefined : lib.diffArrays(oldLines.slice(head, head + oldMid), newLines.slice(head, head + newMid), { maxEditLength: limits.maxEditLength, timeout: remaining });
  if (changes) {
    let o = head;
    let n = head;
    for (const c of changes) {
      const count = c.count;
      if (c.removed) {
        push("removed", count, o, n);
        o += count;
      } else if (c.added) {
        push("added", count, o, n);
        n += count;
      } else {
        push("context", count, o, n);
        o += count;
        n += count;
      }
    }
  } else {
    coarse = !trivial;
    push("removed", oldMid, head, head);
    push("added", newMid, head + oldMid, head);
  }
  push("context", tail, head + oldMid, head + newMid);
  return { ops, coarse };
}

/** Groups ops into unified-diff hunks: changes with `context` lines around, merged when close. */
function hunksOf(ops: Op[], oldLines: string[], newLines: string[], oldBase: number, newBase: number, context: number): PendingHunk[] {
  const hunks: PendingHunk[] = [];
  let current: PendingHunk | undefined;
  const runOf = (kind: LineKind, oldIndex: number, newIndex: number, count: number): Run => ({
    kind,
    count,
    oldLine: oldBase + oldIndex,
    newLine: newBase + newIndex,
    text: kind === "added" ? (k) => newLines[newIndex + k]! : (k) => oldLines[oldIndex + k]!,
  });
  const close = () => {
    if (!current) return;
    // Unified-diff convention: an empty side's start names the line before the change.
    if (current.oldLines === 0) current.oldStart--;
    if (current.newLines === 0) current.newStart--;
    hunks.push(current);
    current = undefined;
  };
  const addRun = (run: Run) => {
    if (run.count === 0) return;
    current!.runs.push(run);
    if (run.kind !== "added") current!.oldLines += run.count;
    if (run.kind !== "removed") current!.newLines += run.count;
  };
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.kind !== "context") {
      if (!current) {
        // Leading context: the last `context` lines of the equal op before, if any.
        const before = ops[i - 1];
        const lead = before && before.kind === "context" ? Math.min(context, before.count) : 0;
        const oldIndex = op.oldIndex - lead;
        const newIndex = op.newIndex - lead;
        current = { oldStart: oldBase + oldIndex, oldLines: 0, newStart: newBase + newIndex, newLines: 0, runs: [] };
        addRun(runOf("context", oldIndex, newIndex, lead));
      }
      addRun(runOf(op.kind, op.oldIndex, op.newIndex, op.count));
      continue;
    }
    if (!current) continue;
    const isLast = i === ops.length - 1;
    if (!isLast && op.count <= 2 * context) {
      addRun(runOf("context", op.oldIndex, op.newIndex, op.count));
    } else {
      addRun(runOf("context", op.oldIndex, op.newIndex, Math.min(context, op.count)));
      close();
    }
  }
  close();
  return hunks;
}

/** What an `,"omittedAfter":123456` costs a line that may end up before a gap. */
const GAP_MARK_BYTES = 24;

/**
 * Which lines of a hunk to keep: all when they fit; otherwise the budget goes round the runs one
 * line at a time, so a huge replacement still shows the start of both what went and what came.
 * Returns the kept leading lines of each run.
 */
function selectLines(h: PendingHunk, budget: Budget, limits: DiffLimits): DiffLine[][] {
  const lineAt = (r: number, k: number): DiffLine => {
    const run = h.runs[r]!;
    return makeLine(run.kind, display(run.text(k)), run.kind === "added" ? undefined : run.oldLine + k, run.kind === "removed" ? undefined : run.newLine + k, limits.maxLineChars);
  };
  // Whole, if it fits: lines in order until the budget says no.
  const whole: DiffLine[][] = [];
  let lines = 0;
  let bytes = 0;
  let fits = true;
  for (let r = 0; r < h.runs.length && fits; r++) {
    const kept: DiffLine[] = [];
    for (let k = 0; k < h.runs[r]!.count; k++) {
      const line = lineAt(r, k);
      lines++;
      bytes += jsonBytes(line) + 1;
      if (budget.lines + lines > limits.maxLines || !budget.fitsLine(bytes)) {
        fits = false;
        break;
      }
      kept.push(line);
    }
    whole.push(kept);
  }
  if (fits) {
    budget.lines += lines;
    budget.bytes += bytes;
    return whole;
  }
  // Round the runs; any line may come to stand before a gap, so each pays for the mark.
  const kept: DiffLine[][] = h.runs.map(() => []);
  let progress = true;
  while (progress) {
    progress = false;
    for (let r = 0; r < h.runs.length; r++) {
      const k = kept[r]!.length;
      if (k >= h.runs[r]!.count) continue;
      const line = whole[r]?.[k] ?? lineAt(r, k);
      const cost = jsonBytes(line) + 1 + GAP_MARK_BYTES;
      if (!budget.fitsLine(cost)) return kept;
      budget.lines++;
      budget.bytes += cost;
      kept[r]!.push(line);
      progress = true;
    }
  }
  return kept;
}

/** The kept lines in order, each gap marked on the line before it; returns how many were left out. */
function markGaps(h: PendingHunk, kept: DiffLine[][]): { lines: DiffLine[]; omitted: number } {
  const lines: DiffLine[] = [];
  let pending = 0;
  let omitted = 0;
  h.runs.forEach((run, r) => {
    for (const line of kept[r]!) {
      if (pending > 0 && lines.length > 0) lines[lines.length - 1]!.omittedAfter = pending;
      pending = 0;
      lines.push(line);
    }
    const left = run.count - kept[r]!.length;
    pending += left;
    omitted += left;
  });
  if (pending > 0 && lines.length > 0) lines[lines.length - 1]!.omittedAfter = pending;
  return { lines, omitted };
}

function wordRanges(lib: DiffLib, oldLine: string, newLine: string, maxEdits: number, deadline: number): { removed: ChangeRange[]; added: ChangeRange[] } | undefined {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return undefined;
  const parts = lib.diffWordsWithSpace(oldLine, newLine, { maxEditLength: maxEdits, timeout: remaining });
  if (!parts) return undefined;
  const removed: ChangeRange[] = [];
  const added: ChangeRange[] = [];
  let o = 0;
  let n = 0;
  for (const part of parts) {
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

/** Ranges inside the kept part of a cut line. */
function clip(ranges: ChangeRange[], length: number): ChangeRange[] {
  return ranges.filter((r) => r.start < length).map((r) => ({ start: r.start, end: Math.min(r.end, length) }));
}

/**
 * Word-level ranges for each run of k removed lines followed directly by k added lines (the
 * whole runs, kept or not, decide the pairing), on the kept lines, while time and bytes last.
 */
function addWordChanges(lib: DiffLib, h: PendingHunk, kept: DiffLine[][], budget: Budget, limits: DiffLimits, deadline: number): void {
  for (let r = 0; r + 1 < h.runs.length; r++) {
    const removedRun = h.runs[r]!;
    const addedRun = h.runs[r + 1]!;
    if (removedRun.kind !== "removed" || addedRun.kind !== "added" || removedRun.count !== addedRun.count) continue;
    const pairs = Math.min(kept[r]!.length, kept[r + 1]!.length);
    for (let j = 0; j < pairs; j++) {
      const oldFull = display(removedRun.text(j));
      const newFull = display(addedRun.text(j));
      if (oldFull.length > limits.maxWordDiffChars || newFull.length > limits.maxWordDiffChars) continue;
      const ranges = wordRanges(lib, oldFull, newFull, limits.maxWordEdits, deadline);
      if (!ranges) continue;
      const r1 = kept[r]![j]!;
      const a1 = kept[r + 1]![j]!;
      const removed = clip(ranges.removed, r1.text.length);
      const added = clip(ranges.added, a1.text.length);
      const cost = jsonBytes(removed) + jsonBytes(added) + 2 * ',"changes":'.length;
      if (!budget.fitsExtra(cost)) return;
      budget.bytes += cost;
      r1.changes = removed;
      a1.changes = added;
    }
  }
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
export async function computeDiff(oldText: string, newText: string, regions: ChangedRegion[], limits: DiffLimits = DIFF_LIMITS): Promise<DiffResult> {
  const lib = await loadDiff();
  const context = limits.context;
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

  const diff = emptyDiff();
  const budget = new Budget(limits);
  const deadline = Date.now() + limits.timeoutMs;
  for (const c of clusters) {
    const oldHead = lineStartAbove(oldText, c.oldStart, context);
    const newHead = lineStartAbove(newText, c.newStart, context);
    const oldLines = splitLines(oldText.slice(oldHead.start, lineEndBelow(oldText, Math.max(c.oldStart, c.oldEnd - 1), context)));
    const newLines = splitLines(newText.slice(newHead.start, lineEndBelow(newText, Math.max(c.newStart, c.newEnd - 1), context)));
    const { ops, coarse } = diffSlices(lib, oldLines, newLines, limits, deadline);
    if (coarse) diff.coarse = true;
    const pending = hunksOf(ops, oldLines, newLines, c.oldFrom - oldHead.up + 1, c.newFrom - newHead.up + 1, context);
    for (const h of pending) {
      for (const run of h.runs) {
        if (run.kind === "added") diff.linesAdded += run.count;
        else if (run.kind === "removed") diff.linesRemoved += run.count;
      }
      if (!budget.canStartHunk()) {
        diff.hunksOmitted++;
        continue;
      }
      const kept = selectLines(h, budget, limits);
      const { lines, omitted } = markGaps(h, kept);
      if (lines.length === 0) {
        diff.hunksOmitted++;
        continue;
      }
      budget.hunks++;
      budget.bytes += HUNK_OVERHEAD_BYTES;
      addWordChanges(lib, h, kept, budget, limits, deadline);
      const hunk: DiffHunk = { oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines };
      if (omitted > 0) {
        hunk.linesOmitted = omitted;
        diff.linesOmitted += omitted;
      }
      diff.linesCut += lines.filter((l) => l.fullLength !== undefined).length;
      diff.hunks.push(hunk);
    }
  }
  diff.truncated = diff.hunksOmitted > 0 || diff.linesOmitted > 0 || diff.linesCut > 0;
  return { diff, regionLines };
}

/** The diff alone (see computeDiff). */
export async function structuredDiff(oldText: string, newText: string, regions: ChangedRegion[], limits: DiffLimits = DIFF_LIMITS): Promise<StructuredDiff> {
  return (await computeDiff(oldText, newText, regions, limits)).diff;
}
