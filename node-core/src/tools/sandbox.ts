// What the two shell tools (Bash, run_shell_command) share about the sandbox: the
// `dangerouslyDisableSandbox` parameter, the paragraph of their descriptions that tells models
// what the sandbox blocks, the plan each call makes once (in its `prepare`) for the check and the run,
// and how a result says that its command ran outside the sandbox.
import { z } from "zod";
import { amendResult, type ToolContext, type ToolResult } from "../core/tool.js";
import type { PermissionRequest } from "../permissions/types.js";
import type { SandboxPolicy } from "../shell/sandbox/policy.js";
import type { SandboxPlan } from "../shell/sandbox/service.js";

export const DISABLE_SANDBOX_PARAMETER = z
  .boolean()
  .optional()
  .describe(
    "Run this command outside the OS sandbox, with the user's full permissions. Only after the same command failed because of the sandbox (Read-only file system, Permission denied on a protected path, no network), and say why in description. The user is asked to approve it.",
  );

/**
 * The paragraph both shell tools give. `stopping` says how that tool's left-running processes
 * are stopped, since no later command inside the sandbox can see them.
 */
export const sandboxText = (stopping: string) => `Sandbox:
- When the OS sandbox is active, commands can read the file system except credential stores (private keys in ~/.ssh, ~/.aws/credentials, ~/.gnupg, ~/.netrc, ~/.kube, coding agents' tokens, Wave's own state in ~/.wave, …); ~/.npmrc, ~/.yarnrc.yml, ~/.pypirc, ~/.docker/config.json, ~/.gradle/gradle.properties and ~/.m2/settings.xml are shown without their tokens and passwords (registries, proxies and mirrors stay). They write only the workspace and the directories the user added, $TMPDIR (private; /tmp itself is read-only) and package-manager caches (npm, yarn, pnpm, pip, cargo, go, gradle, maven, …). Inside the workspace .envrc, .vscode/, .idea/, .claude/ and shell start-up files stay read-only. The network may be cut off entirely. Each command has its own process namespace: it cannot see or signal processes started by earlier commands (${stopping}).
- Git's metadata (every .git, at any depth) is read-only: git status, log, diff, show and blame work; git commit, add, checkout, switch, merge, rebase, stash, fetch and pull fail with "Read-only file system" — run those again with dangerouslyDisableSandbox: true.
- Unix sockets are refused ("Operation not permitted"): no tmux, ssh-agent, Docker or D-Bus, and no socket server of the command's own — use TCP on 127.0.0.1 instead.
- A failure caused by the sandbox looks like "Read-only file system" (EROFS), "Permission denied" (EACCES) on a credential store or protected path, "Operation not permitted", or, with the network cut off, "Could not resolve host" / "Network is unreachable". Prefer a way that stays inside (write under the workspace or $TMPDIR).
- Only when a command failed because of the sandbox and really must reach outside it, run it again with dangerouslyDisableSandbox: true and say why in description. The user is asked to approve it, and it is refused when the user requires the sandbox. The result says when a command ran outside the sandbox.`;

/** What the model should know after a sandboxed command hit one of the sandbox's rules: how to do it instead. */
export function sandboxHints(output: string, run: { policy?: SandboxPolicy }): string[] {
  const policy = run.policy;
  if (!policy) return [];
  const hints: string[] = [];
  const lines = output.split("\n");
  const gitDirs = policy.readOnly.filter((p) => /(^|\/)\.git$/i.test(p) || policy.gitEntries.includes(p));
  if (lines.some((l) => /Read-only file system/i.test(l) && (/\.git\b/.test(l) || gitDirs.some((g) => l.includes(g))))) {
    hints.push(
      "Git's metadata (.git) is read-only inside the sandbox, so nothing a command writes can change what git runs later. Reading works (status, log, diff, show, blame); to commit, add, checkout, switch, merge, rebase, stash, fetch or pull, run the git command again with dangerouslyDisableSandbox: true (the user is asked).",
    );
  }
  if (policy.unixSockets === "blocked" && lines.some((l) => /Operation not permitted|EPERM/.test(l) && /socket|connect|\.sock\b|tmux|ssh-agent|agent|docker|dbus/i.test(l))) {
    hints.push(
      "Unix sockets are refused inside the sandbox (Operation not permitted): no connection to tmux, ssh-agent, Docker, D-Bus or another program's socket, and no socket server of its own. Use TCP on 127.0.0.1 for a server of the command's own; to reach another program's socket, run the command with dangerouslyDisableSandbox: true (the user is asked), or the user can allow that socket (sandbox.allowUnixSockets).",
    );
  }
  return hints;
}

/**
 * Grep and Glob run rg outside the sandbox: never one a sandboxed command could have written
 * (an rg in the workspace's node_modules, in a vendor folder `sandbox.allowWrite` covers).
 */
export function trustedRipgrepLookup(ctx: ToolContext): { writablePlaces: string[]; onRefused: (file: string, reason: string) => void } {
  return {
    writablePlaces: ctx.sandbox.writablePlaces(ctx.session),
    onRefused: (file, reason) => ctx.log.warn(`not running ${file}: ${reason}`),
  };
}

/**
 * The call's plan: how its command runs (inside the sandbox or not, or why it cannot run). A shell
 * tool makes it in its `prepare`, so the permission check judges the plan the run then uses.
 */
export function sandboxPlan(input: { dangerouslyDisableSandbox?: boolean }, ctx: ToolContext): Promise<SandboxPlan> {
  return ctx.sandbox.plan({ session: ctx.session, escape: input.dangerouslyDisableSandbox === true });
}

/** The permission request's sandbox fields for a plan. */
export function sandboxFields(plan: SandboxPlan): Pick<PermissionRequest, "sandboxed" | "outsideSandboxReason"> {
  return plan.sandboxed ? { sandboxed: true } : { sandboxed: false, outsideSandboxReason: plan.outsideReason ?? "no sandbox is active" };
}

/** The short line a result carries when its command ran outside the sandbox. */
export function outsideSandboxNote(plan: SandboxPlan): string | undefined {
  if (plan.sandboxed) return undefined;
  return `Ran outside the sandbox: ${plan.outsideCause === "escape" ? "dangerouslyDisableSandbox was set" : plan.outsideCause === "off" ? "sandbox mode is off" : "no sandbox is available here (wave-core env says why)"}.`;
}

/**
 * Adds to the result of a command that started under `plan` whether it ran sandboxed and, when it
 * ran outside, the note as the last line. (A command that never started says `sandboxed: false`.)
 */
export function withSandboxOutcome(result: ToolResult, plan: SandboxPlan): ToolResult {
  const fields = { sandboxed: plan.sandboxed };
  const note = outsideSandboxNote(plan);
  if (!note) return amendResult(result, result.content, fields);
  const content = [...result.content];
  const last = content.length - 1;
  const lastItem = content[last];
  if (lastItem && lastItem.type === "text") content[last] = { type: "text", text: `${lastItem.text.replace(/\n+$/, "")}\n${note}` };
  else content.push({ type: "text", text: note });
  return amendResult(result, content, fields);
}
