import { beforeAll, describe, expect, it } from "vitest";
import { splitCommand, unwrap, wordInfo, type ShellWord } from "./commandParts.js";
import { loadSyntax, type SyntaxLibraries } from "../util/bashSyntax.js";

let lib: SyntaxLibraries;
beforeAll(async () => {
  lib = await loadSyntax();
});

const HOME = "/home/me";
const split = (command: string, cwd: string | undefined = "/ws") => splitCommand(command, lib, { cwd, home: HOME });
const texts = (command: string) => split(command).parts.map((p) => p.text);

describe("splitCommand: every simple command that will run is a part", () => {
  it.each<[string, string[]]>([
    ["git status", ["git status"]],
    ["git status && rm -rf ~", ["git status", "rm -rf ~"]],
    ["a; b || c", ["a", "b", "c"]],
    ["a | b |& c", ["a", "b", "c"]],
    ["(cd sub && make) ; echo done", ["cd sub", "make", "echo done"]],
    ["{ a; b; } > out.txt", ["a", "b", "> out.txt"]],
    ["{ a; b; } > /dev/null 2>&1", ["a", "b"]],
    ["echo $(rm -rf /) `id`", ["rm -rf /", "id", "echo $(rm -rf /) `id`"]],
    ['echo "$(date +%s)"', ["date +%s", 'echo "$(date +%s)"']],
    ["X=$(whoami) make", ["whoami", "X=$(whoami) make"]],
    ["diff <(ls a) >(tee b)", ["ls a", "tee b", "diff <(ls a) >(tee b)"]],
    ["cat <<EOF\nhello $(whoami)\nEOF", ["whoami", "cat <<EOF"]],
    ["cat <<'EOF'\n$(not run)\nEOF", ["cat <<'EOF'"]],
    ["if test -f x; then rm x; elif true; then :; else echo no; fi", ["test -f x", "rm x", "true", ":", "echo no"]],
    ["for f in $(ls); do rm $f; done", ["ls", "rm $f"]],
    ["while read l; do echo $l; done < in.txt", ["read l", "echo $l"]],
    ["case $x in a) rm a;; *) ls;; esac", ["rm a", "ls"]],
    ["f() { rm -rf /tmp/x; }; f", ["rm -rf /tmp/x", "f"]],
    ["[[ -n $(git diff) ]] && git commit", ["git diff", "[[ -n $(git diff) ]]", "git commit"]],
    ["echo $(( $(wc -l < f) + 1 ))", ["wc -l < f", "echo $(( $(wc -l < f) + 1 ))"]],
    ["sleep 1 & wait", ["sleep 1", "wait"]],
    ["coproc cat", ["cat"]],
  ])("%j", (command, expected) => {
    expect(texts(command)).toEqual(expected);
  });

  it("reads the strings shells and eval run: bash -c, sh -lc, eval, a shell fed a heredoc or herestring", () => {
    expect(texts("bash -c 'git status && rm -rf ~'")).toEqual(["git status", "rm -rf ~"]);
    // A login shell reads start-up files first: it stays a part of its own.
    expect(texts('sh -c "npm test"')).toEqual(["npm test"]);
    expect(texts('sh -lc "npm test"')).toEqual(["npm test", 'sh -lc "npm test"']);
    expect(texts("eval 'rm -rf /' ")).toEqual(["rm -rf /"]);
    expect(texts("bash <<EOF\nrm -rf ~\nEOF")).toEqual(["rm -rf ~"]);
    expect(texts("bash <<< 'rm -rf ~'")).toEqual(["rm -rf ~"]);
    expect(texts("bash -c \"bash -c 'rm -rf /'\"")).toEqual(["rm -rf /"]);
    // Nested parts remember how they were reached.
    expect(split("bash -c 'rm -rf /'").parts[0]!.via).toEqual(["bash -c"]);
    expect(split("echo $(rm x)").parts[0]!.via).toEqual(["$(…)"]);
  });

  it("keeps the outer command when something wraps the shell (sudo, env assignments, output files)", () => {
    expect(texts("sudo bash -c 'git status'")).toEqual(["git status", "sudo bash -c 'git status'"]);
    expect(texts("X=1 bash -c 'ls'")).toEqual(["ls", "X=1 bash -c 'ls'"]);
    expect(texts("bash -c 'ls' > out.txt")).toEqual(["ls", "bash -c 'ls' > out.txt"]);
    // A dynamic string cannot be read: the shell stays one opaque part.
    expect(texts('bash -c "$CMD"')).toEqual(['bash -c "$CMD"']);
    // A script file is not read.
    expect(texts("bash build.sh")).toEqual(["bash build.sh"]);
  });

  it("adds the commands find -exec and xargs run", () => {
    expect(texts("find . -name '*.o' -exec rm -f {} \\;")).toEqual(["rm -f {}", "find . -name '*.o' -exec rm -f {} \\;"]);
    expect(texts("find . -execdir chmod 644 {} + -exec touch {} \\;")).toEqual(["chmod 644 {}", "touch {}", "find . -execdir chmod 644 {} + -exec touch {} \\;"]);
    expect(texts("ls | xargs -n 1 -I X rm -rf X")).toEqual(["ls", "rm -rf X (input)", "xargs -n 1 -I X rm -rf X"]);
    expect(texts("find . -type d -exec sh -c 'rm -rf \"$0\"' {} \\;")).toEqual(["sh -c 'rm -rf \"$0\"' {}", 'rm -rf "$0"', "find . -type d -exec sh -c 'rm -rf \"$0\"' {} \\;"]);
    expect(split("ls | xargs sh -c 'rm -rf ~'").parts[2]!.via).toEqual(["xargs", "sh -c"]);
  });

  it("reports syntax errors instead of guessing", () => {
    expect(split("if true; then echo 'open").errors.length).toBeGreaterThan(0);
    expect(split("bash -c 'echo \"unclosed'").errors[0]).toMatch(/^bash -c: /);
    expect(split("git status").errors).toEqual([]);
  });

  it("finds functions that spawn copies of themselves (fork bombs), but not ordinary recursion", () => {
    expect(split(":(){ :|:& };:").selfSpawningFunctions).toEqual([":"]);
    expect(split("bomb() { bomb & bomb; }; bomb").selfSpawningFunctions).toEqual(["bomb"]);
    expect(split("walk() { [ $1 -gt 0 ] && walk $(( $1 - 1 )); }; walk 3").selfSpawningFunctions).toEqual([]);
  });

  it("follows cd so later relative paths resolve where they run", () => {
    const cwds = (command: string, cwd?: string) => split(command, cwd).parts.map((p) => p.cwd);
    expect(cwds("cd sub && rm -rf build")).toEqual(["/ws", "/ws/sub"]);
    expect(cwds("cd .. && rm -rf x")).toEqual(["/ws", "/"]);
    expect(cwds("cd ~/p; ls")).toEqual(["/ws", "/home/me/p"]);
    expect(cwds("cd; ls")).toEqual(["/ws", HOME]);
    expect(cwds("cd $X && ls")).toEqual(["/ws", undefined]);
    expect(cwds("cd - && ls")).toEqual(["/ws", undefined]);
    // A subshell or a pipeline element changes nothing after it.
    expect(cwds("(cd /etc) ; ls")).toEqual(["/ws", "/ws"]);
    expect(cwds("cd /etc | cat ; ls")).toEqual(["/ws", "/ws", "/ws"]);
    // A cd that may or may not happen makes the directory unknown.
    expect(cwds("if x; then cd /etc; fi; ls")).toEqual(["/ws", "/ws", undefined]);
  });

  it("records what feeds a command through a pipe", () => {
    const parts = split("curl -s x | tee log | sh").parts;
    expect(parts[2]!.pipedFrom.map((p) => p.text)).toEqual(["curl -s x", "tee log"]);
    expect(parts[0]!.pipedFrom).toEqual([]);
  });
});

