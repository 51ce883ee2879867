// Host methods for the permission layer: list and edit the rules, set the mode, preview a
// decision, and run a full check (which may ask the host through `permission/request`).
import { z } from "zod";
import { defineHostMethod, type HostMethod } from "../protocol/hostMethod.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { PERMISSION_MODES } from "./decide.js";
import { RuleSyntaxError } from "./rules.js";
import { PolicyError } from "./service.js";
import type { PermissionCheck } from "./types.js";

const kind = z.enum(["allow", "deny"]).default("allow").describe("allow (default) or deny");

const checkParams = z
  .object({
    tool: z.string().min(1).optional().describe("The tool the check is for; Bash for a command and Write for a path when omitted."),
    command: z.string().optional(),
    path: z.string().min(1).optional(),
    description: z.string().optional(),
    directory: z.string().min(1).optional(),
    sessionId: z.string().min(1).optional(),
  })
  .refine((p) => (p.command === undefined) !== (p.path === undefined), { message: "give exactly one of command or path" });

function toCheck(p: z.output<typeof checkParams>): PermissionCheck {
  return {
    tool: p.tool ?? (p.command !== undefined ? "Bash" : "Write"),
    ...(p.command !== undefined ? { command: p.command } : {}),
    ...(p.path !== undefined ? { path: p.path } : {}),
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.directory !== undefined ? { directory: p.directory } : {}),
    ...(p.sessionId !== undefined ? { sessionId: p.sessionId } : {}),
  };
}

async function userErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RuleSyntaxError) throw new RpcError(ErrorCode.InvalidParams, err.message, { rule: err.rule });
    if (err instanceof PolicyError) throw new RpcError(ErrorCode.InvalidParams, err.message);
    throw err;
  }
}

export const permissionsList = defineHostMethod({
  name: "permissions/list",
  params: z.object({}).passthrough(),
  handle: async (_p, { core, asker }) => ({ ...(await core.permissions.state()), canAsk: asker !== undefined }),
});

export const permissionsSetMode = defineHostMethod({
  name: "permissions/setMode",
  params: z.object({ mode: z.enum(PERMISSION_MODES) }),
  handle: (p, { core }) => userErrors(() => core.permissions.setMode(p.mode)),
});

export const permissionsAddRule = defineHostMethod({
  name: "permissions/addRule",
  params: z.object({ rule: z.string(), kind }),
  handle: (p, { core }) =>
    userErrors(async () => {
      const rule = await core.permissions.addRule(p.rule, p.kind);
      return { rule, ...(await core.permissions.state()) };
    }),
});

export const permissionsRemoveRule = defineHostMethod({
  name: "permissions/removeRule",
  params: z.object({ rule: z.string(), kind }),
  handle: (p, { core }) =>
    userErrors(async () => {
      await core.permissions.removeRule(p.rule, p.kind);
      return core.permissions.state();
    }),
});

export const permissionsSetRules = defineHostMethod({
  name: "permissions/setRules",
  params: z.object({ allow: z.array(z.string()).optional(), deny: z.array(z.string()).optional() }),
  handle: (p, { core }) =>
    userErrors(async () => {
      await core.permissions.setRules(p);
      return core.permissions.state();
    }),
});

export const permissionsEvaluate = defineHostMethod({
  name: "permissions/evaluate",
  params: checkParams,
  // A preview of what the core's own shell tools would meet: they run inside the sandbox when it is active.
  handle: (p, { core }) =>
    userErrors(async () => {
      const check = toCheck(p);
      if (check.command !== undefined && SHELL_TOOLS.has(check.tool)) {
        const session = core.sessions.get(check.sessionId);
        if (session) {
          const w = await core.sandbox.wouldSandbox(session);
          Object.assign(check, w.sandboxed ? { sandboxed: true } : { sandboxed: false, ...(w.reason ? { outsideSandboxReason: w.reason } : {}) });
        }
      }
      return (await core.permissions.evaluate(check)).decision;
    }),
});

/** The tools whose commands run inside the core's sandbox. */
const SHELL_TOOLS = new Set(["Bash", "run_shell_command"]);

// The host runs what it checks itself, outside the core's sandbox: never judged as sandboxed.
export const permissionsCheck = defineHostMethod({
  name: "permissions/check",
  params: checkParams,
  handle: (p, { core, signal, asker }) => userErrors(() => core.permissions.check(toCheck(p), { signal, asker, origin: "host" })),
});

export const permissionHostMethods: readonly HostMethod[] = [
  permissionsList,
  permissionsSetMode,
  permissionsAddRule,
  permissionsRemoveRule,
  permissionsSetRules,
  permissionsEvaluate,
  permissionsCheck,
] as HostMethod[];
