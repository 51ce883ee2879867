// Grep: content search on ripgrep (FS-SEARCH-1/3/4). Honours .gitignore (also outside a git
// repository), never searches VCS directories, bounds its output however many lines match, and
// says "timed out, partial results" rather than "no matches" when the tree is too slow to finish.
import { promises as fsp, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineTool, osString, errorResult, textResult } from "../core/tool.js";
import { spawnFailureKind } from "../base/toolErrors.js";
import { VCS_DIRECTORIES } from "../util/vcs.js";
import { describeMissing, displayPath, resolveToolPath } from "../fs/paths.js";
import { trustedRipgrepLookup } from "./sandbox.js";
import { findRipgrep, RecordSplitter, RIPGREP_MISSING, runRipgrep } from "../fs/ripgrep.js";
import { clipText, jsonBytes } from "../util/text.js";
import { isWithin } from "../util/paths.js";
import { boundReadPath, secondNameCheck } from "./readGuard.js";

export const GREP_MAX_OUTPUT_CHARS = 30_000;
/**
 * The whole reply — the text and, in files_with_matches mode, `filenames`, the same files as
 * absolute paths — stays under 100 KB serialised; the text's cap is counted on the text alone.
 * Reached first only when many short names sit under a long working directory.
 */
const GREP_MAX_REPLY_BYTES = 96 * 1024;
/** How much of the pattern a result repeats. */
const ECHOED_PATTERN_CHARS = 500;
const GREP_MAX_COLUMNS = 500;
/** Files kept (newest first) in files_with_matches mode when no head_limit is given. */
const DEFAULT_FILES_KEPT = 5_000;

const GREP_DESCRIPTION = `Searches file contents with ripgrep (regular expressions, Rust syntax: literal braces need escaping, e.g. "interface\\{\\}").

Usage:
- output_mode: "files_with_matches" (default: paths of matching files, newest first), "content" (matching lines as path:line:text, with optional context -A/-B/-C), or "count" (matches per file).
- Filter files with glob (e.g. "*.ts", "**/*.{ts,tsx}") or type (e.g. "js", "py", "rust" — faster than glob for standard languages).
- -i for case-insensitive search; multiline: true lets patterns span lines (and "." match newlines).
- head_limit and offset page through long results (lines in content mode, files or entries otherwise). Output is bounded; the result says when it was cut.
- Grep honours .gitignore, .ignore and .rgignore files — also outside a git repository — so ignored files (node_modules, build output, ...) are NOT searched; .git and other version-control directories never are, at any depth (unless path is inside one); hidden files are. To search ignored files, set path to the ignored directory or file itself (e.g. path: "node_modules/some-lib").
- Use Grep (not Bash grep or rg) for searching. Grep results do not count as reading a file: Read a file before you Edit it.
- In Bash commands, \`grep -r\` skips ignored and binary files too (a bundled .gitignore-aware grep, unless the user turned the \`shims\` setting off); \`find\` does not: it lists everything, like GNU find. To search ignored files with grep: \`grep -r --no-ignore-files ...\`; everything, as the system grep does: \`command grep -r ...\`. Inside xargs, timeout, env, find -exec and nested shells the system grep runs and skips nothing.
- Very slow searches stop after a time limit and return partial results, marked as such.
- Credential stores (~/.ssh, ~/.aws, ~/.netrc, tokens, shell histories, ...), system secrets and Wave's state directory need the user's approval: a search inside one is asked (denied in deny-all), and a search of a folder that holds some (the home directory) goes around them and says which were not searched.`;

const inputSchema = z.strictObject({
  pattern: osString("pattern").min(1).describe("Regular expression to search for"),
  path: osString("path").optional().describe("File or directory to search in (default: the working directory)"),
  glob: osString("pattern").optional().describe('Only search files matching this glob, e.g. "*.js" or "*.{ts,tsx}" (several may be separated by spaces)'),
  output_mode: z.enum(["content", "files_with_matches", "count"]).optional().describe('"files_with_matches" (default), "content" or "count"'),
  "-B": z.number().int().min(0).optional().describe("Lines of context before each match (content mode)"),
  "-A": z.number().int().min(0).optional().describe("Lines of context after each match (content mode)"),
  "-C": z.number().int().min(0).optional().describe("Lines of context before and after each match (content mode)"),
  context: z.number().int().min(0).optional().describe("Same as -C"),
  "-n": z.boolean().optional().describe("Show line numbers (content mode; default true)"),
  "-i": z.boolean().optional().describe("Case-insensitive search"),
  type: osString("pattern").optional().describe('File type to search (rg --type), e.g. "js", "py", "go"'),
  head_limit: z.number().int().min(0).optional().describe("Return only the first N lines/entries (0 means no limit)"),
  offset: z.number().int().min(0).optional().describe("Skip the first N lines/entries before applying head_limit"),
  multiline: z.boolean().optional().describe("Let patterns span lines (rg -U --multiline-dotall)"),
});