describe("wordInfo: the static meaning of a word", () => {
  const word = (text: string): ShellWord => {
    const cmd = lib.parse(`x ${text}`).commands[0]!.command;
    if (cmd.type !== "Command") throw new Error("not a command");
    return wordInfo(cmd.args[0] as never, HOME);
  };
  it.each<[string, Partial<ShellWord>]>([
    ["plain", { value: "plain" }],
    ["'single quoted'", { value: "single quoted" }],
    ['"double $HOME"', { value: "double /home/me" }],
    ["${HOME}/x", { value: "/home/me/x" }],
    ["$'a\\tb'", { value: "a\tb" }],
    ["$DIR/x", { expansion: "$DIR" }],
    ['"${X:-/}"', { expansion: "${X:-/}" }],
    ["$(pwd)", { expansion: "$(pwd)" }],
    ["build/*.o", { globPrefix: "build/" }],
    ["{~,/tmp}/x", { expansion: "{~,/tmp}" }],
    ["'*'", { value: "*" }],
    ["~/x", { value: "~/x" }],
  ])("%s", (text, expected) => {
    expect(word(text)).toMatchObject(expected);
  });
});

describe("unwrap: the command behind wrappers", () => {
  const words = (command: string): ShellWord[] => split(command).parts.at(-1)!.words as ShellWord[];
  const inner = (command: string) =>
    unwrap(words(command))
      .inner.map((w) => w.text)
      .join(" ");
  it.each<[string, string, string[]]>([
    ["sudo rm -rf /", "rm -rf /", ["sudo"]],
    ["sudo -u root -E rm x", "rm x", ["sudo"]],
    ["sudo -- rm x", "rm x", ["sudo"]],
    ["env -i A=1 B=2 rm x", "rm x", ["env"]],
    ["nice -n 10 ionice -c 3 rm x", "rm x", ["nice", "ionice"]],
    ["timeout -s KILL 10 git push -f", "git push -f", ["timeout"]],
    ["nohup setsid stdbuf -oL make", "make", ["nohup", "setsid", "stdbuf"]],
    ["/usr/bin/sudo doas command rm x", "rm x", ["sudo", "doas", "command"]],
    ["command -v rm", "command -v rm", []],
    ["sudo -l", "sudo -l", []],
    ["sudo", "", ["sudo"]],
  ])("%s", (command, expected, wrappers) => {
    expect(inner(command)).toBe(expected);
    expect(unwrap(words(command)).wrappers).toEqual(wrappers);
  });
});

