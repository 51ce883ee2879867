// Words and redirections as the gate sees them: a word's static value when it has one, what it
// expands from when it has not, where a path word points, and which redirections write a file or
// open a network connection.
import path from "node:path";
import type * as U from "unbash";
import { analyzeWord } from "./expansions.js";

export interface ShellWord {
  /** As written, quotes included. */
  readonly text: string;
  /** After quote removal, when the word has no expansion (other than $HOME) and no glob. */
  readonly value?: string;
  /** For a glob word without expansions: the literal text before the first glob character. */
  readonly globPrefix?: string;
  /** For a word with an expansion: the first expansion as written (`$DIR`, `$(pwd)`). */
  readonly expansion?: string;
  /** Only literals, quotes, plain `$NAME` expansions and simple globs (no substitution, no operator). */
  readonly plain?: boolean;
  /** Expands to exactly one word (it is quoted), so it cannot turn into several arguments. */
  readonly oneWord?: boolean;
  /** A placeholder for paths somewhere below this word's path (`find DIR -exec … {}`). */
  readonly within?: ShellWord;
}

export interface ShellRedirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `<`, `<&`, `>&`, `<<`, `<<-`, `<<<`. */
  readonly operator: string;
  readonly fd?: number;
  readonly target?: ShellWord;
  /** Heredoc or herestring text, when it is static (a shell reading it runs it as a script). */
  readonly inputText?: string;
}

/** The word's static meaning: quotes removed, `$HOME`/`${HOME}` substituted; or why it has none. */
export function wordInfo(word: U.Word, home: string): ShellWord {
  if (!word.parts) return { text: word.text, value: word.value };
  let value = "";
  let globPrefix: string | undefined;
  let expansion: string | undefined;
  let quotedExpansion = true;
  const literal = (p: U.WordPart | U.DoubleQuotedChild, quoted: boolean): void => {
    if (expansion !== undefined) {
      if (!quoted && p.type !== "Literal" && p.type !== "SingleQuoted" && p.type !== "AnsiCQuoted" && p.type !== "DoubleQuoted") quotedExpansion = false;
      return;
    }
    switch (p.type) {
      case "Literal":
        // zsh expands `$~x`, `$=x`, `$^x` that bash leaves as text.
        if (/(^|[^\\])\$[~=^+]/.test(p.text)) {
          expansion = p.text;
          if (!quoted) quotedExpansion = false;
          return;
        }
        value += p.value;
        return;
      case "SingleQuoted":
      case "AnsiCQuoted":
        value += p.value;
        return;
      case "DoubleQuoted":
      case "LocaleString":
        for (const c of p.parts) literal(c, true);
        return;
      case "SimpleExpansion":
      case "ParameterExpansion": {
        const plainHome = p.type === "SimpleExpansion" ? p.text === "$HOME" : p.parameter === "HOME" && !p.operation && !p.prefix && !p.index;
        if (plainHome) value += home;
        else {
          expansion = p.text;
          if (!quoted) quotedExpansion = false;
        }
        return;
      }
      case "Glob":
      case "ExtendedGlob":
        if (!quoted && globPrefix === undefined) globPrefix = value;
        value += p.text;
        return;
      default:
        expansion = p.text;
        if (!quoted) quotedExpansion = false;
    }
  };
  for (const p of word.parts) literal(p, false);
  if (expansion !== undefined) {
    const a = analyzeWord(word);
    return { text: word.text, expansion, ...(a.plain ? { plain: true } : {}), ...(quotedExpansion ? { oneWord: true } : {}) };
  }
  if (globPrefix !== undefined) return { text: word.text, globPrefix, ...(analyzeWord(word).plain ? { plain: true } : {}) };
  return { text: word.text, value };
}

/** An assignment as a word: `NAME=value` when the value is static. */
export function assignmentWord(a: U.Assignment, home: string): ShellWord {
  if (a.value.type === "ArrayValue") {
    const dynamic = a.value.elements.map((e) => wordInfo(e, home)).find((w) => w.value === undefined);
    return dynamic ? { text: a.text, expansion: dynamic.expansion ?? dynamic.text } : { text: a.text, value: a.text };
  }
  const v = wordInfo(a.value, home);
  if (v.value === undefined) return { text: a.text, expansion: v.expansion ?? v.text, ...(v.plain ? { plain: true } : {}) };
  return { text: a.text, value: `${a.name}${a.index ? `[${a.index.text}]` : ""}${a.append ? "+=" : "="}${v.value}` };
}

/** The last path segment of a command name: `/usr/bin/rm` → `rm`. */
export function baseName(name: string): string {
  const slash = name.lastIndexOf("/");
  return slash >= 0 ? name.slice(slash + 1) : name;
}

/** An output redirection that writes a file (not a descriptor copy, not /dev/null or the terminal). */
export function writesFile(r: ShellRedirect): boolean {
  if (!["&>", "&>>", ">", ">>", ">|", "<>"].includes(r.operator)) {
    // `>&word` writes a file when the word is not a descriptor number or `-`.
    if (r.operator !== ">&") return false;
    const t = r.target?.value;
    if (t !== undefined && /^(\d+|-)$/.test(t)) return false;
  }
  const target = r.target?.value;
  if (target === undefined) return true;
  return !HARMLESS_DEVICES.test(normalizedPath(target));
}

/** `/tmp/../dev/null` → `/dev/null`; relative paths stay relative. */
export function normalizedPath(p: string): string {
  return p.startsWith("/") ? path.posix.normalize(p) : p;
}

/**
 * Devices that are safe to write: they store nothing and reach no disk. Not `/dev/shm`,
 * `/dev/mqueue` or other writable places: files there are ordinary files outside the workspace.
 */
export const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|stdout|stderr|stdin|tty|random|urandom|fd\/\d+|pts\/\d+)$/;

/** bash's network pseudo-files: a redirection to one opens a TCP or UDP connection. */
export function networkPath(p: string): boolean {
  return /^\/dev\/(tcp|udp)\//.test(p) || /^\/dev\/(tcp|udp)\//.test(normalizedPath(p));
}

/** Where a word points on disk. `path` is absolute and normalised; `unknown` says why it cannot be known. */
export function resolveWordPath(word: ShellWord, cwd: string | undefined, home: string): { path?: string; glob?: boolean; unknown?: string } {
  let text: string | undefined = word.value;
  let glob = false;
  if (text === undefined && word.globPrefix !== undefined) {
    // `build/*` stands for the contents of `build/`; `*` for the contents of the current directory.
    text = word.globPrefix.includes("/") ? word.globPrefix.slice(0, word.globPrefix.lastIndexOf("/") + 1) || "/" : ".";
    glob = true;
  }
  if (text === undefined) return { unknown: `it depends on ${word.expansion ?? word.text}, known only when the command runs` };
  if (text === "~" || text.startsWith("~/")) text = home + text.slice(1);
  else if (text.startsWith("~")) return { unknown: `${word.text} is another user's home directory` };
  if (!path.isAbsolute(text)) {
    if (cwd === undefined) return { unknown: `${word.text} is relative to a directory that is only known when the command runs` };
    text = path.resolve(cwd, text);
  }
  return { path: path.resolve(text), glob };
}
