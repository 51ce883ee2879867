// Commands that run other commands: wrappers (`sudo`, `nice`, `timeout`, `flock`, …) whose inner
// command rules and warnings must see, and the commands `find -exec`, `fd -x`, `xargs`, `watch`
// and `parallel` run. docs/user/permissions.md, "Rules", lists them.
import { baseName, type ShellWord } from "./words.js";

export interface Unwrapped {
  /** The command that finally runs, after wrappers such as `sudo`, `env`, `nice`, `timeout`. */
  inner: readonly ShellWord[];
  /** Each view of the command: as written, then after each wrapper is removed. */
  layers: (readonly ShellWord[])[];
  /** The wrappers removed, outermost first. */
  wrappers: string[];
  /** Command strings a wrapper runs through a shell or splits into words (`flock -c STR`, `env -S STR`). */
  strings: ShellWord[];
}

interface WrapperSpec {
  /** Options that take a separate value (`-u root`). */
  valued: string[];
  /** Positional operands before the command (`timeout 10 cmd`). */
  operands?: number;
  /** Options after which the word is not a command to run at all (`command -v x`). */
  notExec?: string[];
  /** `NAME=value` words are skipped (env, sudo). */
  assignments?: boolean;
  /** Options whose value is a whole command string (`flock -c STR`, `env -S STR`). */
  strings?: string[];
}

