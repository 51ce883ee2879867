// Host methods of the login-environment concern (PROTOCOL.md `env/status`).
import { z } from "zod";
import { defineHostMethod } from "../protocol/hostMethod.js";
import { searchHelperStatus } from "../shell/shims/index.js";
import { loginEnvironmentStatus } from "./index.js";

/** The probe's status, plus which bundled search helpers this core uses (read when asked). */
export const envStatus = defineHostMethod({
  name: "env/status",
  params: z.object({}).passthrough(),
  handle: async () => ({ ...loginEnvironmentStatus(), searchHelpers: await searchHelperStatus() }),
});

export const envHostMethods = [envStatus];
