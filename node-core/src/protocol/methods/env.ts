// Host methods of the login-environment concern (PROTOCOL.md `env/status`).
import { z } from "zod";
import { defineHostMethod } from "../hostMethod.js";
import { loginEnvironmentStatus } from "../../env/index.js";

const envStatus = defineHostMethod({
  name: "env/status",
  params: z.object({}).passthrough(),
  handle: async (_p, { core }) => ({ ...loginEnvironmentStatus(), sandbox: await core.sandbox.status() }),
});

export const envHostMethods = [envStatus];