/** Commands that run the command given in their arguments (docs/user/permissions.md, "Rules": deny rules see through them). */
const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    valued: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type", "--command-timeout", "--other-user", "--close-from"],
    assignments: true,
    notExec: ["-l", "--list", "-v", "--validate", "-k", "-K", "-e", "--edit", "-V"],
  },
  doas: { valued: ["-u", "-C"] },
  pkexec: { valued: ["--user"] },
  run0: { valued: ["-u", "--user", "-g", "--group", "-D", "--chdir", "--setenv", "--unit", "--property", "--slice", "--nice"] },
  env: { valued: ["-u", "--unset", "-C", "--chdir", "-a", "--argv0"], assignments: true, strings: ["-S", "--split-string"] },
  nohup: { valued: [] },
  setsid: { valued: [] },
  time: { valued: ["-f", "--format", "-o", "--output"] },
  command: { valued: [], notExec: ["-v", "-V"] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  nice: { valued: ["-n", "--adjustment"] },
  ionice: { valued: ["-c", "--class", "-n", "--classdata"], notExec: ["-p", "--pid", "-P", "--pgid", "-u", "--uid"] },
  timeout: { valued: ["-s", "--signal", "-k", "--kill-after"], operands: 1 },
  gtimeout: { valued: ["-s", "--signal", "-k", "--kill-after"], operands: 1 },
  stdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  gstdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  unbuffer: { valued: [] },
  chronic: { valued: [] },
  flock: { valued: ["-w", "--timeout", "-E", "--conflict-exit-code"], operands: 1, strings: ["-c", "--command"] },
  taskset: { valued: [], operands: 1, notExec: ["-p", "--pid"] },
  chrt: { valued: ["-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"], operands: 1, notExec: ["-p", "--pid", "-m", "--max"] },
  strace: { valued: ["-e", "-o", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X", "-U", "--output", "--attach", "--user", "--env"] },
  ltrace: { valued: ["-e", "-o", "-p", "-u", "-n", "-s", "-a", "-A", "-D", "-F", "-l", "-x", "-w", "--output", "--library"] },
  busybox: { valued: [] },
  setpriv: {
    valued: [
      "--reuid",
      "--regid",
      "--groups",
      "--inh-caps",
      "--ambient-caps",
      "--bounding-set",
      "--securebits",
      "--pdeathsig",
      "--selinux-label",
      "--apparmor-profile",
      "--ruid",
      "--rgid",
      "--euid",
      "--egid",
    ],
  },
  unshare: { valued: ["-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd", "--map-user", "--map-group", "--propagation"] },
  nsenter: { valued: ["-t", "--target", "-S", "--setuid", "-G", "--setgid"] },
  chroot: { valued: ["--userspec", "--groups"], operands: 1 },
  prlimit: { valued: [], notExec: ["-p", "--pid"] },
  numactl: { valued: ["-N", "-C", "-m", "-i", "-p", "--cpunodebind", "--physcpubind", "--membind", "--interleave", "--preferred"] },
  cpulimit: { valued: ["-l", "--limit"], notExec: ["-p", "--pid", "-P", "--path", "-e", "--exe"] },
  firejail: { valued: [] },
  "systemd-run": { valued: ["-u", "--unit", "-p", "--property", "--slice", "-E", "--setenv", "--uid", "--gid", "--nice", "--working-directory", "-M", "--machine", "-H", "--host", "--description"] },
  runuser: { valued: ["-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w", "--whitelist-environment"], strings: ["-c", "--command"] },
  "xvfb-run": { valued: ["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p", "--xauth-protocol", "-w", "--wait"] },
  "dbus-run-session": { valued: ["--config-file", "--dbus-daemon"] },
  eatmydata: { valued: [] },
  fakeroot: { valued: ["-l", "--lib", "--faked", "-s", "-i", "-b"] },
  torsocks: { valued: ["-u", "-p", "-a", "-P"] },
  proxychains: { valued: ["-f"] },
  proxychains4: { valued: ["-f"] },
  faketime: { valued: ["-m", "-f"], operands: 1 },
  catchsegv: { valued: [] },
  valgrind: { valued: [] },
  nocache: { valued: [] },
  ifne: { valued: [] },
  caffeinate: { valued: ["-t", "-w"] },
  rlwrap: { valued: ["-f", "-H", "-l", "-p", "-P", "-s", "-S", "-z"] },
  "ssh-agent": { valued: ["-a", "-E", "-t", "-P"] },
  dotenv: { valued: ["-e", "-c", "-v"] },
  // zsh's precommand modifiers, and `repeat N cmd` (its count is evaluated: commandParts.ts).
  noglob: { valued: [] },
  nocorrect: { valued: [] },
  repeat: { valued: [], operands: 1 },
};

/** Removes wrapper commands so rules and warnings also see the command that really runs. */
export function unwrap(words: readonly ShellWord[]): Unwrapped {
  const layers: (readonly ShellWord[])[] = [words];
  const wrappers: string[] = [];
  const strings: ShellWord[] = [];
  let current = words;
  for (let guard = 0; guard < 16; guard++) {
    const name = current[0]?.value;
    const spec = name !== undefined ? WRAPPERS[baseName(name)] : undefined;
    if (!spec || !name) break;
    let i = 1;
    let stop = false;
    while (i < current.length) {
      const w = current[i]!.value;
      // A word known only at run time: it is the command (`sudo $CMD`), as far as can be told.
      if (w === undefined) break;
      if (w === "--") {
        i++;
        break;
      }
      if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*(%%)?=/.test(w)) {
        i++;
        continue;
      }
      if (!w.startsWith("-") || w === "-") break;
      if (spec.notExec?.some((o) => w === o || (o.length === 2 && !o.startsWith("--") && /^-[A-Za-z]+$/.test(w) && w.includes(o[1]!)))) {
        stop = true;
        break;
      }
      const stringFlag = spec.strings?.find((o) => w === o || w.startsWith(`${o}=`) || (!o.startsWith("--") && w.startsWith(o) && w.length > o.length));
      if (stringFlag) {
        const inline = w.startsWith(`${stringFlag}=`) ? w.slice(stringFlag.length + 1) : w.length > stringFlag.length && !stringFlag.startsWith("--") ? w.slice(stringFlag.length) : undefined;
        const str: ShellWord | undefined = inline !== undefined ? { text: current[i]!.text, value: inline } : current[i + 1];
        if (str) strings.push(str);
        // `env -S 'cmd args' more` runs the split string followed by the remaining words.
        i = current.length;
        stop = true;
        break;
      }
      if (/^-[0-9]+$/.test(w) && baseName(name) === "nice") {
        i++;
        continue;
      }
      if (spec.valued.includes(w)) i += 2;
      else if (w.startsWith("--") && w.includes("=")) i++;
      else if (!w.startsWith("--") && w.length > 2 && spec.valued.includes(w.slice(0, 2))) i++;
      else i++;
    }
    if (stop && strings.length === 0) break;
    if (stop) {
      wrappers.push(baseName(name));
      current = [];
      layers.push(current);
      break;
    }
    let operands = spec.operands ?? 0;
    // `flock FILE -c STR`: the option comes after the lock file.
    if (baseName(name) === "flock" && current[i + 1] && spec.strings!.includes(current[i + 1]!.value ?? "")) {
      const str = current[i + 2];
      if (str) strings.push(str);
      wrappers.push("flock");
      current = [];
      layers.push(current);
      break;
    }
    while (operands-- > 0 && i < current.length) i++;
    const next = current.slice(i);
    wrappers.push(baseName(name));
    current = next;
    layers.push(next);
    if (next.length === 0) break;
  }
  return { inner: current, layers, wrappers, strings };
}

/** What a shell invocation runs: a `-c` string, a script file, or its standard input. */
export function shellScriptOperand(words: readonly ShellWord[]): { kind: "string"; word: ShellWord } | { kind: "file" } | { kind: "stdin" } {
  let wantsString = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!.value;
    if (w === undefined) return wantsString ? { kind: "string", word: words[i]! } : { kind: "file" };
    if (w === "--") {
      const next = words[i + 1];
      if (wantsString && next) return { kind: "string", word: next };
      return next ? { kind: "file" } : { kind: "stdin" };
    }
    if (w === "-o" || w === "+o" || w === "-O" || w === "+O" || w === "--rcfile" || w === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(w)) {
      if (w.startsWith("-") && w.includes("c")) wantsString = true;
      if (w === "-s") return { kind: "stdin" };
      continue;
    }
    if (w.startsWith("--")) continue;
    return wantsString ? { kind: "string", word: words[i]! } : { kind: "file" };
  }
  return { kind: "stdin" };
}

