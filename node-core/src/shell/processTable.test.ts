import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { waitFor } from "../../test/support/processes.js";
import { collectTree } from "./killTree.js";
import { platformWith } from "../../test/support/platform.js";
import { linuxProcessTable, markerMatches, markerValue, parseProcStat, parsePsOutput, procArguments, psProcessTable } from "./processTable.js";

describe("process table", () => {
  it("parses /proc/<pid>/stat, names with spaces and parentheses included", () => {
    expect(parseProcStat("4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 0")).toEqual({ pid: 4242, ppid: 1, pgid: 4242, state: "S", name: "my (odd) name" });
    expect(parseProcStat("garbage")).toBeUndefined();
  });

  it("reads the run marker from an environment block and matches runs and prefixes", () => {
    const env = Buffer.from("A=1\0WAVE_RUN_IDX=no\0WAVE_RUN_ID=abcd1234.3.7:outer.1.2\0Z=2\0");
    expect(markerValue(env)).toBe("abcd1234.3.7:outer.1.2");
    expect(markerValue(Buffer.from("WAVE_RUN_ID=x"))).toBe("x");
    expect(markerValue(Buffer.from("A=1\0"))).toBeUndefined();
    expect(markerMatches("abcd1234.3.7:outer.1.2", { runId: "abcd1234.3.7" })).toBe(true);
    expect(markerMatches("abcd1234.3.70", { runId: "abcd1234.3.7" })).toBe(false);
    expect(markerMatches("abcd1234.3.7:outer.1.2", { prefix: "outer.1." })).toBe(true);
    expect(markerMatches("abcd1234.3.7", { prefix: "abcd1234.4." })).toBe(false);
  });

  it("lists live processes from /proc, without zombies", async () => {
    const child = spawn("bash", ["-c", "sleep 0.1 & exec sleep 300"], { detached: true, stdio: "ignore" });
    try {
      // `sleep 0.1` becomes a zombie of the exec'd `sleep 300`, which never reaps it.
      const zombieChild = () =>
        readdirSync("/proc").some((d) => {
          if (!/^\d+$/.test(d)) return false;
          const info = (() => {
            try {
              return parseProcStat(readFileSync(`/proc/${d}/stat`, "latin1"));
            } catch {
              return undefined;
            }
          })();
          return info?.ppid === child.pid && info?.state === "Z";
        });
      expect(await waitFor(zombieChild, 5000)).toBe(true);
      const procs = await linuxProcessTable.list();
      expect(procs.find((p) => p.pid === child.pid)).toMatchObject({ pgid: child.pid, name: "sleep" });
      expect(procs.some((p) => p.ppid === child.pid)).toBe(false);
      expect(linuxProcessTable.commandLine(child.pid!)).toBe("sleep 300");
      expect(procArguments(child.pid!)).toBe("sleep 300");
      // A process the kernel shows no arguments for (a zombie here; one in the middle of exec
      // too) has no command line: the runner looks at such a survivor again.
      const zombie = Number(readdirSync("/proc").find((d) => /^\d+$/.test(d) && parseProcStat(readFileSync(`/proc/${d}/stat`, "latin1"))?.ppid === child.pid));
      expect(procArguments(zombie)).toBeUndefined();
    } finally {
      process.kill(-child.pid!, "SIGKILL");
    }
  });

  it("parses ps output (macOS, recorded) and walks groups and children with it", async () => {
    const recorded = [
      "    1     0     1 Ss   /sbin/launchd",
      "  501     1   501 S    /Applications/IntelliJ IDEA.app/Contents/MacOS/idea",
      "  777   501   777 Ss   /bin/zsh -c npm test",
      "  778   777   777 S    node /usr/local/bin/npm test",
      "  779   778   779 S    node vitest worker",
      "  780   778   777 Z    (node)",
      "  900     1   900 S    /usr/sbin/unrelated",
      "",
    ].join("\n");
    const rows = parsePsOutput(recorded);
    expect(rows.map((r) => r.pid)).toEqual([1, 501, 777, 778, 779, 900]);
    expect(rows[2]).toMatchObject({ ppid: 501, pgid: 777, state: "S", name: "zsh", command: "/bin/zsh -c npm test" });
    const platform = platformWith({
      name: "darwin",
      exec: async (file, args) => {
        expect([file, ...args]).toEqual(["ps", "-axo", "pid=,ppid=,pgid=,stat=,command="]);
        return { exitCode: 0, stdout: Buffer.from(recorded), stderr: Buffer.alloc(0) };
      },
    });
    const table = psProcessTable(platform);
    const tree = await collectTree({ pid: 777, label: "npm test" }, table);
    // The group (777, 778) and the worker that moved to its own group (779) through its parent.
    expect(tree.map((p) => p.pid).sort()).toEqual([777, 778, 779]);
    expect(table.commandLine(779)).toBe("node vitest worker");
    expect(table.readsMarkers).toBe(false);
  });
});
