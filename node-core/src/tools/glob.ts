// Glob: files whose path matches a pattern like `src/**/*.ts`, newest first (FS-SEARCH-2).
// Gitignored files are included; nothing inside a VCS directory is, unless `path` is in one.
import { promises as fsp } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineTool, osString, errorResult, textResult } from "../core/tool.js";
import { compileGlob, globBase, globWithNode, globWithRipgrep, ripgrepSortsGlobally, type GlobOutcome } from "../fs/glob.js";
import { boundReadPath } from "./readGuard.js";
import { describeMissing, displayPath, resolveToolPath } from "../fs/paths.js";
import { trustedRipgrepLookup } from "./sandbox.js";
import { findRipgrep } from "../fs/ripgrep.js";
import { clipText } from "../util/text.js";
import { VCS_DIRECTORY_LIST, insideVcsDirectory } from "../util/vcs.js";

const GLOB_DEFAULT_LIMIT = 100;
/** The list the model reads (the text: paths as shown, one a line) stops at this many characters. */
const GLOB_MAX_OUTPUT_CHARS = 30_000;
/**
 * The whole reply — the text and `filenames`, the same files as absolute paths — stays under
 * 200 KB serialised. Reached before the text's cap only when many short names sit under a long
 * working directory (a text of 30,000 characters of 20-character names under a 45-character one
 * needs about 130 KB).
 */
const GLOB_MAX_REPLY_BYTES = 192 * 1024;
/** How much of the pattern a result repeats. */
const ECHOED_PATTERN_CHARS = 500;

const description = `Finds files by name with a glob pattern, e.g. "**/*.ts" or "src/**/*.{ts,tsx}". Returns matching file paths, most recently modified first.

Usage:
- The pattern is matched against paths relative to \`path\` (default: the working directory). "*.ts" matches only files directly in that directory; "**/*.ts" matches at any depth.
- Files ignored by .gitignore (node_modules, build output, ...) and hidden files are included. Files inside version-control directories (${VCS_DIRECTORY_LIST}) never are, at any depth (a nested repository's .git too), whatever the pattern — unless path itself is such a directory or inside one (path: "vendor/lib/.git" lists that one).
- At most \`limit\` paths are returned (default ${GLOB_DEFAULT_LIMIT}), and no more than ${GLOB_MAX_OUTPUT_CHARS.toLocaleString("en-US")} characters of them; the result says how many more there were — then narrow the pattern or path.
- Names with brackets or parentheses (Next.js routes such as "app/[id]/page.tsx" or "(group)") also match literally.
- Listing inside a credential store (~/.ssh, ~/.aws, ...) or Wave's state directory needs the user's approval (asked; denied in deny-all); a listing of a folder that holds some goes around them and says so.
- To search file contents use Grep. For open-ended searches that may take several rounds, combine Glob and Grep.`;

const inputSchema = z.strictObject({
  pattern: osString("pattern").min(1).describe('The glob pattern, e.g. "**/*.js" or "src/**/*.test.ts"'),
  path: osString("path").optional().describe('Directory to search in (default: the working directory). Omit it rather than passing null or "undefined"'),
  limit: z.number().int().min(1).max(10_000).optional().describe(`Maximum number of paths to return (default ${GLOB_DEFAULT_LIMIT})`),
});

