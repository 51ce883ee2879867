// Danger analysis: warnings, each with its reason, for the parts of a command that can do damage
// a person would want to see before it runs. A warning never allows anything: it is shown when
// the user is asked, and it turns an allow from a prefix rule into a question (see decide.ts).
import {
  HARMLESS_DEVICES,
  baseName,
  findRoots,
  networkPath,
  normalizedPath,
  resolveWordPath,
  shellScriptOperand,
  unwrap,
  writesFile,
  type CommandPart,
  type ShellWord,
  type SplitCommand,
} from "./commandParts.js";
import { homesOf, place, realPath, type Places, type Placement } from "./paths.js";
import { sensitiveHomePath, sensitiveWritePath } from "./sensitive.js";

export type WarningId =
  | "delete-outside-workspace"
  | "force-push"
  | "delete-remote-branch"
  | "discard-changes"
  | "pipe-to-shell"
  | "privilege"
  | "broad-permissions"
  | "device-write"
  | "broad-kill"
  | "system-power"
  | "fork-bomb"
  | "write-outside-workspace"
  | "dynamic-command"
  | "network"
  | "unparsed"
  | "outside-workspace"
  | "sensitive-path"
  | "hard-linked";

export interface Warning {
  readonly id: WarningId;
  readonly message: string;
  /** The part of the command it is about. */
  readonly part?: string;
}

/** Every warning rule, with what it catches (docs/user/permissions.md, "Warnings", and PROTOCOL.md list the same). */
export const WARNING_RULES: Record<WarningId, string> = {
  "delete-outside-workspace":
    "rm -r / find -delete of /, your home, the workspace itself or a directory containing it, anything outside the allowed directories (except below the temp directory), `..` escapes, and paths built from variables or globs that cannot be known before the command runs; also a plain rm of a file outside the allowed directories",
  "force-push": "git push --force / -f / --force-with-lease / +refspec / --mirror: rewrites history on the remote",
  "delete-remote-branch": "git push --delete / -d / :branch: deletes a branch on the remote",
  "discard-changes": "git reset --hard, git clean -f, git checkout -- / . / -f, git restore (work tree), git stash drop/clear, git branch -D: throws away work that may exist nowhere else",
  "pipe-to-shell": 'curl/wget/… output piped or substituted into a shell or interpreter (curl … | sh, bash <(curl …), sh -c "$(curl …)", eval "$(wget -O- …)")',
  privilege: "sudo, doas, pkexec, run0 and su: runs as another user, usually root",
  "broad-permissions": "chmod making files writable by everyone (777, o+w, a+w) or setting setuid/setgid; recursive chmod/chown/chgrp outside the workspace or on paths known only at run time",
  "device-write": "writes to block devices (dd of=/dev/sda, > /dev/sdX, tee/cp/shred onto /dev/…) and disk formatting or partitioning (mkfs*, mkswap, wipefs, fdisk, sfdisk, parted, blkdiscard, …)",
  "broad-kill": "kill -1 (every process), kill 1 (init), killall/killall5, pkill (by name or pattern, including ones this command did not start; `pkill -f .` matches everything)",
  "system-power": "shutdown, reboot, halt, poweroff, systemctl poweroff/reboot/…, init 0/6",
  "fork-bomb": "a function that starts copies of itself in the background or through a pipe (:(){ :|:& };:)",
  "write-outside-workspace": "a redirection or tee writing to a file outside the allowed directories (the temp directory excepted) or to a file named only at run time",
  "dynamic-command":
    "code known only at run time: a command name from a variable or substitution ($CMD), eval / sh -c / trap / watch of a string built at run time, a shell or interpreter reading its commands from a pipe, code hidden in words the shell evaluates (arithmetic on a variable holding an array subscript, an assignment's subscript such as a['$(…)']=1, integer variables given a subscript or run-time data, ${x@P}, ${!x}, test -v 'a[…]', zsh's *(e:…:) qualifiers and ${(e)…} flags), and shells that first run start-up files (bash -i/-l/--rcfile, sh -i, zsh -i/-l, BASH_ENV, ENV, ZDOTDIR or HOME changed)",
  network: "a redirection to bash's network files (/dev/tcp/…, /dev/udp/…: opens a connection), or from a path known only at run time",
  unparsed: "the command has a syntax error, so it cannot be checked part by part",
  "outside-workspace": "Write/Edit of a file outside the allowed directories",
  "sensitive-path":
    'reading a credential store, a system secret or Wave\'s state with Read, Grep or Glob; writing shell start-up files, ~/.ssh, ~/.gnupg, credentials files, /etc, /usr, /bin, /boot and similar; and, inside the workspace, files that run code or grant permissions later (.git/, .envrc, .claude/, .vscode/, .idea/, .husky/, … — docs/user/permissions.md, "Sensitive workspace files"), by Write/Edit or by a command (redirection, tee, cp, mv, chmod, …)',
  "hard-linked": "Write/Edit of a file with several hard links: it changes under every name, and the others may lie outside the allowed directories, so it counts as outside even in the workspace",
};

