#!/usr/bin/env node
// Fails when a file breaks the repository's .editorconfig: its charset, line endings, final
// newline, trailing whitespace, indent style or indent size. Checks what git tracks plus new files
// git does not ignore; binary files (a NUL in their first 8 KB) are skipped. Run by `npm test`
// (`npm run check:editorconfig`); `--list` prints each file with the settings that apply to it.
//
// Indent size is checked where leading spaces can be told apart from content: Kotlin and Java
// outside raw strings and text blocks ("""), and JSON (no multi-line strings). A line continuing a
// block comment (` * …`, ` */`) may have one space more. In TypeScript and JavaScript Biome's
// formatter enforces the indentation (`npm run format:check`; it knows where a template literal
// carries a shell script). Elsewhere (Markdown lists, YAML block scalars, XML attribute alignment,
// shell here-documents) leading spaces are content, and only the indent style is checked.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The sections of an .editorconfig, in file order, each with a matcher and its properties. */
export function parseEditorConfig(text) {
  const sections = [];
  let current;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(.*)\]$/.exec(line);
    if (header) {
      current = { glob: header[1], match: globMatcher(header[1]), props: {} };
      sections.push(current);
      continue;
    }
    const kv = /^([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (!kv) throw new Error(`.editorconfig line ${i + 1}: not a section or a key = value pair: ${raw}`);
    // Properties before the first section (root = true) apply to no file.
    if (current) current.props[kv[1].toLowerCase()] = kv[2].toLowerCase();
  }
  return sections;
}

/** An EditorConfig glob as a test on a path relative to the .editorconfig's folder (with `/`). */
export function globMatcher(glob) {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        re += ".*";
        i++;
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        const body = glob.slice(i + 1, end);
        re += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (c === "{") re += "(?:";
    else if (c === "}") re += ")";
    else if (c === ",") re += "|";
    else if (c === "\\") re += `\\${glob[++i] ?? "\\"}`;
    else re += c.replace(/[.+^$()|/]/g, "\\$&");
  }
  // A glob without a slash matches the file's name in any folder; with one, from the root.
  const anchored = glob.includes("/");
  const regex = new RegExp(anchored ? `^${re.replace(/^\\\//, "")}$` : `^(?:.*/)?${re}$`);
  return (rel) => regex.test(rel);
}

/** The properties that apply to `rel`: later sections override earlier ones; "unset" removes. */
export function propertiesFor(sections, rel) {
  const props = {};
  for (const s of sections) if (s.match(rel)) Object.assign(props, s.props);
  for (const [k, v] of Object.entries(props)) if (v === "unset") delete props[k];
  return props;
}

/** Lines (0-based) whose leading spaces belong to a raw string or text block, for `"""` languages. */
function tripleQuotedLines(lines) {
  const inside = new Set();
  let open = false;
  for (const [i, line] of lines.entries()) {
    if (open) inside.add(i);
    if ((line.split('"""').length - 1) % 2 === 1) open = !open;
  }
  return inside;
}

/** How to find the lines whose indentation is content, by file name; absent: size is not checked. */
const INDENT_SIZE_CHECKED = [
  [/\.(kt|kts|java)$/, tripleQuotedLines],
  [/\.(json|jsonc)$/, () => new Set()],
];

/** What is wrong with `bytes` (the file `rel`) under `props`: one message per broken rule, at its first line. */
export function problems(bytes, props, rel) {
  const out = [];
  const charset = props.charset;
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    if (charset === "utf-8" || charset === "utf-8-bom") out.push(`not valid UTF-8 (charset = ${charset})`);
    return out;
  }
  if (charset === "utf-8" && hasBom) out.push("starts with a byte order mark (charset = utf-8)");
  if (charset === "utf-8-bom" && !hasBom) out.push("has no byte order mark (charset = utf-8-bom)");
  if (hasBom) text = text.slice(1);

  const eol = props.end_of_line;
  const lines = text.split("\n");
  const firstLine = (test) => {
    const i = lines.findIndex(test);
    return i < 0 ? undefined : i + 1;
  };
  if (eol === "lf") {
    const at = firstLine((l) => l.includes("\r"));
    if (at) out.push(`line ${at}: a carriage return (end_of_line = lf)`);
  } else if (eol === "crlf") {
    const at = firstLine((l, i) => i < lines.length - 1 && !l.endsWith("\r"));
    if (at) out.push(`line ${at}: a line feed without a carriage return (end_of_line = crlf)`);
  }
  if (props.insert_final_newline === "true" && text.length > 0 && !text.endsWith("\n")) out.push("no newline at the end (insert_final_newline = true)");
  if (props.insert_final_newline === "false" && text.endsWith("\n")) out.push("a newline at the end (insert_final_newline = false)");
  const bare = lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (props.trim_trailing_whitespace === "true") {
    const at = bare.findIndex((l) => /[ \t]$/.test(l));
    if (at >= 0) out.push(`line ${at + 1}: trailing whitespace (trim_trailing_whitespace = true)`);
  }
  const style = props.indent_style;
  const size = props.indent_size === "tab" ? undefined : Number(props.indent_size);
  if (style === "space") {
    const at = bare.findIndex((l) => /^ *\t/.test(l));
    if (at >= 0) out.push(`line ${at + 1}: a tab in the indentation (indent_style = space)`);
  } else if (style === "tab") {
    const at = bare.findIndex((l) => /^\t* {2,}\S/.test(l) && !/^\t* \*/.test(l));
    if (at >= 0) out.push(`line ${at + 1}: spaces in the indentation (indent_style = tab)`);
  }
  const contentLines = INDENT_SIZE_CHECKED.find(([name]) => name.test(rel))?.[1];
  if (contentLines && style === "space" && size && Number.isInteger(size) && size > 0) {
    const skip = contentLines(bare);
    const at = bare.findIndex((l, i) => {
      if (skip.has(i)) return false;
      const spaces = /^ */.exec(l)[0].length;
      if (spaces === l.length || spaces % size === 0) return false;
      return !(spaces % size === 1 && l[spaces] === "*");
    });
    if (at >= 0) out.push(`line ${at + 1}: indented by ${/^ */.exec(bare[at])[0].length} spaces, not a multiple of ${size} (indent_size = ${size})`);
  }
  return out;
}

/** Files to check: tracked, plus untracked ones git does not ignore; present and not binary. */
function filesToCheck() {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return [...new Set(listed.split("\0").filter(Boolean))].filter((rel) => {
    const abs = path.join(root, rel);
    return existsSync(abs) && statSync(abs).isFile();
  });
}

function main() {
  const sections = parseEditorConfig(readFileSync(path.join(root, ".editorconfig"), "utf8"));
  const list = process.argv.includes("--list");
  let checked = 0;
  const failures = [];
  for (const rel of filesToCheck()) {
    const bytes = readFileSync(path.join(root, rel));
    if (bytes.subarray(0, 8192).includes(0)) continue;
    const props = propertiesFor(sections, rel);
    if (list) console.log(`${rel}: ${JSON.stringify(props)}`);
    checked++;
    for (const p of problems(bytes, props, rel)) failures.push(`${rel}: ${p}`);
  }
  if (failures.length > 0) {
    console.error(failures.join("\n"));
    console.error(`\n.editorconfig: ${failures.length} problem(s) in ${new Set(failures.map((f) => f.slice(0, f.indexOf(": ")))).size} of ${checked} files.`);
    process.exitCode = 1;
  } else console.log(`.editorconfig: ${checked} files follow it.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
