// Host methods for the permission layer: list and edit the rules, set the mode, preview a
// decision, and run a full check (which may ask the host through `permission/request`).
import { z } from "zod";
import { decisionSchema, permissionOutcomeSchema, permissionStateFields, permissionStateSchema } from "../wire.js";
import { osString } from "../../core/tool.js";
import { defineHostMethod, type HostMethod } from "../hostMethod.js";
import { ErrorCode, RpcError } from "../jsonrpc.js";
import { PERMISSION_MODES } from "../../base/settings.js";
import { RuleSyntaxError } from "../../permissions/rules.js";
import { PolicyError } from "../../permissions/service.js";
import type { PermissionAsker, PermissionCheck } from "../../permissions/types.js";
import type { PermissionState } from "../../permissions/service.js";

const kind = z.enum(["allow", "deny"]).default("allow").describe("allow (default) or deny");

const checkParams = z
  .object({
    tool: z.string().min(1).optional().describe("The tool the check is for; Bash for a command and Write for a path when omitted."),
    command: osString("command").optional(),
    path: osString("path").min(1).optional(),
    read: osString("path").min(1).optional().describe("A file or folder Read, Grep or Glob would read (credential stores and Wave's state are asked)."),
    description: z.string().optional(),
    directory: osString("path").min(1).optional(),
    sessionId: z.string().min(1).optional(),
    sandboxed: z.boolean().optional().describe("The command would run inside the OS sandbox."),
    outsideSandboxReason: z.string().optional(),
  })
  .refine((p) => [p.command, p.path, p.read].filter((x) => x !== undefined).length === 1, { message: "give exactly one of command, path or read" });

function toCheck(p: z.output<typeof checkParams>): PermissionCheck {
  return {
    tool: p.tool ?? (p.command !== undefined ? "Bash" : p.read !== undefined ? "Read" : "Write"),
    ...(p.command !== undefined ? { command: p.command } : {}),
    ...(p.path !== undefined ? { path: p.path } : {}),
    ...(p.read !== undefined ? { read: p.read } : {}),
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.directory !== undefined ? { directory: p.directory } : {}),
    ...(p.sessionId !== undefined ? { sessionId: p.sessionId } : {}),
    ...(p.sandboxed !== undefined ? { sandboxed: p.sandboxed } : {}),
    ...(p.outsideSandboxReason !== undefined ? { outsideSandboxReason: p.outsideSandboxReason } : {}),
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

/** Every PermissionState answer says whether this connection answers `permission/request`. */
function withCanAsk(state: PermissionState, asker: PermissionAsker | undefined): PermissionState & { canAsk: boolean } {
  return { ...state, canAsk: asker !== undefined };
}

const permissionsList = defineHostMethod({
  name: "permissions/list",
  params: z.object({}).passthrough(),
  result: permissionStateSchema,
  handle: async (_p, { core, asker }) => withCanAsk(await core.permissions.state(), asker),
});

const permissionsSetMode = defineHostMethod({
  name: "permissions/setMode",
  params: z.object({ mode: z.enum(PERMISSION_MODES) }),
  result: permissionStateSchema,
  handle: (p, { core, asker }) => userErrors(async () => withCanAsk(await core.permissions.setMode(p.mode), asker)),
});

const permissionsAddRule = defineHostMethod({
  name: "permissions/addRule",
  params: z.object({ rule: z.string(), kind }),
  result: z.strictObject({ rule: z.string(), ...permissionStateFields }),
  handle: (p, { core, asker }) =>
    userErrors(async () => {
      const rule = await core.permissions.addRule(p.rule, p.kind);
      return { rule, ...withCanAsk(await core.permissions.state(), asker) };
    }),
});

const permissionsRemoveRule = defineHostMethod({
  name: "permissions/removeRule",
  params: z.object({ rule: z.string(), kind }),
  result: permissionStateSchema,
  handle: (p, { core, asker }) =>
    userErrors(async () => {
      await core.permissions.removeRule(p.rule, p.kind);
      return withCanAsk(await core.permissions.state(), asker);
    }),
});

const permissionsSetRules = defineHostMethod({
  name: "permissions/setRules",
  params: z.object({ allow: z.array(z.string()).optional(), deny: z.array(z.string()).optional() }),
  result: permissionStateSchema,
  handle: (p, { core, asker }) =>
    userErrors(async () => {
      await core.permissions.setRules(p);
      return withCanAsk(await core.permissions.state(), asker);
    }),
});

/** The tools whose commands run inside the core's sandbox. */
const SHELL_TOOLS = new Set(["Bash", "run_shell_command"]);

// A preview of what the core's own shell tools would meet: unless the host says where the command
// runs (`sandboxed` or `outsideSandboxReason`), they run inside the sandbox when it is active (and
// not when it is not, and why).
const permissionsEvaluate = defineHostMethod({
  name: "permissions/evaluate",
  params: checkParams,
  result: decisionSchema,
  handle: (p, { core }) =>
    userErrors(async () => {
      const check = toCheck(p);
      const session = core.sessions.get(check.sessionId);
      if (check.command !== undefined && check.sandboxed === undefined && check.outsideSandboxReason === undefined && SHELL_TOOLS.has(check.tool) && session) {
        const w = await core.sandbox.wouldSandbox(session);
        Object.assign(check, w.sandboxed ? { sandboxed: true } : { sandboxed: false, ...(w.reason ? { outsideSandboxReason: w.reason } : {}) });
      }
      return (await core.permissions.evaluate(check)).decision;
    }),
});

const permissionsCheck = defineHostMethod({
  name: "permissions/check",
  params: checkParams,
  result: permissionOutcomeSchema,
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
