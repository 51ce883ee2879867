// Host methods of the login-environment concern (PROTOCOL.md `env/status`).
import { z } from "zod";
import { envStatusResultSchema } from "../wire.js";
import { defineHostMethod } from "../hostMethod.js";
import { loginEnvironmentStatus } from "../../env/index.js";
import { SHELL_ENGINE } from "../../shell/engine.js";

/** The probe's status, plus which bundled search helpers this core's shells use (probed when asked). */
const envStatus = defineHostMethod({
  name: "env/status",
  params: z.object({}).passthrough(),
  result: envStatusResultSchema,
  handle: async (_p, { core }) => ({ ...loginEnvironmentStatus(), searchHelpers: await core.services.get(SHELL_ENGINE).searchHelpers(), sandbox: await core.sandbox.status() }),
});

export const envHostMethods = [envStatus];