/** The commands `find … -exec CMD … ;` (and -execdir, -ok, -okdir) runs; `{}` stands for each file. */
export function findExecCommands(words: readonly ShellWord[]): ShellWord[][] {
  const runs: ShellWord[][] = [];
  const roots = findRoots(words);
  const each: ShellWord = { text: "{}", expansion: "{} (each file found)", oneWord: true, ...(roots.length === 1 ? { within: roots[0] } : {}) };
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!.value;
    if (w !== "-exec" && w !== "-execdir" && w !== "-ok" && w !== "-okdir") continue;
    const run: ShellWord[] = [];
    let j = i + 1;
    for (; j < words.length; j++) {
      const v = words[j]!.value;
      if (v === ";" || v === "+") break;
      run.push(v?.includes("{}") ? each : words[j]!);
    }
    if (run.length > 0) runs.push(run);
    i = j;
  }
  return runs;
}

/** The commands `fd … -x CMD …` / `-X CMD …` runs (to the end, or up to `;`). */
export function fdExecCommands(words: readonly ShellWord[]): ShellWord[][] {
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === "-x" || v === "--exec" || v === "-X" || v === "--exec-batch") {
      const run: ShellWord[] = [];
      for (let j = i + 1; j < words.length && words[j]!.value !== ";"; j++) {
        const t = words[j]!.value;
        run.push(t !== undefined && /\{[/.]*\/?\}|\{\}|\{\/\.?\}|\{\/\/\}|\{\.\}/.test(t) ? { text: words[j]!.text, expansion: "{} (each file found)", oneWord: true } : words[j]!);
      }
      return run.length ? [run] : [];
    }
  }
  return [];
}