describe("unwrap: wrappers beyond sudo and env", () => {
  const words = (command: string): ShellWord[] => split(command).parts.at(-1)!.words as ShellWord[];
  it.each<[string, string, string[]]>([
    ["flock -w 5 /tmp/lock rm x", "rm x", ["flock"]],
    ["taskset -c 0 rm x", "rm x", ["taskset"]],
    ["chrt -o 0 rm x", "rm x", ["chrt"]],
    ["strace -f -o /dev/null rm x", "rm x", ["strace"]],
    ["busybox rm x", "rm x", ["busybox"]],
    ["setsid -w nohup time rm x", "rm x", ["setsid", "nohup", "time"]],
    ["prlimit --nofile=10 unshare rm x", "rm x", ["prlimit", "unshare"]],
    ["taskset -p 1234", "taskset -p 1234", []],
  ])("%s", (command, expected, wrappers) => {
    const u = unwrap(words(command));
    expect(u.inner.map((w) => w.text).join(" ")).toBe(expected);
    expect(u.wrappers).toEqual(wrappers);
  });

  it("collects the command strings wrappers hand to a shell or split into words", () => {
    expect(unwrap(words("flock /tmp/l -c 'rm x'")).strings.map((w) => w.value)).toEqual(["rm x"]);
    expect(unwrap(words("env -S 'rm -f x'")).strings.map((w) => w.value)).toEqual(["rm -f x"]);
    expect(unwrap(words("env --split-string='rm -f x'")).strings.map((w) => w.value)).toEqual(["rm -f x"]);
    expect(texts("flock /tmp/l -c 'rm x'")).toEqual(["rm x", "flock /tmp/l -c 'rm x'"]);
    expect(texts("watch 'rm -rf x'")).toEqual(["rm -rf x", "watch 'rm -rf x'"]);
    expect(texts("watch -n 1 rm -rf x")).toEqual(["rm -rf x", "watch -n 1 rm -rf x"]);
    expect(texts("watch -x rm -rf x")).toEqual(["rm -rf x", "watch -x rm -rf x"]);
    expect(texts("parallel ::: 'rm a' 'rm b'")).toEqual(["rm a", "rm b", "parallel ::: 'rm a' 'rm b'"]);
    expect(texts("trap 'rm -rf x' EXIT")).toEqual(["rm -rf x", "trap 'rm -rf x' EXIT"]);
    expect(texts("alias r='rm -f'")).toEqual(["rm -f", "alias r='rm -f'"]);
    expect(texts("hash -p /bin/rm r")).toEqual(["/bin/rm", "hash -p /bin/rm r"]);
  });
});

