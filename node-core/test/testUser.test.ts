// The unprivileged account the attack tests run as (test/globalSetup.ts): real, ordinary, with a
// home of its own in the password database.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isRoot, testAccounts, testUser } from "./support/testUser.js";

describe("the test accounts", () => {
  it.runIf(isRoot)("as root: root and an ordinary account whose programs run with its uid, groups and password-database home", () => {
    const accounts = testAccounts();
    expect(accounts.map((a) => a.label)).toEqual(["root", "user"]);
    const user = accounts[1]!;
    expect(user.uid).toBeGreaterThan(0);
    const [cmd, ...args] = user.wrap(["sh", "-c", 'id -u; id -g; getent passwd "$(id -un)" | cut -d: -f6']);
    const r = spawnSync(cmd!, args, { encoding: "utf8" });
    expect(r.stdout.split("\n").slice(0, 3)).toEqual([String(user.uid), String(user.gid), user.home]);
    const st = statSync(user.home);
    expect([st.uid, st.mode & 0o777]).toEqual([user.uid, 0o700]);
    expect(testUser()?.name).toMatch(/^wavet-[0-9a-f]+$/);
  });

  it.runIf(!isRoot)("not root: only the current user", () => {
    expect(testAccounts().map((a) => [a.label, a.uid])).toEqual([["user", process.getuid!()]]);
  });
});
