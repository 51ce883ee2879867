// Relative links in the repository's Markdown, and whether each resolves: the file (or folder) it
// names exists and its `#anchor` is the GitHub slug of one of that file's headings. External links
// are not fetched; code blocks and code spans are not links.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface DocLink {
  file: string;
  line: number;
  target: string;
}

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces as hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link shows its text
    .replace(/<[^>]+>/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The file's lines outside fenced code blocks, code spans blanked (so their brackets are no links). */
function proseLines(markdown: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((raw, i) => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (opener) {
      const mark = opener[1]!.charAt(0);
      if (fence === undefined) fence = mark;
      else if (mark === fence) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    out.push({ text: raw.replace(/(`+)[\s\S]*?\1/g, (m) => " ".repeat(m.length)), line: i + 1 });
  });
  return out;
}

/**
 * Every anchor a file offers: its headings' slugs (repeats get -1, -2, … as on GitHub) and explicit
 * ids. Headings are read with their code spans, which count toward the slug.
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const raw of markdown.split("\n")) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (opener) {
      const mark = opener[1]!.charAt(0);
      if (fence === undefined) fence = mark;
      else if (mark === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    for (const m of raw.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (!h) continue;
    const base = githubSlug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Inline links and images `[text](target)` outside code, relative ones only. */
export function relativeLinks(file: string, markdown: string): DocLink[] {
  const links: DocLink[] = [];
  for (const { text, line } of proseLines(markdown)) {
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
      links.push({ file, line, target });
    }
  }
  return links;
}

/** Why a link does not resolve, or undefined when it does. */
export function brokenReason(link: DocLink, read: (file: string) => string = (f) => readFileSync(f, "utf8")): string | undefined {
  const hash = link.target.indexOf("#");
  const rawPath = hash < 0 ? link.target : link.target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
  const resolved = rawPath === "" ? link.file : path.resolve(path.dirname(link.file), decodeURIComponent(rawPath));
  if (!existsSync(resolved)) return `no such file: ${path.relative(path.dirname(link.file), resolved) || resolved}`;
  if (anchor === undefined || anchor === "") return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) return `an anchor into something that is not a Markdown file: ${rawPath}`;
  if (!anchorsOf(read(resolved)).has(anchor)) return `no heading with the anchor #${anchor} in ${path.basename(resolved)}`;
  return undefined;
}

/** Every broken relative link of the given Markdown files, as `file:line: target (why)` relative to root. */
export function brokenLinks(root: string, files: string[]): string[] {
  const cache = new Map<string, string>();
  const read = (f: string) => {
    let text = cache.get(f);
    if (text === undefined) cache.set(f, (text = readFileSync(f, "utf8")));
    return text;
  };
  const problems: string[] = [];
  for (const file of files) {
    for (const link of relativeLinks(file, read(file))) {
      const why = brokenReason(link, read);
      if (why) problems.push(`${path.relative(root, link.file)}:${link.line}: ${link.target} (${why})`);
    }
  }
  return problems;
}

/** Markdown files under a folder, at any depth. */
export function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(full));
    else if (entry.name.endsWith(".md")) out.push(full);
  }
  return out.sort();
}
