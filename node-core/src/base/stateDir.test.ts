import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountHome, waveStateDir, waveStateDirectories } from "./stateDir.js";

describe("Wave's state directories", () => {
  it("this process's own: WAVE_STATE_DIR, else ~/.wave", () => {
    expect(waveStateDir({ WAVE_STATE_DIR: "/x/state" }, "/h")).toBe("/x/state");
    expect(waveStateDir({ WAVE_STATE_DIR: "  " }, "/h")).toBe("/h/.wave");
    expect(waveStateDir({}, "/h")).toBe("/h/.wave");
    expect(waveStateDir({})).toBe(path.join(os.homedir(), ".wave"));
  });

  it("every one a core of this user may publish in: its own, and ~/.wave under HOME and under the account's home", () => {
    expect(waveStateDirectories({ WAVE_STATE_DIR: "/x/state" }, ["/h", "/account"])).toEqual(["/x/state", "/h/.wave", "/account/.wave"]);
    expect(waveStateDirectories({}, ["/h", "/h"])).toEqual(["/h/.wave"]);
    expect(waveStateDirectories({}, ["/h", undefined])).toEqual(["/h/.wave"]);
    // By default the account's home comes from the password database, not from HOME.
    const account = accountHome();
    if (account) expect(waveStateDirectories({})).toContain(path.join(account, ".wave"));
  });
});
