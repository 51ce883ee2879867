// The shim seam: the runner asks shimInjection() for the shell it starts, with the user's `shims`
// setting, and applies both halves (environment and script prefix). The real shims are another
// issue; here the seam is replaced by an injection that makes its inputs visible.
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeCores, testCore } from "../../test/support/core.js";

vi.mock("../shell/shims/index.js", () => ({
  NO_SHIMS: { env: {}, scriptPrefix: "" },
  shimInjection: async (shell: { kind: string; path: string }, opts: { enabled: boolean }) => ({
    env: { SEAM_ENABLED: String(opts.enabled), SEAM_SHELL: shell.kind },
    scriptPrefix: opts.enabled ? "grep() { echo shimmed-grep; }\n" : "",
  }),
}));

afterEach(closeCores);

describe("shim seam", () => {
  it("applies shimInjection's env and prefix, enabled by default and off with the shims setting", async () => {
    const t = testCore();
    const on = await t.bash({ command: 'echo "$SEAM_ENABLED $SEAM_SHELL"; grep anything; cd /; pwd' });
    expect(on.s.output).toBe(`true ${process.env.SHELL?.endsWith("zsh") ? "zsh" : "bash"}\nshimmed-grep\n/\n`);
    t.core.workspace.updateSettings({ shims: false });
    const off = await t.bash({ command: 'echo "$SEAM_ENABLED"; type grep | head -c 7' });
    expect(off.s.output).toBe("false\ngrep is");
  });
});