export const globTool = defineTool({
  name: "Glob",
  startsProcesses: true,
  description,
  inputSchema,
  annotations: { title: "Find files", readOnlyHint: true },
  // Listing inside a credential store or Wave's state is asked; a listing of a folder that holds
  // some goes around them (readGuard.ts, decideRead). Judged where the walk starts.
  permission: (input, ctx) => ({ tool: "Glob", read: globBase(input.pattern, globRoot(input.path, ctx.session.cwd)).base, readsBelow: true }),
  async run(input, ctx) {
    const started = Date.now();
    const cwd = ctx.session.cwd;
    const root = globRoot(input.path, cwd);
    try {
      const st = await fsp.stat(root);
      if (!st.isDirectory()) return errorResult("not_a_directory", `path ${root} is a file, not a directory. Give the directory to search in (the pattern matches names below it).`, { path: root });
    } catch {
      return errorResult("not_found", describeMissing(root, cwd).replace("File does not exist", "Directory does not exist"), { path: root });
    }
    const limit = input.limit ?? GLOB_DEFAULT_LIMIT;
    const timeoutMs = ctx.workspace.setting("fs.searchTimeoutMs");
    const shownPattern = clipText(input.pattern, ECHOED_PATTERN_CHARS);
    let compiled: ReturnType<typeof compileGlob>;
    try {
      compiled = compileGlob(input.pattern, root);
    } catch (err) {
      return errorResult("invalid_argument", `The pattern ${shownPattern} cannot be used: ${clipText((err as Error).message, 500)}. Give a shorter or simpler glob pattern.`, { path: root });
    }
    try {
      const st = await fsp.stat(compiled.base);
      if (!st.isDirectory()) throw new Error("not a directory");
    } catch {
      return textResult(`No files match ${shownPattern}: ${compiled.base} does not exist or is not a directory.`, {
        filenames: [],
        numFiles: 0,
        totalMatches: 0,
        truncated: false,
        timedOut: false,
        durationMs: Date.now() - started,
      });
    }
    if (insideVcsDirectory(path.join(compiled.base, "_"), root)) {
      return textResult(
        `No files listed for ${shownPattern}: it leads into ${compiled.base}, and Glob never lists files inside version-control directories (${VCS_DIRECTORY_LIST}) below path. To list one, give that directory as path (path: ${JSON.stringify(displayPath(vcsDirectoryOf(compiled.base, root), cwd))}).`,
        { filenames: [], numFiles: 0, totalMatches: 0, truncated: false, timedOut: false, durationMs: Date.now() - started },
      );
    }
    const bound = boundReadPath(ctx, compiled.base, "Glob");
    if ("isError" in bound) return bound;
    const around = ctx.permission?.decision.around ?? [];
    const request = { pattern: input.pattern, root, limit, timeoutMs, signal: ctx.signal, ...(around.length ? { around } : {}) };
    const { rg, env } = await findRipgrep(trustedRipgrepLookup(ctx));
    let outcome: GlobOutcome | undefined;
    // rg lists in parallel and sorts in C, but only ripgrep 14+ sorts across directories; with
    // an older one (or none) the Node walker is the faster choice.
    if (rg && (await ripgrepSortsGlobally(rg, env))) {
      try {
        outcome = await globWithRipgrep(request, compiled, rg, env);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        ctx.log.warn("ripgrep failed; listing with the Node walker", { error: err });
      }
    }
    outcome ??= await globWithNode(request, compiled);
    ctx.log.debug("glob listed", { engine: outcome.engine, ripgrep: rg?.path, total: outcome.total, ms: Date.now() - started });
    const files: string[] = [];
    const lines: string[] = [];
    let chars = 0;
    let replyBytes = 0;
    let cutBy: "text" | "reply" | undefined;
    for (const m of outcome.matches) {
      const shown = displayPath(m.path, cwd);
      // The cap counts what the model reads: the line and its newline.
      const nextChars = chars + shown.length + 1;
      const nextBytes = replyBytes + Buffer.byteLength(JSON.stringify(shown)) + Buffer.byteLength(JSON.stringify(m.path)) + 1;
      if (files.length > 0 && (nextChars > GLOB_MAX_OUTPUT_CHARS || nextBytes > GLOB_MAX_REPLY_BYTES)) {
        cutBy = nextChars > GLOB_MAX_OUTPUT_CHARS ? "text" : "reply";
        break;
      }
      chars = nextChars;
      replyBytes = nextBytes;
      files.push(m.path);
      lines.push(shown);
    }
    const truncated = outcome.total > files.length;
    const notes: string[] = [];
    if (around.length) {
      notes.push(
        `[Not listed: ${around.length === 1 ? "1 credential store or Wave state folder" : `${around.length} credential stores and Wave state folders`} inside ${displayPath(compiled.base, cwd)} (${around
          .slice(0, 4)
          .map((a) => displayPath(a, cwd))
          .join(", ")}${around.length > 4 ? ", …" : ""}). The model is asked before it looks into them: Glob or Read one by its own path.]`,
      );
    }
    if (outcome.timedOut) {
      notes.push(`[Search timed out after ${Math.round(timeoutMs / 1000)} s: partial results. Narrow the pattern or give a smaller path.]`);
    }
    if (truncated) {
      const left = outcome.total - files.length;
      const shownOf = `Showing the ${count(files.length)} most recently modified of ${count(outcome.total)} matching files; ${count(left)} more ${left === 1 ? "is" : "are"} not listed`;
      notes.push(
        cutBy === "text"
          ? `[${shownOf} (the list is capped at ${GLOB_MAX_OUTPUT_CHARS.toLocaleString("en-US")} characters). Narrow the pattern or path.]`
          : cutBy === "reply"
            ? `[${shownOf} (the result, which also gives each path in full, is capped at ${GLOB_MAX_REPLY_BYTES / 1024} KB). Narrow the pattern or path.]`
            : `[${shownOf} (limit ${count(limit)}). Narrow the pattern or path, or raise limit.]`,
      );
    }
    const text =
      files.length === 0
        ? outcome.timedOut
          ? `Search timed out after ${Math.round(timeoutMs / 1000)} s before any file matching ${shownPattern} was found (partial results: none). Narrow the pattern or give a smaller path.`
          : [`No files match ${shownPattern} in ${root}.${vcsHint(input.pattern, root)}`, ...notes].join("\n\n")
        : [lines.join("\n"), ...notes].join("\n\n");
    return textResult(text, {
      filenames: files,
      numFiles: files.length,
      totalMatches: outcome.total,
      truncated,
      timedOut: outcome.timedOut,
      durationMs: Date.now() - started,
      ...(around.length ? { notListed: around } : {}),
    });
  },
});

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** The outermost VCS directory on the way from `root` to `dir` that does not hold `root`. */
function vcsDirectoryOf(dir: string, root: string): string {
  let d = dir;
  let found = dir;
  for (let parent = path.dirname(d); d !== parent; d = parent, parent = path.dirname(d)) {
    if (insideVcsDirectory(path.join(d, "_"), root) && !insideVcsDirectory(d, root)) found = d;
  }
  return found;
}

/** Said when nothing matched a pattern that names a VCS directory, which Glob skips. */
function vcsHint(pattern: string, root: string): string {
  const named = pattern.split(/[\\/]/).some((s) => insideVcsDirectory(path.join(root, s, "_"), root));
  return named ? ` Files inside version-control directories (${VCS_DIRECTORY_LIST}) are never listed below path; to list one, give it as path.` : "";
}

/** The folder a Glob searches: `path`, or the working directory. */
function globRoot(given: string | undefined, cwd: string): string {
  return given && given !== "undefined" && given !== "null" ? resolveToolPath(given, cwd) : cwd;
}