/** The starting points of a `find` command (`.` when none is given). */
export function findRoots(words: readonly ShellWord[]): ShellWord[] {
  const roots: ShellWord[] = [];
  let i = 1;
  while (i < words.length && /^-(H|L|P|O\d*|D)$/.test(words[i]!.value ?? "")) i += words[i]!.value === "-D" ? 2 : 1;
  for (; i < words.length; i++) {
    const v = words[i]!.value;
    if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!" || v === ")")) break;
    roots.push(words[i]!);
  }
  return roots.length ? roots : [{ text: ".", value: "." }];
}

const XARGS_VALUED = new Set([
  "-I",
  "-i",
  "-n",
  "-P",
  "-L",
  "-l",
  "-d",
  "-E",
  "-e",
  "-s",
  "-a",
  "--arg-file",
  "--delimiter",
  "--max-args",
  "--max-procs",
  "--max-lines",
  "--max-chars",
  "--replace",
  "--eof",
  "--process-slot-var",
]);

/** The command `xargs [options] CMD …` runs (without the arguments it reads); the -I string stands for input. */
export function xargsCommand(words: readonly ShellWord[]): ShellWord[] {
  let i = 1;
  let replace: string | undefined;
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === undefined) return words.slice(i);
    if (w === "--") {
      i++;
      break;
    }
    if (!w.startsWith("-")) break;
    if (w === "-I") replace = words[i + 1]?.value;
    else if (w.startsWith("-I")) replace = w.slice(2);
    else if (w === "-i" || w === "--replace") replace = "{}";
    else if (w.startsWith("-i") || w.startsWith("--replace=")) replace = w.slice(w.startsWith("-i") ? 2 : 10);
    if (XARGS_VALUED.has(w) && w !== "-i" && w !== "--replace") i += 2;
    else i++;
  }
  const run = words.slice(i);
  if (replace === undefined || replace === "") return run;
  return run.map((w) => (w.value?.includes(replace!) ? { text: w.text, expansion: `${replace} (input)`, oneWord: true } : w));
}

const WATCH_VALUED = new Set(["-n", "--interval", "-d", "-q", "--equexit"]);

/** What `watch` runs: its words, through `sh -c` unless `-x` says to run them directly. */
export function watchCommand(words: readonly ShellWord[]): { shell: boolean; words: ShellWord[] } {
  let shell = true;
  let i = 1;
  for (; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === undefined || !v.startsWith("-") || v === "-") break;
    if (v === "--") {
      i++;
      break;
    }
    if (v === "-x" || v === "--exec" || (/^-[a-zA-Z]+$/.test(v) && v.includes("x"))) shell = false;
    if (WATCH_VALUED.has(v)) i++;
  }
  return { shell, words: words.slice(i) };
}

const PARALLEL_VALUED = new Set([
  "-j",
  "--jobs",
  "-S",
  "--sshlogin",
  "-a",
  "--arg-file",
  "--joblog",
  "--results",
  "--tmpdir",
  "-d",
  "--delimiter",
  "-E",
  "-I",
  "--colsep",
  "-N",
  "-n",
  "-L",
  "-l",
  "-P",
  "-s",
  "--workdir",
  "--wd",
  "--env",
  "--timeout",
  "--delay",
  "--memfree",
  "--load",
  "--retries",
  "--halt",
  "--tag-string",
  "--tagstring",
]);

/** GNU parallel: the command template before `:::`, and the inputs after (each a command when there is no template). */
export function parallelCommand(words: readonly ShellWord[]): { command: ShellWord[]; inputs: ShellWord[] } {
  let i = 1;
  for (; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === undefined || !v.startsWith("-") || v.startsWith(":::")) break;
    if (PARALLEL_VALUED.has(v)) i++;
  }
  const sep = words.findIndex((w, k) => k >= i && /^::::?\+?$/.test(w.value ?? ""));
  const command = words.slice(i, sep < 0 ? undefined : sep);
  const inputs = sep < 0 ? [] : words.slice(sep + 1).filter((w) => !/^::::?\+?$/.test(w.value ?? ""));
  return { command, inputs };
}
