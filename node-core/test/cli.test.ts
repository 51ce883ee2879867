// The command line as a script or a person uses it: exit codes, help, one-shot calls.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLE } from "./support/coreProcess.js";
import { makeWorkspace } from "./transcript.js";

/** The host's network interfaces, as /proc/net/dev lists them. */
function tailOfProcNetDev(): string[] {
  return readFileSync("/proc/net/dev", "utf8")
    .split("\n")
    .slice(2)
    .map((l) => l.split(":")[0]!.trim())
    .filter(Boolean)
    .sort();
}

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], { encoding: "utf8", input, timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("wave-core CLI", () => {
  it("prints help with every command, and per-command help", () => {
    const main = run(["--help"]);
    expect(main.code).toBe(0);
    for (const cmd of ["serve", "mcp", "call"]) expect(main.stdout).toContain(`wave-core ${cmd}`);
    for (const cmd of ["serve", "mcp", "call"]) {
      const r = run([cmd, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: wave-core ${cmd}`));
    }
  });

  it("exits 2 with the help when no command is given, and on an unknown command", () => {
    expect(run([]).code).toBe(2);
    const r = run(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown command "frobnicate".*serve, mcp, call/);
  });

  it("--sandbox and --sandbox-network choose the sandbox of a call's commands; a bad value is a usage error", () => {
    const root = makeWorkspace();
    const inside = run(["call", "Bash", '{"command":"touch /etc/wave-cli-probe 2>&1; true"}', "--root", root, "--json"]);
    expect(JSON.parse(inside.stdout).structuredContent).toMatchObject({ sandboxed: true, output: "touch: cannot touch '/etc/wave-cli-probe': Read-only file system\n" });
    const off = run(["call", "Bash", '{"command":"echo plain"}', "--root", root, "--sandbox", "off"]);
    expect(off.stdout).toBe("plain\nRan outside the sandbox: sandbox mode is off.\n");
    // The interfaces the command's network namespace has: only its own loopback with deny.
    const interfaces = (extra: string[]) =>
      run(["call", "Bash", `{"command":"tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort"}`, "--root", root, ...extra])
        .stdout.trim()
        .split("\n");
    expect(interfaces(["--sandbox-network", "deny"])).toEqual(["lo"]);
    expect(interfaces([])).toEqual(tailOfProcNetDev());
    for (const [flag, value, message] of [
      ["--sandbox", "sometimes", 'Unknown sandbox mode "sometimes"; use --sandbox auto|on|off.'],
      ["--sandbox-network", "some", 'Unknown sandbox network setting "some"; use --sandbox-network allow|deny.'],
    ]) {
      const bad = run(["call", "Bash", '{"command":"true"}', "--root", root, flag!, value!]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe(`wave-core: ${message}\n`);
    }
    expect(run(["serve", "--help"]).stdout).toContain("--sandbox MODE");
  });

  it("prints its version", () => {
    expect(run(["--version"]).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("HOST-3 call runs a tool headless: prints the text result and exits 0", () => {
    const root = makeWorkspace();
    const r = run(["call", "Read", '{"file_path":"notes.txt","limit":1}', "--root", root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\s+1\thello from the workspace\n/);
  });

  it("call --json prints the MCP-shaped result; arguments may come from stdin", () => {
    const root = makeWorkspace();
    const r = run(["call", "Read", "-", "--json", "--root", root], '{"file_path":"notes.txt"}');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ isError: false, structuredContent: { totalLines: 3 }, content: [{ type: "text" }] });
  });

  it("call runs a Bash command with the allow-all default; warnings go to stderr; --deny still applies", () => {
    const root = makeWorkspace();
    writeFileSync(path.join(root, "f.txt"), "x");
    const r = run(["call", "Bash", '{"command":"chmod 666 f.txt && touch made.txt && echo done"}', "--root", root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(r.stderr).toMatch(/^wave-core: warning: chmod mode 666 makes them writable by every user\.$/m);
    expect(r.stderr.match(/writable by every user/g)).toHaveLength(1);
    expect(statSync(path.join(root, "f.txt")).mode & 0o777).toBe(0o666);
    expect(existsSync(path.join(root, "made.txt"))).toBe(true);

    const denied = run(["call", "Bash", '{"command":"touch denied.txt"}', "--root", root, "--deny", "touch:*"]);
    expect(denied.code).toBe(1);
    expect(denied.stdout).toMatch(/^Permission denied: Bash may not run `touch denied\.txt`\. .*deny rule `touch:\*`/);
    expect(existsSync(path.join(root, "denied.txt"))).toBe(false);
  });

  it("call in ask or deny-all mode refuses what no rule allows and names the --allow rule (no sandbox: inside one, ask runs it)", () => {
    const root = makeWorkspace();
    for (const mode of ["ask", "deny-all"]) {
      const r = run(["call", "run_shell_command", '{"command":"touch made.txt"}', "--root", root, "--permission-mode", mode, "--sandbox", "off"]);
      expect(r.code, mode).toBe(1);
      expect(r.stdout, mode).toMatch(/--allow 'touch:\*'/);
      expect(existsSync(path.join(root, "made.txt"))).toBe(false);
    }
    const ok = run(["call", "run_shell_command", '{"command":"touch made.txt"}', "--root", root, "--permission-mode", "ask", "--allow", "touch:*"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Command: touch made\.txt\nDirectory: \(root\)\n/);
    expect(existsSync(path.join(root, "made.txt"))).toBe(true);
  });

  it("call exits 1 when the tool reports an error", () => {
    const r = run(["call", "Read", '{"file_path":"missing.txt"}', "--root", makeWorkspace()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/does not exist/);
  });

  it("FS-EDIT-5 call Edits and Writes an existing file without a Read first (each call is its own session), and its help says so", () => {
    const root = makeWorkspace();
    writeFileSync(path.join(root, "f.txt"), "teh answer\n");
    const edit = run(["call", "Edit", '{"file_path":"f.txt","old_string":"teh","new_string":"the"}', "--root", root]);
    expect(edit.stderr).toBe("");
    expect(edit.code).toBe(0);
    expect(readFileSync(path.join(root, "f.txt"), "utf8")).toBe("the answer\n");
    const write = run(["call", "Write", '{"file_path":"f.txt","content":"rewritten\\n"}', "--root", root]);
    expect(write.code).toBe(0);
    expect(write.stdout).toMatch(/^Overwrote .*f\.txt \(1 line, 10 characters\)\./);
    expect(readFileSync(path.join(root, "f.txt"), "utf8")).toBe("rewritten\n");
    // The help says so.
    expect(run(["call", "--help"]).stdout).toContain("Edit, Write   no Read is needed first: the file counts as read as it is when the call starts");
  });

  it("BASH-BG-1 call says at once that a background task ends with the call, and it does", () => {
    const root = makeWorkspace();
    const marker = `wave-cli-bg-${process.pid}-${Date.now()}`;
    const r = run(["call", "Bash", JSON.stringify({ command: `sleep 300 # ${marker}`, run_in_background: true }), "--root", root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Command running in background with ID: (\w+)\. Output is being written to: /);
    const id = /ID: (\w+)\./.exec(r.stdout)![1];
    expect(r.stderr).toBe(
      `wave-core: background task ${id} stops now: wave-core call ends the tasks it started when it exits. To keep a command running, run it through wave-core mcp or serve (where TaskStop can stop it later); to wait for it, run it in the foreground with a larger timeout.\n`,
    );
    const left = spawnSync("pgrep", ["-f", marker], { encoding: "utf8" });
    expect(left.stdout).toBe("");
  });

  it("call's usage errors name what was meant: --jsn is --json, bash is Bash, and no arguments asks for them as JSON", () => {
    const root = makeWorkspace();
    const jsn = run(["call", "Read", '{"file_path":"notes.txt"}', "--jsn", "--root", root]);
    expect(jsn.code).toBe(2);
    expect(jsn.stderr).toBe("wave-core: Unknown option --jsn. Did you mean --json? See wave-core call --help.\n");
    const bash = run(["call", "bash", '{"command":"true"}', "--root", root]);
    expect(bash.code).toBe(2);
    expect(bash.stderr).toBe('wave-core: Unknown tool "bash". Did you mean Bash? Tool names are case-sensitive. Available tools: Bash, TaskStop, Read, Edit, Write, Glob, Grep, run_shell_command.\n');
    const bare = run(["call", "Read", "--root", root]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(`wave-core: Give Read's arguments as JSON, e.g. wave-core call Read '{"file_path":"…"}' (required: file_path). See wave-core call --help.\n`);
    const missing = run(["call", "Edit", '{"file_path":"notes.txt"}', "--root", root]);
    expect(missing.stderr).toBe("wave-core: Invalid arguments for Edit: old_string: missing (required: a string); new_string: missing (required: a string)\n");
  });

  it.each([
    [["call"], /needs a tool name/],
    [["call", "Read", "{not json"], /not valid JSON/],
    [["call", "Read", "[1,2]"], /must be a JSON object/],
    [["call", "NoSuchTool", "{}"], /Unknown tool "NoSuchTool"/],
    [["call", "Read", '{"file_path":1}'], /file_path/],
    [["call", "Read", "{}", "extra"], /Unexpected arguments/],
    [["call", "Read", "{}", "--bogus"], /Unknown option/],
    [["serve", "--root", "/definitely/not/here"], /--root must be an existing directory/],
  ])("usage error %j exits 2 with a message", (args, message) => {
    const r = run(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
  });
});
