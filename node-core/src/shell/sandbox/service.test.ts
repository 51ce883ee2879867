// The service's plan on macOS (injected platform: sandbox-exec cannot run here; the macOS job of
// the GitHub workflow runs the sandbox tests for real): the command is wrapped in sandbox-exec with
// the profile of the session's policy, TMPDIR points at the private directory.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/processes.js";
import { captureLogs, SANDBOX_STATUS_LINE } from "../../../test/support/logs.js";
import { platformWith } from "../../../test/support/platform.js";
import { EventBus } from "../../base/events.js";
import { Services } from "../../base/services.js";
import { SessionManager } from "../../base/session.js";
import { Workspace } from "../../base/workspace.js";
import { SANDBOX_EXEC } from "./macos.js";
import { SandboxService } from "./service.js";

// The services here start and change status on injected platforms: the lines announcing it are claimed.
captureLogs(SANDBOX_STATUS_LINE);

function macService(root: string) {
  const workspace = new Workspace(root);
  const events = new EventBus();
  const sessions = new SessionManager(workspace, events, new Services<void>(undefined, "The core"));
  const platform = platformWith({
    name: "darwin",
    isExecutable: (f) => f === SANDBOX_EXEC,
    exec: async () => ({ exitCode: 0, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) }),
  });
  const service = new SandboxService({ workspace, events, permissionMode: () => "ask", platform, env: {} });
  return { service, session: sessions.main, workspace };
}

describe("the sandbox service on macOS", () => {
  it("wraps the shell in sandbox-exec with the session's policy as parameters", async () => {
    const root = tempDir("wave-mac-ws-");
    mkdirSync(path.join(root, ".git/hooks"), { recursive: true });
    const { service, session, workspace } = macService(root);
    expect(await service.status()).toEqual({ active: true, kind: "seatbelt", network: "allow" });
    workspace.updateSettings({ sandbox: { network: "deny" } });
    const plan = await service.plan({ session, escape: false });
    expect(plan).toMatchObject({ sandboxed: true, kind: "seatbelt", network: "deny" });
    const wrapped = plan.wrap!({ file: "/bin/zsh", args: ["-c", "make"], env: { PATH: "/usr/bin" }, cwd: root, runFiles: [] });
    expect(wrapped.file).toBe(SANDBOX_EXEC);
    expect(wrapped.args[0]).toBe("-p");
    expect(wrapped.args[1]).toContain("(deny network-outbound (remote ip))");
    const params = wrapped.args.filter((_, i) => wrapped.args[i - 1] === "-D");
    // Writable: the workspace, wherever it comes among the caches of the home that exist.
    expect(params.filter((p) => /^W\d+=/.test(p) && p.endsWith(`=${root}`))).toHaveLength(1);
    // The same principles as on Linux: all of .git read-only, no unix socket but DNS's, no kernel settings.
    expect(params).toContain(`R${params.findIndex((p) => p.endsWith("/.git"))}=${path.join(root, ".git")}`);
    expect(wrapped.args[1]).toContain("(deny network-outbound (remote unix-socket))");
    expect(wrapped.args[1]).toContain("(deny sysctl-write)");
    expect(wrapped.args.slice(-3)).toEqual(["/bin/zsh", "-c", "make"]);
    expect(wrapped.env.TMPDIR).toBe(params.find((p) => p.endsWith("/tmp"))!.replace(/^W\d+=/, ""));
    service.dispose();
  });

  it("an escaping call runs outside, with the reason the question shows", async () => {
    const { service, session } = macService(tempDir("wave-mac-ws-"));
    expect(await service.plan({ session, escape: true })).toMatchObject({ sandboxed: false, outsideCause: "escape", outsideReason: "the call set dangerouslyDisableSandbox" });
    service.dispose();
  });
});