const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c", "http", "https", "xh", "lwp-request", "GET"]);
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);
const INTERPRETER = /^(python[0-9.]*|perl|ruby|node|nodejs|php|pwsh|powershell|lua|tclsh|deno|bun)$/;
const PRIVILEGE = new Set(["sudo", "doas", "pkexec", "run0"]);
const DISK_TOOLS = /^(mkfs(\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|mkfs_.*|wipefs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|cgdisk|parted|blkdiscard|zpool|hdparm)$/;
const POWER = new Set(["shutdown", "reboot", "halt", "poweroff"]);

type Check = (part: CommandPart, inner: readonly ShellWord[], places: Places, wrappers: string[]) => string[];

/** Warnings about the command as a whole: syntax errors, fork bombs, code hidden outside simple commands. */
export function globalWarnings(split: SplitCommand): Warning[] {
  const out: Warning[] = [];
  if (split.errors.length > 0) {
    out.push({ id: "unparsed", message: `The command has a syntax error (${split.errors.slice(0, 3).join("; ")}), so it could not be checked part by part.` });
  }
  for (const h of split.hiddenCode) out.push({ id: "dynamic-command", message: `${h.text} ${h.reason}: it can run commands nobody sees in the text.`, part: h.text });
  for (const name of split.selfSpawningFunctions) {
    out.push({ id: "fork-bomb", message: `Defines the function ${name}, which keeps starting copies of itself (a fork bomb): it can freeze the machine.` });
  }
  return out;
}

/** All warnings for a split command, in part order, without duplicates. */
export function commandWarnings(split: SplitCommand, places: Places): Warning[] {
  return dedupeWarnings([...globalWarnings(split), ...split.parts.flatMap((p) => partWarnings(p, places))]);
}

export function dedupeWarnings(warnings: readonly Warning[]): Warning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.id}\u0000${w.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Warnings for one part. */
export function partWarnings(part: CommandPart, places: Places): Warning[] {
  const { inner, wrappers } = unwrap(part.words);
  const out: Warning[] = [];
  for (const [id, check] of CHECKS) {
    for (const message of check(part, inner, places, wrappers)) out.push({ id, message, part: part.text });
  }
  return out;
}

const CHECKS: [WarningId, Check][] = [
  ["delete-outside-workspace", checkDelete],
  ["force-push", (_p, inner) => gitPushWarnings(inner).force],
  ["delete-remote-branch", (_p, inner) => gitPushWarnings(inner).deletes],
  ["discard-changes", (_p, inner) => checkDiscard(inner)],
  ["pipe-to-shell", checkPipeToShell],
  ["privilege", checkPrivilege],
  ["broad-permissions", checkPermissionsChange],
  ["device-write", checkDeviceWrite],
  ["broad-kill", (_p, inner) => checkKill(inner)],
  ["system-power", (_p, inner) => checkPower(inner)],
  ["write-outside-workspace", checkWriteOutside],
  ["sensitive-path", checkSensitiveWrite],
  ["network", checkNetwork],
  ["dynamic-command", (p, inner) => unknownCode(p, inner)],
];

function nameOf(words: readonly ShellWord[]): string | undefined {
  const n = words[0]?.value;
  return n === undefined ? undefined : baseName(n);
}

/** Splits arguments into option words and operands (everything after `--` is an operand). */
function operands(words: readonly ShellWord[], from = 1): { options: string[]; operands: ShellWord[] } {
  const options: string[] = [];
  const ops: ShellWord[] = [];
  let ended = false;
  for (let i = from; i < words.length; i++) {
    const w = words[i]!;
    if (!ended && w.value === "--") {
      ended = true;
      continue;
    }
    if (!ended && w.value !== undefined && w.value.startsWith("-") && w.value !== "-") options.push(w.value);
    else ops.push(w);
  }
  return { options, operands: ops };
}

function hasShortFlag(options: string[], flag: string): boolean {
  return options.some((o) => /^-[A-Za-z0-9]+$/.test(o) && o.includes(flag));
}

function describeTarget(word: ShellWord, cwd: string | undefined, places: Places): { placement?: Placement; path?: string; glob?: boolean; unknown?: string } {
  if (word.within) {
    // Something strictly below a directory: harmless below an allowed or the temp directory.
    const root = describeTarget(word.within, cwd, places);
    if (!root.placement) return { unknown: `each file is found below ${word.within.text}, and ${root.unknown}` };
    const where = root.placement.where;
    const placement: Placement = where === "inside" || where === "allowed-root" ? { where: "inside" } : root.placement;
    return { placement, path: root.path, glob: true };
  }
  const r = resolveWordPath(word, cwd, places.home);
  if (!r.path) return { unknown: r.unknown };
  const real = realPath(r.path);
  return { placement: place(real, places), path: real, glob: r.glob };
}

/**
 * What deleting or changing this target would reach, or undefined when it stays inside the
 * allowed directories (or below the temp directory). `rootIsFine`: the allowed directory itself
 * may be the target (chmod -R of the workspace is ordinary; rm -rf of it is not).
 */
function targetProblem(word: ShellWord, cwd: string | undefined, places: Places, opts: { recursive: boolean; rootIsFine?: boolean }): string | undefined {
  const t = describeTarget(word, cwd, places);
  if (t.unknown !== undefined) return opts.recursive ? `a path that cannot be checked: ${t.unknown}` : undefined;
  const escaped = /(^|\/)\.\.(\/|$)/.test(word.text) ? ` (${word.text} resolves to ${t.path})` : "";
  const placement = t.placement!;
  switch (placement.where) {
    case "filesystem-root":
      return t.glob ? `everything in / (${word.text})` : `the whole filesystem (${word.text})`;
    case "home":
      return t.path === places.home ? `your home directory (${t.path})${escaped}` : `${t.path}, which contains your home directory${escaped}`;
    case "contains-allowed":
      return `${t.path}, which contains the workspace directory ${placement.allowed}${escaped}`;
    case "allowed-root":
      if (opts.rootIsFine) return undefined;
      return t.glob ? `everything in the workspace directory ${t.path}` : `the workspace directory itself (${t.path})${escaped}`;
    case "outside":
      return `${t.path}, outside the workspace${escaped}`;
    default:
      return undefined;
  }
}

function checkDelete(part: CommandPart, inner: readonly ShellWord[], places: Places): string[] {
  const name = nameOf(inner);
  const out: string[] = [];
  if (name === "rm") {
    const { options, operands: targets } = operands(inner);
    const recursive = hasShortFlag(options, "r") || hasShortFlag(options, "R") || options.includes("--recursive");
    if (options.includes("--no-preserve-root")) out.push("rm --no-preserve-root removes the protection against deleting /.");
    for (const t of targets) {
      const problem = targetProblem(t, part.cwd, places, { recursive });
      if (problem) out.push(recursive ? `Deletes recursively ${problem}.` : `Deletes ${problem}.`);
    }
  } else if (name === "find" && inner.some((w) => w.value === "-delete")) {
    for (const root of findRoots(inner)) {
      const problem = targetProblem({ text: root.text, within: root }, part.cwd, places, { recursive: true });
      if (problem) out.push(`find -delete deletes files below ${problem}.`);
    }
  }
  return out;
}

/** `git [global options] SUBCOMMAND args…` → the subcommand and its arguments. */
function gitCommand(inner: readonly ShellWord[]): { sub?: string; args: readonly ShellWord[] } {
  if (nameOf(inner) !== "git") return { args: [] };
  const valued = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--super-prefix", "--config-env", "--list-cmds"]);
  let i = 1;
  while (i < inner.length) {
    const v = inner[i]!.value;
    if (v === undefined || !v.startsWith("-")) break;
    i += valued.has(v) ? 2 : 1;
  }
  return { sub: inner[i]?.value, args: inner.slice(i + 1) };
}

function gitPushWarnings(inner: readonly ShellWord[]): { force: string[]; deletes: string[] } {
  const { sub, args } = gitCommand(inner);
  if (sub !== "push") return { force: [], deletes: [] };
  const { options, operands: refs } = operands(args, 0);
  const force: string[] = [];
  const deletes: string[] = [];
  const forced = options.some((o) => o === "--force" || o.startsWith("--force-with-lease") || o === "--force-if-includes") || hasShortFlag(options, "f") || refs.some((r) => r.value?.startsWith("+"));
  if (forced) force.push("Force-pushes: rewrites history on the remote, and commits others pushed there can be lost.");
  if (options.includes("--mirror")) force.push("git push --mirror overwrites (and deletes) every ref on the remote to match this repository.");
  if (options.includes("--delete") || hasShortFlag(options, "d") || refs.some((r, i) => i > 0 && r.value?.startsWith(":") && r.value.length > 1)) {
    deletes.push("Deletes a branch or tag on the remote.");
  }
  return { force, deletes };
}

function checkDiscard(inner: readonly ShellWord[]): string[] {
  const { sub, args } = gitCommand(inner);
  if (!sub) return [];
  const { options, operands: ops } = operands(args, 0);
  const values = args.map((a) => a.value);
  switch (sub) {
    case "reset":
      return options.includes("--hard") ? ["git reset --hard throws away every uncommitted change in the work tree."] : [];
    case "clean":
      if (!(options.includes("--force") || hasShortFlag(options, "f"))) return [];
      return [
        `git clean deletes untracked files${hasShortFlag(options, "x") ? ", including ignored ones (build outputs, .env files)" : ""}${hasShortFlag(options, "d") ? " and directories" : ""}; they are not in git and cannot be restored.`,
      ];
    case "checkout":
      if (values.includes("--") || ops.some((o) => o.value === "." || o.value === ":/") || options.includes("--force") || hasShortFlag(options, "f")) {
        return ["git checkout of paths (or with --force) overwrites uncommitted changes in those files."];
      }
      return [];
    case "restore": {
      const stagedOnly = (options.includes("--staged") || hasShortFlag(options, "S")) && !(options.includes("--worktree") || hasShortFlag(options, "W"));
      return stagedOnly ? [] : ["git restore overwrites uncommitted changes in the work tree."];
    }
    case "stash":
      return ops[0]?.value === "drop" || ops[0]?.value === "clear" ? [`git stash ${ops[0]!.value} deletes stashed changes.`] : [];
    case "branch":
      return options.includes("-D") || (options.includes("--delete") && options.includes("--force")) ? ["git branch -D deletes a branch even if its commits were never merged."] : [];
    default:
      return [];
  }
}

function isShellReadingInput(inner: readonly ShellWord[]): boolean {
  const name = nameOf(inner);
  if (!name) return false;
  if (SHELLS.has(name)) return shellScriptOperand(inner).kind === "stdin";
  if (INTERPRETER.test(name)) {
    const { operands: ops, options } = operands(inner);
    if (options.some((o) => o === "-c" || o === "-e" || o === "-E" || o === "--eval" || o === "-r")) return false;
    return ops.length === 0 || ops[0]!.value === "-";
  }
  if (name === "source" || name === ".") return inner[1]?.value === "/dev/stdin" || inner[1]?.value === "-";
  return false;
}

function runsCode(inner: readonly ShellWord[]): boolean {
  const name = nameOf(inner);
  return !!name && (SHELLS.has(name) || INTERPRETER.test(name) || name === "eval" || name === "source" || name === ".");
}

function downloads(parts: readonly CommandPart[]): CommandPart | undefined {
  for (const p of parts) {
    const n = nameOf(unwrap(p.words).inner);
    if (n && DOWNLOADERS.has(n)) return p;
    const nested = downloads(p.substitutions);
    if (nested) return nested;
  }
  return undefined;
}

function checkPipeToShell(part: CommandPart, inner: readonly ShellWord[]): string[] {
  if (!runsCode(inner)) return [];
  const name = nameOf(inner)!;
  if (part.pipedFrom.length > 0 && isShellReadingInput(inner)) {
    const dl = downloads(part.pipedFrom);
    if (dl) return [`Pipes a download (${dl.text}) straight into ${name}: the downloaded script runs without anyone reading it.`];
  }
  const dl = downloads(part.substitutions);
  if (dl) return [`Runs a download (${dl.text}) with ${name}: the downloaded script runs without anyone reading it.`];
  return [];
}

function checkPrivilege(_part: CommandPart, inner: readonly ShellWord[], _places: Places, wrappers: string[]): string[] {
  const used = wrappers.filter((w) => PRIVILEGE.has(w));
  if (nameOf(inner) === "su") used.push("su");
  if (used.length === 0) return [];
  return [`Runs as another user (usually root) through ${[...new Set(used)].join(", ")}: it can change anything on the machine.`];
}

function modeProblems(mode: string): string[] {
  const out: string[] = [];
  if (/^[0-7]{3,4}$/.test(mode)) {
    const digits = mode.padStart(4, "0");
    if (Number(digits[3]) & 2) out.push(`mode ${mode} makes them writable by every user`);
    if (Number(digits[0]) & 6) out.push(`mode ${mode} sets the setuid/setgid bit`);
    return out;
  }
  for (const clause of mode.split(",")) {
    const m = /^([ugoa]*)([-+=])([rwxXstugo]*)$/.exec(clause);
    if (!m) continue;
    const [, who, op, perms] = m;
    if (op === "-") continue;
    if ((who!.includes("o") || who!.includes("a")) && perms!.includes("w")) out.push(`${clause} makes them writable by every user`);
    if (perms!.includes("s")) out.push(`${clause} sets the setuid/setgid bit`);
  }
  return out;
}

function checkPermissionsChange(part: CommandPart, inner: readonly ShellWord[], places: Places): string[] {
  const name = nameOf(inner);
  if (name !== "chmod" && name !== "chown" && name !== "chgrp") return [];
  const out: string[] = [];
  const args = inner.slice(1);
  const options: string[] = [];
  const ops: ShellWord[] = [];
  let ended = false;
  let mode: string | undefined;
  let reference = false;
  for (const w of args) {
    const v = w.value;
    if (!ended && v === "--") {
      ended = true;
      continue;
    }
    if (
      name === "chmod" &&
      mode === undefined &&
      !reference &&
      v !== undefined &&
      /^([0-7]{1,4}|([ugoa]*[-+=][rwxXstugo]*)(,[ugoa]*[-+=][rwxXstugo]*)*)$/.test(v) &&
      (ended || !/^-[RvcfHLP]+$/.test(v))
    ) {
      mode = v;
      continue;
    }
    if (!ended && v !== undefined && v.startsWith("-")) {
      if (v.startsWith("--reference")) reference = true;
      options.push(v);
      continue;
    }
    ops.push(w);
  }
  const recursive = hasShortFlag(options, "R") || options.includes("--recursive");
  // chown/chgrp: the first operand is the owner, not a file.
  const targets = name === "chmod" ? (reference ? ops : ops) : ops.slice(reference ? 0 : 1);
  if (mode) for (const problem of modeProblems(mode)) out.push(`chmod ${recursive ? "-R " : ""}${problem}.`);
  if (recursive) {
    for (const t of targets) {
      const problem = targetProblem(t, part.cwd, places, { recursive: true, rootIsFine: true });
      if (problem) out.push(`${name} -R changes ${name === "chmod" ? "permissions" : "ownership"} recursively on ${problem}.`);
    }
  }
  return out;
}

/** Writable places under /dev that are directories of ordinary files, not devices. */
const SHARED_DIRECTORIES = /^\/dev\/(shm|mqueue)(\/|$)/;

function deviceTarget(word: ShellWord | undefined): string | undefined {
  const v = word?.value === undefined ? undefined : normalizedPath(word.value);
  return v?.startsWith("/dev/") && !HARMLESS_DEVICES.test(v) && !SHARED_DIRECTORIES.test(v) && !networkPath(v) ? v : undefined;
}

function checkDeviceWrite(part: CommandPart, inner: readonly ShellWord[]): string[] {
  const out: string[] = [];
  for (const r of part.redirects) {
    const dev = writesFile(r) ? deviceTarget(r.target) : undefined;
    if (dev) out.push(`Writes directly to the device ${dev}: this can destroy a disk's data.`);
  }
  const name = nameOf(inner);
  if (!name) return out;
  if (DISK_TOOLS.test(name)) out.push(`${name} formats, wipes or repartitions a disk.`);
  const devices: string[] = [];
  if (name === "dd") {
    for (const w of inner.slice(1)) if (w.value?.startsWith("of=")) devices.push(...[deviceTarget({ text: w.text, value: w.value.slice(3) })].filter((d): d is string => !!d));
  } else if (name === "tee" || name === "shred") {
    for (const w of operands(inner).operands) {
      const d = deviceTarget(w);
      if (d) devices.push(d);
    }
  } else if (name === "cp" || name === "mv" || name === "install" || name === "cat" || name === "pv") {
    const last = operands(inner).operands.at(-1);
    const d = name === "cat" || name === "pv" ? undefined : deviceTarget(last);
    if (d) devices.push(d);
  }
  for (const d of devices) out.push(`${name} writes directly to the device ${d}: this can destroy a disk's data.`);
  return out;
}

function checkKill(inner: readonly ShellWord[]): string[] {
  const name = nameOf(inner);
  if (name === "kill") {
    let i = 1;
    const first = inner[1]?.value;
    if (first === "-l" || first === "-L" || first === "--list") return [];
    if (first === "-s" || first === "-n") i = 3;
    else if (first?.startsWith("-") && first !== "--" && first !== "-1") i = 2;
    if (inner[i]?.value === "--") i++;
    const out: string[] = [];
    for (const w of inner.slice(i)) {
      if (w.value === "-1") out.push("kill -1 sends the signal to every process you are allowed to signal, not only the ones this command started.");
      if (w.value === "1") out.push("Sends a signal to PID 1 (init): this can take the whole system down.");
    }
    return out;
  }
  if (name === "killall5") return ["killall5 signals every process on the machine."];
  if (name === "killall") {
    const targets = operands(inner).operands.map((w) => w.text);
    return [`killall kills every process named ${targets.join(", ") || "(by its options)"} on the machine, not only the ones this command started.`];
  }
  if (name === "pkill") {
    const valued = new Set([
      "-u",
      "-U",
      "-g",
      "-G",
      "-P",
      "-s",
      "-t",
      "-F",
      "--signal",
      "--euid",
      "--uid",
      "--pgroup",
      "--group",
      "--parent",
      "--session",
      "--terminal",
      "--pidfile",
      "--ns",
      "--nslist",
    ]);
    let pattern: ShellWord | undefined;
    for (let i = 1; i < inner.length; i++) {
      const v = inner[i]!.value;
      if (v?.startsWith("-") && v !== "-") {
        if (valued.has(v)) i++;
        continue;
      }
      pattern = inner[i];
    }
    const p = pattern?.value;
    if (pattern === undefined || (p !== undefined && /^(\.|\.\*|\^|\$|\^\.\*\$?|\.\+|)$/.test(p))) {
      return [`pkill ${pattern ? `with the pattern ${pattern.text} ` : "without a pattern "}matches every process it can see.`];
    }
    return [
      `pkill kills every process matching ${pattern.text}${inner.some((w) => w.value === "-f" || w.value === "--full") ? " anywhere in its command line" : ""}, not only the ones this command started.`,
    ];
  }
  return [];
}

function checkPower(inner: readonly ShellWord[]): string[] {
  const name = nameOf(inner);
  if (!name) return [];
  if (POWER.has(name)) return [`${name} shuts down or restarts the machine.`];
  if (name === "systemctl") {
    const sub = operands(inner).operands[0]?.value;
    if (sub && /^(poweroff|reboot|halt|kexec|suspend|hibernate|hybrid-sleep|emergency|rescue|soft-reboot)$/.test(sub)) return [`systemctl ${sub} stops or restarts the machine.`];
  }
  if ((name === "init" || name === "telinit") && /^[0126sS]$/.test(inner[1]?.value ?? "")) return [`${name} ${inner[1]!.value} changes the run level (halt, reboot or single-user).`];
  return [];
}

/** The files a part writes: output redirections, and the targets of tee, cp, mv, install, ln, touch, mkdir, truncate, dd of=. */
function writtenFiles(part: CommandPart, inner: readonly ShellWord[]): { word: ShellWord; how: string }[] {
  const out: { word: ShellWord; how: string }[] = [];
  for (const r of part.redirects) if (writesFile(r) && r.target) out.push({ word: r.target, how: "Writes to" });
  const name = nameOf(inner);
  if (!name) return out;
  const { options, operands: ops } = operands(inner);
  switch (name) {
    case "tee":
    case "touch":
    case "mkdir":
    case "truncate":
      for (const w of name === "truncate" ? ops.filter((w) => !(inner[inner.indexOf(w) - 1]?.value === "-s")) : ops) out.push({ word: w, how: `${name} writes to` });
      break;
    case "cp":
    case "mv":
    case "install":
    case "ln": {
      const t = inner.findIndex((w) => w.value === "-t" || w.value === "--target-directory");
      const inline = options.find((o) => o.startsWith("--target-directory="));
      if (t > 0 && inner[t + 1]) out.push({ word: inner[t + 1]!, how: `${name} writes into` });
      else if (inline) out.push({ word: { text: inline, value: inline.slice(19) }, how: `${name} writes into` });
      else if (ops.length > 1) out.push({ word: ops.at(-1)!, how: `${name} writes to` });
      break;
    }
    case "dd":
      for (const w of inner.slice(1)) if (w.value?.startsWith("of=")) out.push({ word: { text: w.text, value: w.value.slice(3) }, how: "dd writes to" });
      break;
  }
  return out;
}

function checkWriteOutside(part: CommandPart, inner: readonly ShellWord[], places: Places): string[] {
  const out: string[] = [];
  for (const { word: w, how } of writtenFiles(part, inner)) {
    // Devices are device-write's; network files are network's.
    if (w.value !== undefined && (deviceTarget(w) !== undefined || HARMLESS_DEVICES.test(normalizedPath(w.value)) || networkPath(w.value))) continue;
    const t = describeTarget(w, part.cwd, places);
    if (t.unknown !== undefined) {
      if (how === "Writes to" || nameOf(inner) === "tee") out.push(`${how} a file whose name is known only when the command runs (${w.text}).`);
      continue;
    }
    const where = t.placement!.where;
    if (where === "inside" || where === "temp" || where === "allowed-root") continue;
    out.push(`${how} ${t.path}, outside the workspace.`);
  }
  return out;
}

/** Writes (and chmod/chown) of files that run code later or hold credentials. */
function checkSensitiveWrite(part: CommandPart, inner: readonly ShellWord[], places: Places): string[] {
  const targets = writtenFiles(part, inner);
  const name = nameOf(inner);
  if (name === "chmod" || name === "chown" || name === "chgrp") for (const w of operands(inner).operands.slice(1)) targets.push({ word: w, how: `${name} changes` });
  const out: string[] = [];
  for (const { word, how } of targets) {
    const r = resolveWordPath(word, part.cwd, places.home);
    if (!r.path) continue;
    const real = realPath(r.path);
    const inside = sensitiveWritePath(real, places.allowedDirectories, places.stateDirectories);
    if (inside) out.push(`${how} ${real}: ${inside.what}.`);
    else if (sensitiveHomePath(real, homesOf(places))) out.push(`${how} ${real}, a shell start-up or credentials file.`);
  }
  return out;
}

/** Redirections that open network connections (bash's /dev/tcp and /dev/udp), or paths known only at run time. */
function checkNetwork(part: CommandPart): string[] {
  const out: string[] = [];
  for (const r of part.redirects) {
    if (!r.target || r.operator === "<<<") continue;
    const v = r.target.value;
    if (v !== undefined && networkPath(v)) out.push(`Opens a network connection through ${v} (${r.operator}).`);
    else if (v === undefined) out.push(`Opens ${r.target.text}, a path (or descriptor) known only when the command runs; it may be a network connection (/dev/tcp/…).`);
  }
  return out;
}

/**
 * Code this reading cannot see: a command name known only at run time, eval or sh -c of a
 * string built at run time, a shell reading a pipe, code hidden in expansions, start-up files.
 * Each is a dynamic-command warning; a deny rule could have named any of it (decide.ts).
 */
export function unknownCode(part: CommandPart, inner: readonly ShellWord[] = unwrap(part.words).inner): string[] {
  const first = inner[0];
  const out = opaqueCode(part, inner);
  if (first && first.value === undefined) out.push(`Runs a command whose name is known only when it runs (${first.text}).`);
  if (part.startupFiles) out.push(`Runs code before the command that this check cannot see: ${part.startupFiles}.`);
  return out;
}

/**
 * Code built or hidden at run time (not a command name, which deny rules match word by word):
 * any deny rule could name what it runs.
 */
export function opaqueCode(part: CommandPart, inner: readonly ShellWord[] = unwrap(part.words).inner): string[] {
  const out: string[] = [];
  for (const h of part.hiddenCode) out.push(`${h.text} ${h.reason}: it can run commands nobody sees in the text.`);
  if (part.dynamicCode) out.push(`Runs code this check cannot see: ${part.dynamicCode}.`);
  if (inner[0]?.value === undefined) return out;
  const name = nameOf(inner);
  if (!name) return out;
  if (name === "eval" && inner.slice(1).some((w) => w.value === undefined) && !downloads(part.substitutions)) {
    out.push(`${name} runs a command built when it runs (${part.text}); it cannot be checked beforehand.`);
  }
  if (SHELLS.has(name)) {
    const op = shellScriptOperand(inner);
    if (op.kind === "string" && op.word.value === undefined && !downloads(part.substitutions)) {
      out.push(`${name} -c runs a command built when it runs (${op.word.text}); it cannot be checked beforehand.`);
    }
  }
  if (part.pipedFrom.length > 0 && isShellReadingInput(inner) && !downloads(part.pipedFrom)) {
    out.push(`${name} runs commands read from a pipe (from ${part.pipedFrom.map((p) => p.text).join(" | ")}); they cannot be checked beforehand.`);
  }
  return out;
}