type GrepInput = z.output<typeof inputSchema>;
type Mode = "content" | "files_with_matches" | "count";

/** Splits "a.ts b.{js,jsx}" (spaces or commas outside braces) into separate globs. */
export function splitGlobs(spec: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of spec) {
    if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    if ((c === "," && depth === 0) || /\s/.test(c)) {
      if (cur) out.push(cur);
      cur = "";
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

/** A path as a literal ripgrep glob (every glob character escaped). */
function literalGlob(p: string): string {
  return p.replace(/[\\*?[\]{}!]/g, (c) => "\\" + c);
}

function ripgrepArgs(input: GrepInput, mode: Mode, target: string, around: readonly string[] = []): string[] {
  const args = ["--no-config", "--color=never", "--hidden", "--no-require-git", `--max-columns=${GREP_MAX_COLUMNS}`, "--max-columns-preview"];
  if (mode === "files_with_matches") args.push("--files-with-matches", "--null");
  else if (mode === "count") args.push("--count", "--with-filename", "--null", "--sort=path");
  else {
    args.push("--line-number", "--with-filename", "--null", "--sort=path");
    const c = input["-C"] ?? input.context;
    if (c !== undefined) args.push(`--context=${c}`);
    else {
      if (input["-B"] !== undefined) args.push(`--before-context=${input["-B"]}`);
      if (input["-A"] !== undefined) args.push(`--after-context=${input["-A"]}`);
    }
  }
  if (input["-i"]) args.push("--ignore-case");
  if (input.multiline) args.push("--multiline", "--multiline-dotall");
  if (input.type) args.push(`--type=${input.type}`);
  for (const g of input.glob ? splitGlobs(input.glob) : []) args.push("--glob", g);
  // After the caller's globs, which rg would otherwise let override them (a later glob wins: `*`
  // re-admits `.git`); `name/` matches directories only, so a worktree's `.git` file is searched.
  for (const d of VCS_DIRECTORIES) args.push("--glob", `!${d}/`);
  // After the caller's globs, so none of them can bring a credential store back in.
  for (const p of around) args.push("--glob", `!**/${literalGlob(p)}`);
  args.push("--regexp", input.pattern, "--", target);
  return args;
}

/** The file or folder a Grep searches: `path`, or the working directory. */
function searchRoot(given: string | undefined, cwd: string): string {
  return given && given !== "undefined" && given !== "null" ? resolveToolPath(given, cwd) : cwd;
}

function stripDotSlash(p: string): string {
  return p.startsWith("./") || p.startsWith(".\\") ? p.slice(2) : p;
}

/** Collects output entries after `offset`, up to `headLimit` and the character cap, counting all. */
class Pager {
  readonly kept: string[] = [];
  /** What the model reads: the kept entries, one a line. */
  chars = 0;
  /** The reply's JSON: the text, and what entries add elsewhere (each file's absolute path in `filenames`). */
  replyBytes = 0;
  seen = 0;
  cutBy: "text" | "reply" | undefined;
  constructor(
    private readonly offset: number,
    private readonly headLimit: number | undefined,
  ) {}

  /** `elsewhere`: what the entry adds to the reply beside the text (a file's absolute path in `filenames`). */
  add(entry: string, elsewhere?: string): void {
    const index = this.seen++;
    if (index < this.offset) return;
    if (this.headLimit !== undefined && this.kept.length >= this.headLimit) return;
    if (this.cutBy) return;
    const chars = this.chars + entry.length + 1;
    const bytes = this.replyBytes + jsonBytes(entry) + 1 + (elsewhere === undefined ? 0 : jsonBytes(elsewhere) + 1);
    if (this.kept.length > 0 && (chars > GREP_MAX_OUTPUT_CHARS || bytes > GREP_MAX_REPLY_BYTES)) {
      this.cutBy = chars > GREP_MAX_OUTPUT_CHARS ? "text" : "reply";
      return;
    }
    this.kept.push(entry);
    this.chars = chars;
    this.replyBytes = bytes;
  }

  get truncated(): boolean {
    return this.offset + this.kept.length < this.seen;
  }
}

interface FileHit {
  path: string;
  abs: string;
  mtimeMs: number;
}

export const grepTool = defineTool({
  name: "Grep",
  startsProcesses: true,
  description: GREP_DESCRIPTION,
  inputSchema,
  annotations: { title: "Search file contents", readOnlyHint: true },
  // A search in a credential store, a system secret or Wave's state is asked; a search of a
  // folder that holds some goes around them (readGuard.ts, decideRead).
  permission: (input, ctx) => ({ tool: "Grep", read: searchRoot(input.path, ctx.session.cwd), readsBelow: true }),
  async run(input, ctx) {
    const cwd = ctx.session.cwd;
    const mode: Mode = input.output_mode ?? "files_with_matches";
    const abs = searchRoot(input.path, cwd);
    try {
      await fsp.stat(abs);
    } catch {
      return errorResult("not_found", describeMissing(abs, cwd).replace("File does not exist", "Path does not exist"), { path: abs });
    }
    const bound = boundReadPath(ctx, abs, "Grep");
    if ("isError" in bound) return bound;
    const { rg, env } = await findRipgrep(trustedRipgrepLookup(ctx));
    if (!rg) return errorResult("dependency_missing", RIPGREP_MISSING);

    const target = displayPath(abs, cwd);
    // The sensitive places inside the folder, as ripgrep prints their paths (it follows the
    // target if it is a link, never a link below it).
    const around = (ctx.permission?.decision.around ?? []).map((p) => ({ real: p, shown: path.join(target, path.relative(bound.real, p)).replace(/^(\.\/)+/, "") }));
    const skipped = (shown: string) => {
      const real = path.join(bound.real, path.relative(path.resolve(cwd, target), path.resolve(cwd, shown)));
      return around.some((a) => isWithin(real, a.real));
    };
    // A hard link to a store's file renamed into the folder after the check is that file (readGuard.ts).
    const laterLinks = new Set<string>();
    const laterLink = secondNameCheck((p) => path.resolve(cwd, p), laterLinks);
    const args = ripgrepArgs(
      input,
      mode,
      target,
      around.map((a) => (path.isAbsolute(a.shown) ? a.shown.slice(path.parse(a.shown).root.length) : a.shown)),
    );
    const timeoutMs = ctx.workspace.setting("fs.searchTimeoutMs");
    const headLimit = input.head_limit === 0 ? undefined : input.head_limit;
    const offset = input.offset ?? 0;
    const pager = new Pager(offset, headLimit);
    let numMatches = 0;
    let numFiles = 0;
    let lastFile: string | undefined;
    const files: FileHit[] = [];
    const keepFiles = offset + (headLimit ?? DEFAULT_FILES_KEPT);
    const sortFiles = () => {
      files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      files.length = Math.min(files.length, keepFiles);
    };

    const splitter = new RecordSplitter(mode === "files_with_matches" ? 0 : 10);
    const onRecord = (record: Buffer) => {
      if (mode === "files_with_matches") {
        const p = stripDotSlash(record.toString("utf8"));
        if ((around.length && skipped(p)) || laterLink(p)) return;
        const fileAbs = path.resolve(cwd, p);
        numFiles++;
        files.push({ path: p, abs: fileAbs, mtimeMs: 0 });
        if (files.length >= keepFiles * 2 + 1000) {
          for (const f of files) f.mtimeMs ||= mtime(f.abs);
          sortFiles();
        }
        return;
      }
      const line = record.toString("utf8");
      const nul = line.indexOf("\0");
      if (nul === -1) {
        if (line === "--" && mode === "content") pager.add("--");
        return;
      }
      const p = stripDotSlash(line.slice(0, nul));
      if ((around.length && skipped(p)) || laterLink(p)) return;
      const rest = line.slice(nul + 1);
      if (p !== lastFile) {
        numFiles++;
        lastFile = p;
      }
      if (mode === "count") {
        const n = Number.parseInt(rest, 10) || 0;
        numMatches += n;
        pager.add(`${p}:${n}`);
        return;
      }
      const m = /^(\d+)([:-])/.exec(rest);
      if (!m) return;
      const isMatch = m[2] === ":";
      if (isMatch) numMatches++;
      let text = rest.slice(m[0].length);
      if (text.endsWith("\r")) text = text.slice(0, -1);
      const withNumbers = input["-n"] ?? true;
      pager.add(withNumbers ? `${p}${m[2]}${m[1]}${m[2]}${text}` : `${p}${m[2]}${text}`);
    };

    const run = await runRipgrep(rg.path, args, {
      cwd,
      env,
      signal: ctx.signal,
      timeoutMs,
      onStdout: (chunk) => void splitter.push(chunk, onRecord),
    });
    if (!run.timedOut && !run.aborted) splitter.flush(onRecord);
    if (run.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("aborted");
    if (run.spawnError) {
      const tooLong = /E2BIG/.test(run.spawnError)
        ? ` The pattern and globs (${args.reduce((n, a) => n + a.length, 0)} characters) are too long for one command line: search for a shorter pattern, or several times.`
        : "";
      return errorResult(tooLong ? "invalid_argument" : spawnFailureKind(run.spawnError), `Could not run ripgrep (${rg.path}): ${run.spawnError}.${tooLong}`);
    }

    let filenames: string[] | undefined;
    if (mode === "files_with_matches") {
      for (const f of files) f.mtimeMs ||= mtime(f.abs);
      sortFiles();
      for (const f of files) pager.add(f.path, f.abs);
      pager.seen = numFiles;
      filenames = pager.kept.map((p) => path.resolve(cwd, p));
      numMatches = numFiles;
    }

    const stderr = run.stderr.trim();
    const failed = run.exitCode === 2 || (run.exitCode !== 0 && run.exitCode !== 1 && !run.timedOut);
    if (failed && pager.seen === 0) {
      // ripgrep's own complaint about the pattern or the type is the caller's to fix; anything else is the search failing.
      const badPattern = describeRegexError(stderr, input.pattern);
      if (badPattern) return errorResult("invalid_argument", badPattern);
      const first = stderr.split("\n").slice(0, 6).join("\n");
      const hint = /unrecognized file type/i.test(stderr) ? " Use a type ripgrep knows (`rg --type-list`), or a glob instead." : "";
      return errorResult(hint ? "invalid_argument" : "io_error", `ripgrep failed: ${first || `exit code ${run.exitCode ?? run.signal}`}.${hint}`);
    }

    // Content-independent: which places were left out, never whether anything in them matched.
    const aroundNote = around.length
      ? `[Not searched: ${around.length === 1 ? "1 credential store or Wave state folder" : `${around.length} credential stores and Wave state folders`} inside ${displayPath(abs, cwd)} (${around
          .slice(0, 4)
          .map((a) => displayPath(a.real, cwd))
          .join(", ")}${around.length > 4 ? ", …" : ""}). The model is asked before it reads them: Grep or Read one by its own path.]`
      : undefined;
    const linkNote = laterLinks.size
      ? `[Left out: ${laterLinks.size} ${laterLinks.size === 1 ? "file that is" : "files that are"} another name (a hard link) of a credential store's file, made after the permission check (${[
          ...laterLinks,
        ]
          .slice(0, 4)
          .map((f) => displayPath(f, cwd))
          .join(", ")}). Grep or Read one by its own path to be asked.]`
      : undefined;
    const leftOut = [aroundNote, linkNote].filter(Boolean).join("\n");
    const meta = {
      mode,
      numFiles,
      numMatches,
      numLines: mode === "files_with_matches" ? numFiles : pager.seen,
      appliedOffset: offset,
      appliedLimit: headLimit ?? null,
      truncated: pager.truncated,
      timedOut: run.timedOut,
      ...(filenames ? { filenames } : {}),
      ...(around.length || laterLinks.size ? { notSearched: [...around.map((a) => a.real), ...laterLinks] } : {}),
    };

    if (pager.seen === 0) {
      const where = abs === cwd ? `the working directory (${cwd})` : displayPath(abs, cwd);
      const text = run.timedOut
        ? `Search timed out after ${Math.round(timeoutMs / 1000)} s before anything matched (partial results: none). Narrow path, glob or type.`
        : `No matches found for ${JSON.stringify(clipText(input.pattern, ECHOED_PATTERN_CHARS))} in ${where}. Files ignored by .gitignore, .ignore or .rgignore (such as node_modules or build output) and version-control directories (.git, ...) were not searched (hidden files were). To search ignored or other directories, set path to that directory or file, e.g. path: "node_modules/<package>".`;
      return textResult(leftOut ? `${text}\n${leftOut}` : text, meta);
    }

    const notes: string[] = [];
    if (run.timedOut) notes.push(`[Search timed out after ${Math.round(timeoutMs / 1000)} s: partial results. Narrow path, glob or type for a complete answer.]`);
    if (pager.truncated) {
      const unit = mode === "content" ? "lines" : mode === "count" ? "entries" : "files";
      notes.push(
        `[Showing ${unit} ${offset + 1}-${offset + pager.kept.length} of ${pager.seen}${pager.cutBy === "text" ? ` (output capped at ${GREP_MAX_OUTPUT_CHARS.toLocaleString("en-US")} characters)` : pager.cutBy === "reply" ? ` (the result, which also gives each path in full, is capped at ${GREP_MAX_REPLY_BYTES / 1024} KB)` : ""}. Use offset=${offset + pager.kept.length} to see more, or narrow the search.]`,
      );
    }
    if (leftOut) notes.push(leftOut);
    if (failed && stderr) notes.push(`[ripgrep reported problems: ${stderr.split("\n").slice(0, 3).join("; ")}]`);
    const header =
      mode === "files_with_matches"
        ? `Found ${numFiles} file${numFiles === 1 ? "" : "s"}${numFiles > 1 ? " (newest first)" : ""}:\n`
        : mode === "count"
          ? `${numMatches} matching line${numMatches === 1 ? "" : "s"} in ${numFiles} file${numFiles === 1 ? "" : "s"}:\n`
          : "";
    const body = header + pager.kept.join("\n");
    return textResult(notes.length > 0 ? `${body}\n\n${notes.join("\n")}` : body, meta);
  },
});

function mtime(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

const REGEX_SYNTAX_HINT = 'Fix the regular expression (Rust syntax: escape a literal ( ) [ ] { } . * + ? | or \\ with a backslash, e.g. "interface\\{\\}").';

/**
 * ripgrep's "regex parse error" told in terms of the pattern the caller gave: rg shows the pattern
 * inside its own `(?:…)` wrapper, with a caret line under it; the wrapper goes, and the caret
 * stays only where it points into the caller's pattern. Undefined for any other failure.
 */
export function describeRegexError(stderr: string, pattern: string): string | undefined {
  const m = /regex parse error:\n([\s\S]*?)\n(?:error: )?([^\n]*)\s*$/.exec(stderr);
  if (!m) return undefined;
  let reason = m[2]!.trim().replace(/\.$/, "");
  const shown = clipText(pattern, ECHOED_PATTERN_CHARS);
  // A pattern that ends in a lone backslash escapes rg's closing wrapper: "unclosed group" would mislead.
  if (/(^|[^\\])(\\\\)*\\$/.test(pattern)) reason = "it ends with a lone backslash (escape a literal backslash as \\\\)";
  let snippet = "";
  const lines = m[1]!.split("\n");
  const wrapped = `(?:${pattern})`;
  if (lines.length === 2 && lines[0]!.trim() === wrapped && pattern.length <= 200) {
    const indent = lines[0]!.indexOf("(?:");
    const carets = lines[1]!;
    const from = carets.indexOf("^") - indent - 3;
    const to = carets.lastIndexOf("^") - indent - 3;
    if (from >= 0 && to < pattern.length) snippet = `\n    ${pattern}\n    ${" ".repeat(from)}${"^".repeat(to - from + 1)}`;
  }
  return `The pattern ${JSON.stringify(shown)} is not a valid regular expression: ${reason}.${snippet}\n${REGEX_SYNTAX_HINT}`;
}