describe("splitCommand: what statements change for later ones", () => {
  it("records assignments, exports, options, aliases and functions", () => {
    const s = split("PATH=/x:$PATH; export GIT_DIR=.g; n=1; set -e; alias ll='ls -l'; f() { :; }; for i in a; do :; done");
    expect(s.changes.map((c) => [c.text, c.name, c.assignment, c.exports ?? false, c.opaque ?? false])).toEqual([
      ["PATH=/x:$PATH", "PATH", undefined, false, false],
      ["export GIT_DIR=.g", "GIT_DIR", "GIT_DIR=.g", true, false],
      ["n=1", "n", "n=1", false, false],
      ["alias ll='ls -l'", undefined, undefined, false, true],
      ["for i in …", "i", undefined, false, false],
    ]);
    expect(s.functions).toEqual(["f"]);
    expect(s.exportsAll).toBe(false);
    expect(split("set -a; x=1").exportsAll).toBe(true);
  });

  it("settles hidden code with the values the command gives its variables", () => {
    const hidden = (command: string) => split(command).parts.flatMap((p) => p.hiddenCode.map((h) => h.text));
    expect(hidden("i=0; echo $((i + 1))")).toEqual([]);
    expect(hidden("echo $((LINES / 2))")).toEqual([]);
    expect(hidden("x='a[$(id)]'; echo $((x))")).toEqual(["$((x))"]);
    expect(hidden("x='a[$(id)]'; y=x; echo $((y))")).toEqual(["$((y))"]);
    expect(hidden("x=$(cat n.txt); echo $((x + 1))")).toEqual(["$((x + 1))"]);
    expect(hidden("read n < n.txt; echo $((n))")).toEqual(["$((n))"]);
    expect(hidden("f() { echo $(($1)); }")).toEqual(["$(($1))"]);
    expect(hidden("echo ${x@P} ${x@Q}")).toEqual(["${x@P}"]);
    expect(hidden("echo ${!prefix*} ${!arr[@]}")).toEqual([]);
    expect(hidden("RANDOM='a[$(id)]'")).toEqual(["RANDOM='a[$(id)]'"]);
    expect(split("case $((x)) in *) ;; esac; x=$1").hiddenCode.map((h) => h.text)).toEqual(["$((x))"]);
  });

  it("makes [[ … ]] and (( … )) parts of their own", () => {
    const parts = split("[[ -f a && $x == y ]] && (( n > 1 ))").parts;
    expect(parts.map((p) => [p.text, p.compound, p.inertTest])).toEqual([
      ["[[ -f a && $x == y ]]", "[[", true],
      ["(( n > 1 ))", "((", undefined],
    ]);
    expect(split("[[ $n -eq 1 ]]").parts[0]!.inertTest).toBe(false);
  });

  it("marks shells that run start-up files first", () => {
    const startup = (command: string) =>
      split(command)
        .parts.map((p) => p.startupFiles)
        .filter(Boolean).length;
    expect(startup("bash -c 'ls'")).toBe(0);
    expect(startup("bash -lc 'ls'")).toBe(1);
    expect(startup("bash --rcfile x -i -c ls")).toBe(1);
    expect(startup("HOME=/tmp/h; zsh -c ls")).toBe(1);
    expect(startup("env BASH_ENV=x bash -c ls")).toBe(1);
  });
});

describe("splitCommand: integer variables", () => {
  it("an assignment of a subscript runs code once a variable is declared integer", () => {
    const hidden = (command: string) => split(command).parts.flatMap((p) => p.hiddenCode.map((h) => h.text));
    expect(hidden("n='a[$(id)]'")).toEqual([]);
    expect(hidden("declare -i n; n='a[$(id)]'")).toEqual(["n='a[$(id)]'"]);
    expect(hidden("integer n; n='a[$(id)]'")).toEqual(["n='a[$(id)]'"]);
  });
});
