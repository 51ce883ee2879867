// Two lists about reading commands:
//  - write flags: the options that make a reading command write a file or run a program
//    (`git log --output=F`, `sort -o F`, `find -fprint F`, `sed -i`, `rg --pre CMD`). A prefix
//    rule such as `git log:*` does not cover them: only an exact rule names such a call.
//  - the read-only allow-list: commands that, with plain literal words, only read, so they run
//    without a question where no sandbox is available (ask mode; docs/user/permissions.md).
import path from "node:path";
import { isWithin } from "../util/paths.js";
import { HARMLESS_DEVICES, baseName, networkPath, normalizedPath, unwrap, writesFile, type CommandPart, type ShellWord } from "./commandParts.js";
import { holdsWaveState, secretForReadOnly, sensitiveInside, waveStatePath } from "./sensitive.js";
import { realPath } from "./paths.js";
import { commonDirOf, discoverRepository } from "../shell/sandbox/git.js";
import { untrustedGitDir } from "../shell/sandbox/guard.js";

/** `git [global options] SUBCOMMAND args…` → the global options, the subcommand and its arguments. */
export function gitCommand(inner: readonly ShellWord[]): { globals: ShellWord[]; sub?: string; args: readonly ShellWord[] } {
  const valued = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--super-prefix", "--config-env", "--list-cmds"]);
  let i = 1;
  const globals: ShellWord[] = [];
  while (i < inner.length) {
    const v = inner[i]!.value;
    if (v === undefined || !v.startsWith("-")) break;
    const n = valued.has(v) ? 2 : 1;
    globals.push(...inner.slice(i, i + n));
    i += n;
  }
  return { globals, sub: inner[i]?.value, args: inner.slice(i + 1) };
}

const has = (args: readonly ShellWord[], test: (v: string) => boolean) => args.some((w) => w.value !== undefined && test(w.value));
const shortFlag = (v: string, letter: string) => /^-[A-Za-z0-9]+$/.test(v) && !v.startsWith("--") && v.slice(1).includes(letter);
const operandsOf = (args: readonly ShellWord[]) => args.filter((w) => w.value === undefined || !w.value.startsWith("-") || w.value === "-");
/**
 * `--name` or `--name=…`, also abbreviated: GNU tools accept any unambiguous prefix of a long
 * option (`sort --out=F` is `--output=F`), so any prefix of three characters or more counts.
 */
const longOption = (v: string, ...names: string[]) => {
  if (!v.startsWith("--") || v.length < 3) return false;
  const given = v.slice(2).split("=")[0]!;
  return names.some((n) => n.startsWith(given));
};

/** Git options that write files or run programs, whatever the subcommand. */
const GIT_GLOBAL_WRITES = /^(-c|--config-env|-C|--git-dir|--work-tree|--exec-path)(=|$)/;
const GIT_WRITES = /^(--output|--ext-diff|--open-files-in-pager|--upload-pack|--receive-pack|--exec|--template|--extcmd|--textconv|--output-directory)(=|$)/;

