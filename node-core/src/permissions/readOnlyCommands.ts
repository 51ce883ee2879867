// Friction without a sandbox (issue 12): in `ask` mode a command that will run outside the OS
// sandbox is asked about as before, unless every part is a read-only command from this list whose
// every word is a plain literal — no variable, substitution, glob, `~` or quote trick — with no
// write flag, no redirection (but to /dev/null), and no argument naming a credential store. Such a
// command can only read, and only what it names.
import path from "node:path";
import { DENY_READ_IN_HOME, SSH_READABLE } from "../shell/sandbox/policy.js";
import { isWithin } from "../core/paths.js";
import type { CommandPart, ShellWord } from "./commandParts.js";
import { realPath } from "./paths.js";

/** Commands that only read, each with the options that would make it write or run something. */
const READ_ONLY: Record<string, { refuse?: RegExp; recursive?: RegExp }> = {
  ls: {},
  cat: {},
  head: {},
  tail: {},
  wc: {},
  stat: {},
  file: { refuse: /^-[A-Za-z]*C|^--compile/ },
  grep: { recursive: /^--recursive$|^--dereference-recursive$|^--directories=recurse$|^-[A-Za-z]*[rR]/ },
  egrep: { recursive: /^--recursive$|^-[A-Za-z]*[rR]/ },
  fgrep: { recursive: /^--recursive$|^-[A-Za-z]*[rR]/ },
  rg: { refuse: /^--pre(-glob)?(=|$)|^--search-zip$|^-[A-Za-z]*z/, recursive: /./ },
  find: { refuse: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/ },
  du: {},
  df: {},
  pwd: {},
  sleep: {},
  whoami: {},
  id: {},
  uname: {},
  basename: {},
  dirname: {},
  realpath: {},
  readlink: {},
  which: {},
  diff: { recursive: /^--recursive$|^-[A-Za-z]*r/ },
  cmp: {},
  sort: { refuse: /^--output|^-[A-Za-z]*o/ },
  tree: { refuse: /^-[A-Za-z]*o/ },
  date: { refuse: /^--set|^-[A-Za-z]*s/ },
  printenv: {},
};

/** `git <these>` read; any git global option (`-c`, `-C`, `--exec-path`, …) is refused. */
const GIT_READ = new Set(["status", "log", "diff", "show"]);
const GIT_WRITE_FLAGS = /^--output(=|$)|^--ext-diff$|^-o$/;

/** Files no command may name without a question, beyond the credential stores of the home directory. */
const SYSTEM_SECRETS = ["/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssh"];

function plainLiteral(w: ShellWord): boolean {
  // Quoted glob characters are literal; `~` is an expansion only unquoted, at the start; `$` and backquotes are refused even quoted.
  return w.value !== undefined && w.globPrefix === undefined && w.expansion === undefined && !/[$`]/.test(w.text) && !w.text.startsWith("~");
}

/**
 * Whether reading `value` reaches a credential store: it is one (or lies in one, symlinks
 * resolved), or — for a command that reads directories recursively — it contains one.
 */
function namesSecret(value: string, cwd: string | undefined, home: string, recursive: boolean): boolean {
  const abs = realPath(path.resolve(cwd ?? "/", value));
  const stores = [...SYSTEM_SECRETS, ...DENY_READ_IN_HOME.map((rel) => path.join(home, rel))];
  if (stores.some((s) => isWithin(abs, s) || (recursive && isWithin(s, abs)))) return true;
  const ssh = path.join(home, ".ssh");
  if (recursive && isWithin(ssh, abs)) return true;
  if (isWithin(abs, ssh)) {
    const rel = path.relative(ssh, abs);
    return rel === "" || !SSH_READABLE.test(rel.split(path.sep)[0]!);
  }
  return false;
}

/** Whether a part is a read-only command with plain literal words only (see above). */
export function isReadOnlyPart(part: CommandPart, home: string): boolean {
  if (part.assignments.length > 0 || part.via.length > 0 || part.substitutions.length > 0) return false;
  if (!part.redirects.every((r) => r.target?.value === "/dev/null" && /^(\d*>|&>|\d*>>)$/.test(r.operator))) return false;
  const words = part.words;
  if (words.length === 0 || !words.every(plainLiteral)) return false;
  const name = words[0]!.value!;
  let args = words.slice(1).map((w) => w.value!);
  let recursive = false;
  if (name === "git") {
    if (!GIT_READ.has(args[0] ?? "")) return false;
    args = args.slice(1);
    if (args.some((a) => GIT_WRITE_FLAGS.test(a))) return false;
  } else {
    const spec = READ_ONLY[name];
    if (!spec) return false;
    if (spec.refuse && args.some((a) => spec.refuse!.test(a))) return false;
    recursive = spec.recursive !== undefined && (name === "rg" || args.some((a) => spec.recursive!.test(a)));
  }
  return !args.some((a) => !a.startsWith("-") && namesSecret(a, part.cwd, home, recursive));
}
