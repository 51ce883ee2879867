// The file tools against real processes changing the same files: an appender (every line it
// appended survives an Edit; an Edit whose file grew after it was read fails as stale, checked
// again right before the rename and once more after it, and the agent reads again as the message
// says), and a process that keeps moving a file away and back (Read reports it, never crashes).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeCores, testCore } from "../../test/support/core.js";
import { startAppender, startSymlinkSwapper } from "../../test/support/racers.js";
import { resultText } from "../core/tool.js";
import { writeHooks } from "./fileChange.js";

afterEach(closeCores);

describe("Edit with an external appender", () => {
  it("never drops a line another process appended between the read and the rename", async () => {
    const t = testCore();
    const file = path.join(t.root, "app.log");
    writeFileSync(file, "counter 0\n");
    const appender = await startAppender(file);
    // When each Edit's rename was done (it happens before the checks that follow it), on the
    // monotonic clock the appender's record uses too.
    const renamed: bigint[] = [];
    writeHooks.current = { afterRename: () => void renamed.push(process.hrtime.bigint()) };
    let edits = 0;
    let stale = 0;
    try {
      for (let attempt = 0; edits < 40 && attempt < 5_000; attempt++) {
        expect((await t.call("Read", { file_path: file })).isError).toBe(false);
        const r = await t.call("Edit", { file_path: file, old_string: `counter ${edits}\n`, new_string: `counter ${edits + 1}\n` });
        if (!r.isError) edits++;
        else {
          expect(r.structuredContent).toMatchObject({ errorKind: "stale" });
          expect(resultText(r)).toMatch(/has been modified since you last read it .* Read it again before editing it; your change was not applied\./);
          stale++;
        }
      }
    } finally {
      writeHooks.current = undefined;
      await appender.stop();
    }
    const timeline = appender.record();
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[0]).toBe(`counter ${edits}`);
    const appendedLines = lines.filter((l) => l.startsWith("appended "));
    const seen = new Set(appendedLines);
    expect(appendedLines.length, "no line is there twice").toBe(seen.size);
    // The one way a line may go (docs/user/file-tools.md, "What remains"): the appender opened the file, an Edit's
    // rename replaced it, and only after that did the appender write, into the replaced copy it
    // held open, as with any atomic save. A line written before a rename, however close to it,
    // must be there; under load, a stalled appender does hit that window now and then.
    const writtenAfterItsFileWasReplaced = (n: number) => renamed.some((t) => t > timeline[n]!.opened && t < timeline[n]!.writing);
    const missing = timeline.map((_, n) => n).filter((n) => !seen.has(`appended ${n}`));
    expect(missing.filter((n) => !writtenAfterItsFileWasReplaced(n))).toEqual([]);
    expect(seen.size).toBe(timeline.length - missing.length);
    // The race really happened: edits went through while lines kept arriving, and some were stale.
    expect(edits).toBe(40);
    expect(stale).toBeGreaterThan(0);
  });
});

describe("Read with a file that another process keeps moving", () => {
  it("answers every call with the content or a file error, never an internal error", async () => {
    const t = testCore();
    const file = path.join(t.root, "moving.txt");
    writeFileSync(file, "line\n".repeat(1000));
    // Moved away and briefly replaced by a link to another file: a Read that checked one of them
    // finds nothing there a moment later.
    const other = path.join(t.root, "other.txt");
    writeFileSync(other, "other\n");
    const racer = await startSymlinkSwapper(file, path.join(t.root, "moving.aside"), other);
    const kinds = new Set<string>();
    try {
      for (let i = 0; i < 1_000 || racer.rounds() < 2_000; i++) {
        const r = await t.call("Read", { file_path: file });
        expect(resultText(r)).not.toMatch(/Internal error/);
        kinds.add(r.isError ? "error" : "read");
      }
    } finally {
      await racer.stop();
    }
    expect(kinds.has("read")).toBe(true);
  });
});
