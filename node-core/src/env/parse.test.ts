import { describe, expect, it } from "vitest";
import { DROPPED_KEYS, parseProbeOutput, parseSingleValue } from "./parse.js";
import { newMarkers } from "./probeCommand.js";

const m = newMarkers("t");
const nul = (entries: string[]) => `${m.start}\n${entries.map((e) => e + "\0").join("")}${m.end}\n`;

describe("BASH-ENV-2 parsing the probe output", () => {
  it("BASH-ENV-2 splits NUL-separated entries between the markers, keeping values with newlines and '='", () => {
    const out = nul(["PATH=/a:/b", "MULTI=line1\nline2", "EQ=a=b=c", "EMPTY="]);
    const parsed = parseProbeOutput(out, m);
    expect(parsed.ok && parsed.mode).toBe("nul");
    if (!parsed.ok) return;
    expect(Object.fromEntries(parsed.variables)).toEqual({ PATH: "/a:/b", MULTI: "line1\nline2", EQ: "a=b=c", EMPTY: "" });
  });

  it("BASH-ENV-2 ignores everything a profile prints before the start marker and after the end marker", () => {
    const banner = "Welcome!\nPATH=/evil\n\0HTTPS_PROXY=http://evil\0\n";
    const logout = "HTTPS_PROXY=http://after\nbye\n";
    const parsed = parseProbeOutput(banner + nul(["PATH=/good"]) + logout, m);
    expect(parsed.ok && Object.fromEntries(parsed.variables)).toEqual({ PATH: "/good" });
  });

  it("BASH-ENV-2 only a whole-line start marker counts (a banner quoting it is ignored)", () => {
    const spoof = `echo "${m.start}" PATH=/evil\n`;
    const parsed = parseProbeOutput(spoof + nul(["PATH=/good"]), m);
    expect(parsed.ok && Object.fromEntries(parsed.variables)).toEqual({ PATH: "/good" });
  });

  it("BASH-ENV-2 falls back to line parsing when `env -0` failed (no end marker), and says so", () => {
    const out = `${m.start}\nPATH=/a:/b\nHTTPS_PROXY=http://p\n`;
    const parsed = parseProbeOutput(out, m);
    expect(parsed.ok && parsed.mode).toBe("lines");
    expect(parsed.ok && Object.fromEntries(parsed.variables)).toEqual({ PATH: "/a:/b", HTTPS_PROXY: "http://p" });
  });

  it("BASH-ENV-2 handles CRLF line ends", () => {
    const parsed = parseProbeOutput(`${m.start}\r\nPATH=/a\r\n`, m);
    expect(parsed.ok && Object.fromEntries(parsed.variables)).toEqual({ PATH: "/a" });
  });

  it("BASH-ENV-2 reports output without the start marker, a cut-off listing and an empty one", () => {
    const none = parseProbeOutput("Welcome!\n", m);
    expect(none.ok).toBe(false);
    expect(!none.ok && none.startMarkerSeen).toBe(false);
    expect(!none.ok && none.reason).toContain("no start marker");
    const cut = parseProbeOutput(`${m.start}\nPATH=/a\0HOME=/h`, m);
    expect(!cut.ok && cut.reason).toContain("cut off");
    const empty = parseProbeOutput(`${m.start}\n`, m);
    expect(!empty.ok && empty.startMarkerSeen).toBe(true);
    expect(!empty.ok && empty.reason).toContain("`env` could not run");
  });

  it("BASH-ENV-2 an empty NUL listing is a valid (empty) environment", () => {
    const parsed = parseProbeOutput(`${m.start}\n${m.end}\n`, m);
    expect(parsed.ok && parsed.variables.size).toBe(0);
  });
});

describe("BASH-ENV-6 keys the parse drops", () => {
  it("BASH-ENV-6 drops PWD, OLDPWD, SHLVL, _ and the anti-noise variables in both modes", () => {
    const keys = [
      "PWD=/x",
      "OLDPWD=/y",
      "SHLVL=2",
      "_=/usr/bin/env",
      "DISABLE_AUTO_UPDATE=true",
      "ZSH_DISABLE_COMPFIX=true",
      "SSH_ASKPASS_REQUIRE=never",
      "DBUS_SESSION_BUS_ADDRESS=disabled:",
      "KEEP=1",
    ];
    const viaNul = parseProbeOutput(nul(keys), m);
    const viaLines = parseProbeOutput(`${m.start}\n${keys.join("\n")}\n`, m);
    for (const parsed of [viaNul, viaLines]) expect(parsed.ok && [...parsed.variables.keys()]).toEqual(["KEEP"]);
    expect([...DROPPED_KEYS].sort()).toEqual(["DBUS_SESSION_BUS_ADDRESS", "DISABLE_AUTO_UPDATE", "OLDPWD", "PWD", "SHLVL", "SSH_ASKPASS_REQUIRE", "ZSH_DISABLE_COMPFIX", "_"]);
  });

  it("BASH-ENV-6 line mode drops keys whose values span lines, including ones ending in a newline", () => {
    const out = [m.start, "A=1", "NO_PROXY=first", "second line", "B=2", "TRAIL=x", "", "C=3", "BASH_FUNC_f%%=() {  echo hi", "}", "D=4", ""].join("\n");
    const parsed = parseProbeOutput(out, m);
    expect(parsed.ok && parsed.mode).toBe("lines");
    if (!parsed.ok) return;
    expect(Object.fromEntries(parsed.variables)).toEqual({ A: "1", B: "2", C: "3", D: "4" });
    expect(parsed.droppedMultiline).toEqual(["NO_PROXY", "TRAIL"]);
  });

  it("BASH-ENV-6 line mode drops a key listed twice (one may be a forged continuation line)", () => {
    const out = [m.start, "NOTE=x", "HTTPS_PROXY=http://a", "HTTPS_PROXY=http://b", "E=5", ""].join("\n");
    const parsed = parseProbeOutput(out, m);
    expect(parsed.ok && Object.fromEntries(parsed.variables)).toEqual({ NOTE: "x", E: "5" });
  });
});

describe("BASH-ENV-9 reading one value between markers (PATH-only and Windows)", () => {
  it("BASH-ENV-9 takes the last non-empty line between the markers", () => {
    const out = `banner\n${m.start}\r\nC:\\Users\\u\\bin;C:\\Windows\r\n${m.end}\r\nlogout noise\n`;
    expect(parseSingleValue(out, m)).toEqual({ ok: true, value: "C:\\Users\\u\\bin;C:\\Windows" });
  });

  it("BASH-ENV-9 reports a missing start or end marker and an empty value", () => {
    expect(parseSingleValue("nothing", m).ok).toBe(false);
    expect(parseSingleValue(`${m.start}\nC:\\x`, m)).toMatchObject({ ok: false, reason: expect.stringContaining("no end marker") });
    expect(parseSingleValue(`${m.start}\n${m.end}\n`, m)).toMatchObject({ ok: false, reason: expect.stringContaining("empty") });
  });
});
