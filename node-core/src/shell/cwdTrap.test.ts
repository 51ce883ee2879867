// The core's own machinery cannot be steered from the command (issue 12, section 2): the cwd
// tracking writes `pwd -P` to a file only the core names. A bare assignment, `unset`, dropping
// `readonly`, shadowing in a function, or re-opening a file descriptor on any variable the core
// uses must not send that write anywhere else. Real bash and zsh through the Bash tool.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeCores, SHELLS, testCore, useShell } from "../../test/support/core.js";

afterEach(closeCores);

/** Every name the start-up files read or set, and the one the trap compares. */
const CORE_VARIABLES = [
  "__wave_cwd_file",
  "WAVE_CWD_FILE",
  "__wave_cwd_start",
  "WAVE_CWD_START",
  "PWD",
  "__wave_shims",
  "WAVE_SHIMS_FILE",
  "__wave_x",
  "__wave_f",
  "WAVE_USER_BASH_ENV",
  "WAVE_USER_ZDOTDIR",
];

/** Ways a command can try to repoint a variable at `target`, then end so the EXIT trap runs. */
function attacks(name: string, target: string): string[] {
  const t = `'${target}'`;
  return [
    `${name}=${t}`,
    `export ${name}=${t}`,
    `unset ${name}; ${name}=${t}`,
    `declare +r ${name} 2>/dev/null; ${name}=${t}`,
    `typeset +r ${name} 2>/dev/null; ${name}=${t}`,
    `declare -g ${name}=${t}`,
    `f() { local ${name}=${t}; exit 0; }; f`,
    `f() { typeset ${name}=${t}; exit 0; }; f`,
    `eval "${name}=${t}"`,
    `readonly ${name}=${t}`,
  ];
}

describe.each(SHELLS)("the cwd trap cannot be redirected (%s)", (kind, shellPath) => {
  useShell(shellPath);

  it(`assigning, unsetting, un-readonly-ing or shadowing a core variable writes nothing elsewhere (${kind})`, async () => {
    const t = testCore();
    const sub = path.join(t.root, "sub");
    mkdirSync(sub);
    let n = 0;
    for (const name of CORE_VARIABLES) {
      for (const attack of attacks(name, "")) {
        const target = path.join(t.root, `target-${n++}`);
        const command = `cd sub; ${attack.replace("''", `'${target}'`)}`;
        const r = await t.bash({ command });
        expect(existsSync(target) ? readFileSync(target, "utf8") : "(not written)", `${kind}: ${command}`).toBe("(not written)");
        // The tracking itself still works where the shell got to its end: the cd is reported.
        if (r.s.exitCode === 0) expect(r.s.cwd, `${kind}: ${command}`).toBe(sub);
        await t.bash({ command: `cd ${JSON.stringify(t.root)}` });
      }
    }
  });

  it(`re-opening descriptors does not redirect the core's write (${kind})`, async () => {
    const t = testCore();
    const sub = path.join(t.root, "sub");
    mkdirSync(sub);
    for (const fd of [3, 4, 5, 9, 10, 11, 19, 255]) {
      const target = path.join(t.root, `fd-${fd}`);
      // zsh takes descriptors above 9 only with the {var}> form; bash accepts them directly.
      const open = fd > 9 && kind === "zsh" ? `exec {v}>'${target}'` : `exec ${fd}>'${target}'`;
      const r = await t.bash({ command: `cd sub; ${open}; true` });
      expect(readFileSync(target, "utf8"), `${kind}: fd ${fd}`).toBe("");
      expect(r.s.cwd).toBe(sub);
      await t.bash({ command: `cd ${JSON.stringify(t.root)}` });
    }
  });
});