/** Write and run flags per reading command: the reasons a prefix rule does not cover this call. */
const WRITE_FLAGS: Record<string, (args: readonly ShellWord[], inner: readonly ShellWord[]) => string[]> = {
  git: (_args, inner) => {
    const { globals, sub, args } = gitCommand(inner);
    const out: string[] = [];
    if (has(globals, (v) => GIT_GLOBAL_WRITES.test(v))) out.push("git -c/-C/--git-dir/--work-tree/--exec-path choose the configuration and repository, which can run programs");
    if (has(args, (v) => GIT_WRITES.test(v))) out.push("--output, --ext-diff, --open-files-in-pager, --upload-pack, --exec and --template write files or run programs");
    if (sub === "grep" && has(args, (v) => v.startsWith("-O"))) out.push("git grep -O runs a program on the matching files");
    if ((sub === "format-patch" || sub === "archive") && has(args, (v) => v === "-o" || v.startsWith("-o"))) out.push(`git ${sub} -o writes files`);
    if ((sub === "rebase" || sub === "difftool") && has(args, (v) => v === "-x" || v.startsWith("-x"))) out.push(`git ${sub} -x runs a program`);
    if (sub === "config" && !has(args, (v) => /^(--get|--get-all|--get-regexp|--list|-l|--show-origin|--show-scope|--name-only)$/.test(v)))
      out.push("git config changes the configuration, which can run programs");
    if (sub === "submodule" && has(args, (v) => v === "foreach")) out.push("git submodule foreach runs a command");
    if (sub === "bisect" && has(args, (v) => v === "run")) out.push("git bisect run runs a command");
    if (sub === "filter-branch") out.push("git filter-branch runs commands");
    return out;
  },
  sort: (args) => (has(args, (v) => shortFlag(v, "o") || longOption(v, "output", "compress-program")) ? ["sort -o/--output writes a file and --compress-program runs a program"] : []),
  find: (args) => {
    const out: string[] = [];
    if (has(args, (v) => /^-(exec|execdir|ok|okdir)$/.test(v))) out.push("find -exec/-execdir/-ok runs a command for each file");
    if (has(args, (v) => v === "-delete")) out.push("find -delete deletes files");
    if (has(args, (v) => /^-(fprint|fprint0|fprintf|fls)$/.test(v))) out.push("find -fprint/-fprint0/-fprintf/-fls writes a file");
    return out;
  },
  fd: (args) => (has(args, (v) => /^(-x|-X|--exec|--exec-batch)(=|$)/.test(v)) ? ["fd -x/-X runs a command for each file"] : []),
  rg: (args) => (has(args, (v) => /^--pre(=|$)/.test(v)) ? ["rg --pre runs a program on every file searched"] : []),
  tee: (args) => (operandsOf(args).some((w) => w.value === undefined || !HARMLESS_DEVICES.test(normalizedPath(w.value))) ? ["tee writes the files it names"] : []),
  sed: (args) => sedWrites(args),
  // perl runs code anyway; -i also edits files in place.
  perl: (args) => (has(args, (v) => /^-[a-zA-Z]*i/.test(v)) ? ["perl -i edits files in place"] : []),
  uniq: (args) => (operandsOf(args).length > 1 ? ["uniq writes its second operand"] : []),
  xxd: (args) => (operandsOf(args).length > 1 ? ["xxd writes its second operand"] : []),
  tree: (args) => (has(args, (v) => v === "-o" || v.startsWith("-o")) ? ["tree -o writes a file"] : []),
  less: (args) => (has(args, (v) => /^-[oO]|^--(log-file|LOG-FILE)/.test(v)) ? ["less -o writes a log file"] : []),
  file: (args) => (has(args, (v) => v === "-C" || v === "--compile") ? ["file -C writes a compiled magic file"] : []),
  date: (args) => (has(args, (v) => shortFlag(v, "s") || /^--set(=|$)/.test(v)) ? ["date -s sets the clock"] : []),
  curl: (args) =>
    has(
      args,
      (v) => /^-[a-zA-Z]*[oODcK]/.test(v) || /^--(output|remote-name|remote-name-all|dump-header|cookie-jar|trace|trace-ascii|libcurl|output-dir|config|etag-save|hsts|alt-svc|stderr)(=|$)/.test(v),
    )
      ? ["curl -o/-O/-D/-c/--trace/--config writes files or reads its options from one"]
      : [],
  wget: (args) =>
    has(args, (v) => v === "--spider") ||
    args.some((w, i) => (w.value === "-O" || w.value === "--output-document") && /^(-|\/dev\/null)$/.test(args[i + 1]?.value ?? "")) ||
    has(args, (v) => /^(-O-|--output-document=-)$/.test(v))
      ? []
      : ["wget saves what it downloads"],
  unzip: (args) => (has(args, (v) => /^-[a-zA-Z]*[ltvpZz]/.test(v)) ? [] : ["unzip writes the files it extracts"]),
  gzip: (args) => compressorWrites(args),
  gunzip: (args) => compressorWrites(args),
  bzip2: (args) => compressorWrites(args),
  bunzip2: (args) => compressorWrites(args),
  xz: (args) => compressorWrites(args),
  unxz: (args) => compressorWrites(args),
  zstd: (args) => compressorWrites(args),
  yq: (args) => (has(args, (v) => /^-[a-zA-Z]*i/.test(v) || longOption(v, "inplace")) ? ["yq -i edits files in place"] : []),
  awk: (args) => awkWrites(args),
  gawk: (args) => awkWrites(args),
  mawk: (args) => awkWrites(args),
  nawk: (args) => awkWrites(args),
  tar: (args) => {
    const first = args[0]?.value ?? "";
    const listing = /^-?[a-zA-Z]*t/.test(first) && !/[xcruA]/.test(first.replace(/^-/, ""));
    if (has(args, (v) => /^--(to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rsh-command)(=|$)|^-I|^-F/.test(v)))
      return ["tar --to-command/-I/--checkpoint-action run programs"];
    return listing ? [] : ["tar extracts or creates files"];
  },
};

