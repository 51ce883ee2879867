import { describe, expect, it } from "vitest";
import { applyReplacements, findAll, nearMissHint, normalizeCrlf } from "./replace.js";
import { detectLineEndings } from "./textCodec.js";

function replace(original: string, oldString: string, newString: string) {
  const { normalized, crlfAt } = normalizeCrlf(original);
  const positions = findAll(normalized, oldString);
  return applyReplacements(original, normalized, crlfAt, positions, oldString, newString, () => detectLineEndings(original).dominant);
}

describe("lossless replacement", () => {
  it("FS-EDIT-4 matches an LF old_string in a CRLF file and writes the replacement with CRLF", () => {
    const r = replace("a\r\nb\r\nc\r\n", "a\nb", "x\ny\nz");
    expect(r.text).toBe("x\r\ny\r\nz\r\nc\r\n");
    expect(r.oldNormalized).toBe("a\nb\nc\n");
    expect(r.newNormalized).toBe("x\ny\nz\nc\n");
  });

  it("FS-EDIT-4 keeps untouched lines of a mixed file byte-identical and gives new lines the local ending", () => {
    const original = "win1\r\nwin2\r\nunix1\nunix2\nend";
    expect(replace(original, "unix1", "unix1\nadded").text).toBe("win1\r\nwin2\r\nunix1\nadded\nunix2\nend");
    expect(replace(original, "win2", "win2\nadded").text).toBe("win1\r\nwin2\r\nadded\r\nunix1\nunix2\nend");
  });

  it("FS-EDIT-4 keeps a missing final newline missing", () => {
    expect(replace("one\r\ntwo", "two", "2").text).toBe("one\r\n2");
  });

  it("FS-EDIT-1 inserts $&, $1 and $$ literally and reports each changed region", () => {
    const r = replace("let a = 1; let a = 1;", "a = 1", "$& $1 $$");
    expect(r.text).toBe("let $& $1 $$; let $& $1 $$;");
    expect(r.count).toBe(2);
    expect(r.regions).toEqual([
      { oldStart: 4, oldEnd: 9, newStart: 4, newEnd: 12 },
      { oldStart: 15, oldEnd: 20, newStart: 18, newEnd: 26 },
    ]);
  });

  it("FS-EDIT-6 hints at a block that matches when whitespace or quote style is ignored", () => {
    const file = "function f() {\n\tif (x) {\n\t\treturn \u201cy\u201d;\n\t}\n}\n";
    expect(nearMissHint(file, '  if (x) {\n    return "y";')).toMatch(/line 2 matches.*quote/);
    expect(nearMissHint(file, "nothing like it")).toBeUndefined();
  });
});