/** sed: -i edits in place; `w FILE`, `s///w FILE` write; `e` and `s///e` run commands. */
function sedWrites(args: readonly ShellWord[]): string[] {
  const out: string[] = [];
  if (has(args, (v) => /^-[a-zA-Z]*i/.test(v) || longOption(v, "in-place"))) out.push("sed -i edits files in place");
  const scripts: string[] = [];
  let sawScript = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) continue;
    if (v === "-e" || (longOption(v, "expression") && !v.includes("="))) {
      scripts.push(args[i + 1]?.value ?? "");
      sawScript = true;
      i++;
    } else if (/^-[a-zA-Z]*f/.test(v) || longOption(v, "file")) {
      out.push("sed -f reads a script from a file that may write or run commands");
      sawScript = true;
      if (!v.includes("=")) i++;
    } else if (longOption(v, "expression")) {
      scripts.push(v.slice(v.indexOf("=") + 1));
      sawScript = true;
    } else if (/^-[a-zA-Z]*e$/.test(v)) {
      scripts.push(args[i + 1]?.value ?? "");
      sawScript = true;
      i++;
    } else if (!v.startsWith("-") && !sawScript) {
      scripts.push(v);
      sawScript = true;
    }
  }
  for (const s of scripts) {
    // Commands after an address; `s` flags after the third delimiter.
    for (const cmd of s.split(/[;\n{}]/)) {
      const body = cmd.trim().replace(/^(\d+|\$|\/(?:\\.|[^/])*\/|\\(.)(?:\\.|(?!\2).)*\2)(\s*,\s*(\d+|\$|\/(?:\\.|[^/])*\/))?\s*!?\s*/, "");
      if (/^[wWe]/.test(body)) out.push(`sed's ${body[0]} command ${body[0] === "e" ? "runs a command" : "writes a file"}`);
      const sub = /^s(.)/.exec(body);
      if (sub) {
        const d = sub[1]!;
        const parts = body.slice(2).split(new RegExp(`(?<!\\\\)${d.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
        const flags = parts[2] ?? "";
        if (/[we]/.test(flags)) out.push(`sed's s///${flags.includes("e") ? "e runs the result as a command" : "w writes a file"}`);
      }
    }
  }
  return out;
}

/** gzip and friends replace the file they compress unless they write to stdout or only test or list. */
function compressorWrites(args: readonly ShellWord[]): string[] {
  if (has(args, (v) => /^-[a-zA-Z0-9]*[ctl]/.test(v) || longOption(v, "stdout", "to-stdout", "test", "list"))) return [];
  return operandsOf(args).length ? ["it replaces the files it (de)compresses"] : [];
}

function awkWrites(args: readonly ShellWord[]): string[] {
  if (has(args, (v) => /^-[a-zA-Z]*i/.test(v) || v === "-f" || v.startsWith("--file"))) return ["awk -i inplace / -f can write files or run commands"];
  const program = args.find((w) => w.value !== undefined && !w.value.startsWith("-"))?.value ?? "";
  return /system|\||>|getline/.test(program) ? ["the awk program writes files or runs commands (>, |, system)"] : [];
}

/**
 * Why a prefix rule does not cover this call: write and run flags, and (for commands that have
 * them) words known only at run time, which may turn out to be such a flag.
 */
export function writeFlags(part: CommandPart): string[] {
  const inner = unwrap(part.words).inner;
  const name = inner[0]?.value;
  if (name === undefined) return [];
  const base = baseName(name);
  const check = WRITE_FLAGS[base === "fdfind" ? "fd" : base];
  if (!check) return [];
  const args = inner.slice(1);
  const out = check(args, inner);
  const dynamic = args.filter((w) => w.value === undefined && !w.within && !(w.oneWord && w.expansion?.endsWith("(each file found)")));
  if (dynamic.length) out.push(`${dynamic.map((w) => w.text).join(" ")} ${dynamic.length === 1 ? "is" : "are"} known only when it runs and may be a write flag`);
  return out;
}

// ---------------------------------------------------------------------------------------------

/**
 * Why the repository git would use in `cwd` is not the user's to trust, or undefined when it is.
 * Git's configuration runs programs on reads (`core.fsmonitor` on `git status`, `core.pager`,
 * `diff.*.textconv`, `core.worktree` turning a bare repository into a work tree), so `git status`
 * is a quick read only in a repository whose configuration the user stands behind: the one the
 * allowed directory holding `cwd` belongs to (its submodules and worktrees live in its git
 * directory), or one whose configuration holds only what `git init` and `git clone` write and no
 * hook (the allow-list the sandbox sets new repositories aside by, guard.ts untrustedGitDir). A
 * nested clone (`vendor/x/.git`), a bare repository anywhere (`fixtures/x.git`), a `.git` file
 * leading elsewhere: judged by their own configuration. No repository at all: git finds none and
 * runs nothing.
 */
export function untrustedRepository(cwd: string | undefined, allowedDirectories: readonly string[]): string | undefined {
  if (cwd === undefined) return "the folder git runs in is known only at run time";
  const real = realPath(cwd);
  const repo = discoverRepository(real);
  if (!repo) return undefined;
  const root = allowedDirectories.filter((d) => isWithin(real, d)).sort((a, b) => b.length - a.length)[0];
  const own = root !== undefined ? discoverRepository(root) : undefined;
  if (own && (repo.gitDir === own.gitDir || isWithin(repo.gitDir, commonDirOf(own.gitDir)))) return undefined;
  const why = untrustedGitDir(repo.gitDir);
  return why === undefined ? undefined : `${repo.at} is in the repository ${repo.gitDir}, not the workspace's, and it has ${why}`;
}

/** Git subcommands that only read (with the flags above excluded). */
const GIT_READS = new Set(["status", "log", "diff", "show", "rev-parse", "ls-files", "blame", "shortlog", "describe", "rev-list", "cat-file", "ls-tree", "grep", "whatchanged", "reflog"]);

/** Read-only commands and the options that would make them something else (beyond the write flags). */
const READ_ONLY: Record<string, (args: readonly ShellWord[], inner: readonly ShellWord[]) => boolean> = {
  ls: () => true,
  cat: () => true,
  head: () => true,
  // `tail -f` never ends: a command that runs until it is stopped is not a quick read.
  tail: (args) => !has(args, (v) => /^-[a-zA-Z0-9]*[fF]|^--follow/.test(v)),
  wc: () => true,
  stat: () => true,
  file: () => true,
  grep: () => true,
  egrep: () => true,
  fgrep: () => true,
  rg: () => true,
  find: () => true,
  git: (_args, inner) => {
    const { globals, sub, args } = gitCommand(inner);
    if (globals.length > 0) return false;
    if (sub === "branch")
      return (
        args.every((w) => /^(--list|-l|-a|--all|-r|--remotes|-v|-vv|--verbose|--show-current|--no-color|--color|--contains|--merged|--no-merged|--sort=.*|--format=.*)$/.test(w.value ?? "")) ||
        has(args, (v) => v === "--list" || v === "-l")
      );
    if (sub === "reflog") return args.length === 0 || args[0]?.value === "show";
    return sub !== undefined && GIT_READS.has(sub);
  },
  sleep: () => true,
  pwd: () => true,
  which: () => true,
  basename: () => true,
  dirname: () => true,
  realpath: () => true,
  readlink: () => true,
  du: () => true,
  df: () => true,
  sort: () => true,
  uniq: () => true,
  cut: () => true,
  nl: () => true,
  tac: () => true,
  diff: () => true,
  cmp: () => true,
  comm: () => true,
  md5sum: () => true,
  sha1sum: () => true,
  sha256sum: () => true,
  jq: () => true,
  od: () => true,
  hexdump: () => true,
  strings: () => true,
  seq: () => true,
  tree: () => true,
  xxd: (args) => !has(args, (v) => shortFlag(v, "r")),
  column: () => true,
};

/** The commands docs/user/permissions.md, "Read-only commands", lists. */
export const READ_ONLY_COMMANDS = Object.keys(READ_ONLY);

/**
 * A glob whose matches all start with a literal that is not an option (`src/*.ts`, `./*`):
 * `*` alone can expand to a file named `--pre=sh` and turn `rg x *` into running every file.
 */
function safeGlob(w: ShellWord): boolean {
  return w.plain === true && w.globPrefix !== undefined && w.globPrefix.length > 0 && !w.globPrefix.startsWith("-") && !/[$`]/.test(w.text);
}

/** Paths that mean something else in the command's process than in the core's: its own /proc entry and descriptors. */
const PROCESS_OWN = /^\/(proc\/(self|thread-self|[0-9]+)|dev\/fd)(\/|$)/;

/**
 * The paths a read-only command's word names, as the command would read them: an operand, the
 * value of an option (`--file=F`, `-fF` with a path), or the literal directory a glob expands in.
 */
function namedPaths(w: ShellWord): { text: string; glob: boolean }[] {
  const v = w.value ?? w.globPrefix;
  if (v === undefined) return [];
  const glob = w.value === undefined;
  const dirOf = (t: string) => (glob ? (t.includes("/") ? t.slice(0, t.lastIndexOf("/") + 1) || "/" : ".") : t);
  if (!v.startsWith("-")) return [{ text: dirOf(v), glob }];
  const eq = v.indexOf("=");
  if (v.startsWith("--") && eq > 0) return [{ text: dirOf(v.slice(eq + 1)), glob }];
  // `-f/path`, `-f~/x`, `-f./x`: a short option with a path attached.
  const attached = /^-[A-Za-z0-9]([~/.].*)$/.exec(v)?.[1];
  return attached !== undefined ? [{ text: dirOf(attached), glob }] : [];
}

/**
 * Does this part only read, so that it may run without a question where no sandbox is? Every
 * word is a plain literal (or a glob behind a literal prefix), there is no redirection that
 * writes or connects, no write flag, nothing it reads is a credential store, a system secret or
 * Wave's state — judged where each path really leads (symlinks and /proc links resolved; a
 * glob by the folder it expands in) — and the command is found on a PATH the workspace cannot
 * put programs in (checked by the caller).
 */
export function readOnlyCall(part: CommandPart, places: { home: string; homes?: readonly string[]; stateDirectories?: readonly string[]; allowedDirectories?: readonly string[] }): boolean {
  if (part.compound || part.assignments.length > 0) return false;
  if (part.hiddenCode.length > 0 || part.dynamicCode || part.startupFiles) return false;
  const words = part.words;
  const name = words[0]?.value;
  if (name === undefined || name.includes("/")) return false;
  const check = READ_ONLY[name];
  if (!check) return false;
  if (!words.every((w) => w.value !== undefined || safeGlob(w))) return false;
  for (const r of part.redirects) {
    if (writesFile(r)) return false;
    if (r.target && (r.target.value === undefined || networkPath(r.target.value))) return false;
  }
  if (writeFlags(part).length > 0) return false;
  if (!check(words.slice(1), words)) return false;
  const cwd = part.cwd;
  if (name === "git" && untrustedRepository(cwd, places.allowedDirectories ?? []) !== undefined) return false;
  const sensitive = { homes: places.homes ?? [places.home], stateDirectories: places.stateDirectories };
  // A recursive search of the home directory (or above it) reads the credentials in it too.
  const searches = /^(grep|egrep|fgrep|rg)$/.test(name);
  // Input redirections read files as much as operands do (`cat < ~/.ssh/id_rsa`).
  const inputs = part.redirects.filter((r) => (r.operator === "<" || r.operator === "<>" || (r.operator === "<&" && !/^(\d+|-)$/.test(r.target?.value ?? ""))) && r.target);
  const named = [...words.slice(1).flatMap(namedPaths), ...inputs.map((r) => ({ text: r.target!.value!, glob: false }))];
  for (const { text: v, glob } of named) {
    const given = v === "~" || v.startsWith("~/") ? places.home + v.slice(1) : path.isAbsolute(v) ? v : cwd ? path.resolve(cwd, v) : undefined;
    if (given === undefined) return false;
    const lexical = path.resolve(given);
    // The command's /proc/self and /dev/fd are its own, not the core's: what they lead to cannot be told here.
    if (PROCESS_OWN.test(lexical)) return false;
    const p = realPath(lexical);
    if (PROCESS_OWN.test(p) || secretForReadOnly(p, sensitive) || secretForReadOnly(lexical, sensitive)) return false;
    // A glob, or a search, reaches everything below the folder it is given.
    if ((glob || searches) && sensitiveInside(p, sensitive).length > 0) return false;
    if (searches && sensitive.homes.some((h) => isWithin(h, p))) return false;
    // Wave's state holds the tokens of listening cores: reading it, or searching a folder that holds it, is asked.
    if (waveStatePath(p, places.stateDirectories) || (searches && holdsWaveState(p, places.stateDirectories))) return false;
  }
  return true;
}
